// SPDX-License-Identifier: GPL-2.0
#include "list_item.h"

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
