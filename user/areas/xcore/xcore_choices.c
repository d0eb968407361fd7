// SPDX-License-Identifier: GPL-2.0
#include "areas/xcore/xcore_choices.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cp_xcore_parse_delay(const char *text, unsigned int *out, char *why,
			 size_t why_len)
{
	char *end;
	unsigned long value;

	errno = 0;
	value = strtoul(text, &end, 10);
	if (*text < '0' || *text > '9' || *end || errno) {
		snprintf(why, why_len, "'%s' is not a number of instructions",
			 text);
		return -EINVAL;
	}
	if (value > CP_XCORE_MAX_DELAY) {
		snprintf(why, why_len, "%s is above the maximum of %u", text,
			 CP_XCORE_MAX_DELAY);
		return -EINVAL;
	}
	*out = (unsigned int)value;
	return 0;
}
