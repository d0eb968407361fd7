// SPDX-License-Identifier: GPL-2.0
#include "areas/coldcache/coldcache_choices.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const method_names[CP_COLD_NR_METHODS] = {
	[CP_COLD_WARM] = "warm",
	[CP_COLD_GARBAGE_NAIVE] = "garbage-naive",
	[CP_COLD_GARBAGE_PLANNED] = "garbage-planned",
	[CP_COLD_CLFLUSH] = "clflush",
	[CP_COLD_WBINVD] = "wbinvd",
	[CP_COLD_WBNOINVD] = "wbnoinvd",
};

const char *cp_coldcache_method_name(enum cp_coldcache_method method)
{
	return (unsigned int)method < CP_COLD_NR_METHODS ? method_names[method]
							 : "unknown";
}

static int method_of(const char *name, size_t len)
{
	for (int i = 0; i < CP_COLD_NR_METHODS; i++)
		if (strlen(method_names[i]) == len &&
		    strncmp(method_names[i], name, len) == 0)
			return i;
	return -1;
}

int cp_coldcache_parse_methods(const char *text, unsigned int *methods,
			       char *why, size_t why_len)
{
	const char *item = text;

	*methods = 0;
	for (;;) {
		size_t len = strcspn(item, ",");
		int method = method_of(item, len);

		if (method < 0) {
			snprintf(why, why_len,
				 "unknown method '%.*s' (methods: warm, garbage-naive, garbage-planned, clflush, wbinvd, wbnoinvd)",
				 (int)len, item);
			return -EINVAL;
		}
		if (*methods & (1u << method)) {
			snprintf(why, why_len, "method '%s' is named twice",
				 method_names[method]);
			return -EINVAL;
		}
		*methods |= 1u << method;
		if (item[len] == '\0')
			return 0;
		item += len + 1;
	}
}

int cp_coldcache_parse_factor(const char *text, double *factor, char *why,
			      size_t why_len)
{
	char *end;
	double value;

	errno = 0;
	value = strtod(text, &end);
	if (end == text || *end != '\0' || errno || !isfinite(value)) {
		snprintf(why, why_len, "'%s' is not a number", text);
		return -EINVAL;
	}
	if (!(value > 0) || value > CP_COLD_MAX_FACTOR) {
		snprintf(why, why_len,
			 "%s is out of range (above 0, at most %g)", text,
			 CP_COLD_MAX_FACTOR);
		return -EINVAL;
	}
	*factor = value;
	return 0;
}
