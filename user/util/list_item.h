/* SPDX-License-Identifier: GPL-2.0 */
/* Walking a comma-separated option value ("4,8,64") item by item. */
#ifndef CACHEPROBE_LIST_ITEM_H
#define CACHEPROBE_LIST_ITEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The next item of *@cursor copied into @item (@item_len bytes, always
 * terminated); *@cursor moves past it, to NULL after the last.  False at
 * the end (*@cursor NULL).  *@too_long when the item did not fit.
 */
bool cp_list_next(const char **cursor, char *item, size_t item_len,
		  bool *too_long);

/*
 * Decimal digits at *@text (no sign, no space), at most @max: true with
 * the value in *@out and *@text moved past the digits; false, nothing
 * moved, when there is no digit or the value passes @max.
 */
bool cp_parse_decimal(const char **text, uint64_t max, uint64_t *out);

#endif
