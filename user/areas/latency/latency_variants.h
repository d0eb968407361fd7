/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The curves of the latency area, told apart by their params, never by
 * their names: a measurement belongs to the curve of its mode, the page
 * size it asked for ("page_bytes") and the number of chases followed at
 * once ("chases").  Files written before those params existed hold one
 * curve per mode with one chase, on 2 MiB pages asked for in user mode
 * and on 4 KiB pages in kernel mode (the module had no other before ABI
 * 4): they read as those curves, so readers of old and new files need no
 * second path.
 */
#ifndef CACHEPROBE_LATENCY_VARIANTS_H
#define CACHEPROBE_LATENCY_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

#define CP_LATENCY_SMALL_PAGE_BYTES 4096ll
#define CP_LATENCY_CLASSIC_PAGE_BYTES (2ll << 20)
/* The area plans at most this many sizes per curve. */
#define CP_LATENCY_MAX_POINTS 128

struct cp_latency_variant {
	int64_t page_bytes;		/* asked for */
	int64_t page_bytes_backed;	/* what mapped the buffer; 0: unknown */
	int64_t chases;
};

struct cp_latency_variant
cp_latency_variant_of(const struct cp_measurement *measurement);

/* One curve, ascending by working set, one measurement per size (the
 * first recorded, should a size repeat). */
struct cp_latency_curve {
	size_t n;
	uint64_t size_bytes[CP_LATENCY_MAX_POINTS];
	const struct cp_measurement *points[CP_LATENCY_MAX_POINTS];
};

/* The curve of @mode with @page_bytes asked for and @chases; measurements
 * without samples or size are left out.  Returns its length. */
size_t cp_latency_curve_collect(const struct cp_results *results,
				const char *mode, int64_t page_bytes,
				int64_t chases, struct cp_latency_curve *curve);

/* The distinct page sizes asked for in @mode (at most @max, ascending);
 * returns how many. */
size_t cp_latency_page_sizes(const struct cp_results *results,
			     const char *mode, int64_t *page_bytes,
			     size_t max);

/* The distinct chase counts measured in @mode with @page_bytes (at most
 * @max, ascending); returns how many. */
size_t cp_latency_chase_counts(const struct cp_results *results,
			       const char *mode, int64_t page_bytes,
			       int64_t *chases, size_t max);

#endif
