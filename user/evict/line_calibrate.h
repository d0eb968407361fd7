/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The line classifier's levels (coldcache_lines.h), measured on this
 * machine with the same per-line timer that classifies: used by the
 * coldcache area and by the library's verify (include/cacheprobe.h).
 */
#ifndef CACHEPROBE_LINE_CALIBRATE_H
#define CACHEPROBE_LINE_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/chase.h"
#include "evict/coldcache_flush.h"
#include "evict/coldcache_lines.h"
#include "util/error.h"
#include "machine/topology.h"

/*
 * Working sets are laid out one line per 4 KiB (lines at k * this many
 * bytes): a line alone in its 4 KiB is fetched only by its own load, as
 * the prefetchers do not cross 4 KiB boundaries, and the stepping offsets
 * spread the lines over every cache set.  Sets whose spread would span
 * more than CP_LINES_SPREAD_MAX_SPAN bytes are laid out dense.
 */
#define CP_LINES_SPREAD_STRIDE (4096 + 64)
#define CP_LINES_SPREAD_MAX_SPAN (1ull << 30)
/* Steps of the timer loop the floor is taken from. */
#define CP_LINES_FLOOR_PROBES 2048

/*
 * The working set that stands for the last level: half of it (@llc_half),
 * but at most 1.5 times the level before it (@previous_size, 0: none),
 * past that level and inside the share of a shared cache a guest really
 * gets.  The calibration's plateau and the coldcache area's warm set
 * both use it, so the set the area calls L3 is the set calibrated as L3.
 */
uint64_t cp_lines_llc_set_bytes(uint64_t llc_half, uint64_t previous_size);

/* Bytes from one line of a @size-byte working set to the next. */
size_t cp_lines_spread_stride(uint64_t size);
/* The same for a set whose spread may take at most @max_span bytes (and
 * at most CP_LINES_SPREAD_MAX_SPAN): a buffer limit of the module's. */
size_t cp_lines_spread_stride_within(uint64_t size, uint64_t max_span);

/*
 * Which timer the lines will be classified with; the plateaus are taken
 * with the same one, on the same kind of memory, since a level's latency
 * depends on both.  Measured here: the chase over a working set spread
 * one line per 4 KiB across huge pages timed L2 at 105-126 ticks and
 * memory at 357-399, the sampled loads of a compact buffer on 4 KiB pages
 * L2 at 21-84 and memory at 231-315, so thresholds from one put flushed
 * lines of the other in L3 and L2 lines in L1.
 */
enum cp_line_timer {
	CP_LINE_TIMER_CHASE,	/* cp_lines_timed_pass: the coldcache area */
	CP_LINE_TIMER_SAMPLE,	/* line_sample.h: verify of a caller's buffer */
};

/*
 * Calibrate @levels for the caches serving @cpu (the calling thread must
 * run there) with @timer and measure the timer @floor; @flush flushes the
 * memory plateau's lines, @seed orders the lines, @pages are those of the
 * chase's working sets (CP_LINE_TIMER_CHASE: the measured sets' own).
 * 0, or -errno with @error set: -EOPNOTSUPP without CLFLUSH, -EINTR when
 * interrupted (interrupt.h).
 */
int cp_lines_calibrate(const struct cp_topology *topology, unsigned int cpu,
		       enum cp_flush_instruction flush, uint64_t seed,
		       enum cp_line_timer timer, enum cp_page_size pages,
		       struct cp_line_levels *levels,
		       struct cp_timer_floor *floor, struct cp_error *error);

/*
 * Another per-line timer's plateau (the module's, in kernel mode): its
 * timed passes over a warm working set of @bytes laid out as
 * cp_lines_spread_stride() says, or over memory when @flushed (@bytes
 * being then the last level's set, of which the timer may take fewer
 * lines), each offered to @out (cp_line_pass_offer, floor subtracted),
 * which keeps the one of lowest median: the plateau, and the lines that
 * say whether levels can be told apart.  0 or -errno with the timer's
 * own error set.
 */
typedef int (*cp_line_plateau_fn)(void *timer, uint64_t bytes, bool flushed,
				  struct cp_line_pass *out);

/*
 * cp_lines_calibrate's levels for @cpu, taken with @plateau on @timer
 * whose floor has a p5-p95 spread of @spread ticks: the same working
 * sets, thresholds and merges (cp_line_levels_merge, then
 * cp_line_levels_merge_misread on the kept passes).  0, or -errno with
 * @error set (-EINTR when interrupted).
 */
int cp_lines_calibrate_with(const struct cp_topology *topology,
			    unsigned int cpu, cp_line_plateau_fn plateau,
			    void *timer, double spread,
			    struct cp_line_levels *levels,
			    struct cp_error *error);

#endif
