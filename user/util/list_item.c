// SPDX-License-Identifier: GPL-2.0
#include "util/list_item.h"

#include <stdio.h>
#include <string.h>

bool cp_list_next(const char **cursor, char *item, size_t item_len,
		  bool *too_long)
{
	const char *start = *cursor;
	size_t len;

	if (!start)
		return false;
	len = strcspn(start, ",");
	*too_long = len >= item_len;
	snprintf(item, item_len, "%.*s", (int)len, start);
	*cursor = start[len] ? start + len + 1 : NULL;
	return true;
}

bool cp_parse_decimal(const char **text, uint64_t max, uint64_t *out)
{
	uint64_t value = 0;
	const char *c = *text;

	if (*c < '0' || *c > '9')
		return false;
	for (; *c >= '0' && *c <= '9'; c++) {
		uint64_t digit = (uint64_t)(*c - '0');

		/* Checked before it is computed, so it cannot wrap. */
		if (value > max / 10 || max - value * 10 < digit)
			return false;
		value = value * 10 + digit;
	}
	*text = c;
	*out = value;
	return true;
}
