// SPDX-License-Identifier: GPL-2.0
#include "util/name_bytes.h"

#include <inttypes.h>
#include <stdio.h>

void cp_name_bytes(uint64_t bytes, char *out, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB" };
	const size_t last = sizeof(units) / sizeof(units[0]) - 1;
	size_t unit = 0;

	while (bytes && bytes % 1024 == 0 && unit < last) {
		bytes /= 1024;
		unit++;
	}
	snprintf(out, len, "%" PRIu64 " %s", bytes, units[unit]);
}
