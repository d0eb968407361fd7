// SPDX-License-Identifier: GPL-2.0
#include "util/parse_size.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <strings.h>

static const struct {
	const char *suffix;
	unsigned int shift;
} suffixes[] = {
	{ "", 0 }, { "B", 0 },
	{ "K", 10 }, { "KiB", 10 }, { "KB", 10 },
	{ "M", 20 }, { "MiB", 20 }, { "MB", 20 },
	{ "G", 30 }, { "GiB", 30 }, { "GB", 30 },
};

int cp_parse_size(const char *text, uint64_t *out, char *why, size_t why_len)
{
	uint64_t value = 0;
	const char *pos = text;

	if (!isdigit((unsigned char)*pos)) {
		snprintf(why, why_len,
			 "'%s' is not a size (e.g. 4096, 64K, 256M, 1G)", text);
		return -EINVAL;
	}
	for (; isdigit((unsigned char)*pos); pos++) {
		if (value > (UINT64_MAX >> 30) / 10) {
			snprintf(why, why_len, "size '%s' is too large", text);
			return -EINVAL;
		}
		value = value * 10 + (uint64_t)(*pos - '0');
	}
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		if (strcasecmp(pos, suffixes[i].suffix) != 0)
			continue;
		/* The digits fit; the unit may still carry them past 2^64. */
		if (value > (UINT64_MAX >> suffixes[i].shift)) {
			snprintf(why, why_len, "size '%s' is too large", text);
			return -EINVAL;
		}
		*out = value << suffixes[i].shift;
		return 0;
	}
	snprintf(why, why_len,
		 "unknown unit '%s' in size '%s' (use K, M or G)", pos, text);
	return -EINVAL;
}
