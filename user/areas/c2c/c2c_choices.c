// SPDX-License-Identifier: GPL-2.0
#include "areas/c2c/c2c_choices.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cp_c2c_home_name(enum cp_c2c_home home)
{
	return home == CP_C2C_HOME_SECOND ? "second" : "first";
}

int cp_c2c_parse_home(const char *text, enum cp_c2c_home *out, char *why,
		      size_t why_len)
{
	if (strcmp(text, "first") == 0)
		*out = CP_C2C_HOME_FIRST;
	else if (strcmp(text, "second") == 0)
		*out = CP_C2C_HOME_SECOND;
	else {
		snprintf(why, why_len, "'%s' is neither 'first' nor 'second'",
			 text);
		return -EINVAL;
	}
	return 0;
}

int cp_c2c_parse_budget(const char *text, double *out_ns, char *why,
			size_t why_len)
{
	char *end;
	double seconds;

	errno = 0;
	seconds = strtod(text, &end);
	if (end == text || errno || (*text < '0' || *text > '9'))
		goto bad;
	if (strcmp(end, "m") == 0)
		seconds *= 60;
	else if (*end && strcmp(end, "s") != 0)
		goto bad;
	if (!isfinite(seconds) || seconds <= 0 ||
	    seconds > CP_C2C_MAX_BUDGET_S) {
		snprintf(why, why_len,
			 "'%s' is out of range (above 0, at most %.0f s)", text,
			 CP_C2C_MAX_BUDGET_S);
		return -EINVAL;
	}
	*out_ns = seconds * 1e9;
	return 0;
bad:
	snprintf(why, why_len,
		 "'%s' is not a time in seconds (e.g. 2.5, 30s, 2m)", text);
	return -EINVAL;
}

static bool ends_with(const char *text, const char *suffix)
{
	size_t len = strlen(text), suffix_len = strlen(suffix);

	return len > suffix_len &&
	       strcmp(text + len - suffix_len, suffix) == 0;
}

int cp_c2c_parse_matrix_path(const char *text, char *why, size_t why_len)
{
	if (ends_with(text, ".csv") || ends_with(text, ".json"))
		return 0;
	snprintf(why, why_len,
		 "'%s' ends in neither .csv nor .json (the format follows the name)",
		 text);
	return -EINVAL;
}
