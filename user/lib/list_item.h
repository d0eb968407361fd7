/* SPDX-License-Identifier: GPL-2.0 */
/* Walking a comma-separated option value ("4,8,64") item by item. */
#ifndef CACHEPROBE_LIST_ITEM_H
#define CACHEPROBE_LIST_ITEM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The next item of *@cursor copied into @item (@item_len bytes, always
 * terminated); *@cursor moves past it, to NULL after the last.  False at
 * the end (*@cursor NULL).  *@too_long when the item did not fit.
 */
bool cp_list_next(const char **cursor, char *item, size_t item_len,
		  bool *too_long);

#endif
