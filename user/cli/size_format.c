// SPDX-License-Identifier: GPL-2.0
#include "cli/size_format.h"

#include <inttypes.h>
#include <stdio.h>

const char *cli_format_size(uint64_t bytes, char *buf, size_t len)
{
	/* Exact units only: cache sizes are compared across machines, and
	 * "1.2 MiB" would hide the difference between 1200 and 1280 KiB. */
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	uint64_t value = bytes;
	int unit = -1;

	while (value && value % 1024 == 0 &&
	       unit + 1 < (int)(sizeof(units) / sizeof(units[0]))) {
		value /= 1024;
		unit++;
	}
	if (unit < 0)
		snprintf(buf, len, "%" PRIu64 " byte%s", bytes,
			 bytes == 1 ? "" : "s");
	else
		snprintf(buf, len, "%" PRIu64 " %s", value, units[unit]);
	return buf;
}
