// SPDX-License-Identifier: GPL-2.0
#include "util/format.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

const char *cp_format_size(uint64_t bytes, char *buf, size_t len)
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

const char *cp_format_ns(double ns, char *buf, size_t len)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = { { 1, "ns" }, { 1e3, "us" }, { 1e6, "ms" }, { 1e9, "s" } };
	size_t i = 0;

	while (i + 1 < sizeof(units) / sizeof(units[0]) &&
	       fabs(ns) >= 1000 * units[i].scale)
		i++;
	snprintf(buf, len, "%.3g %s", ns / units[i].scale, units[i].unit);
	return buf;
}
