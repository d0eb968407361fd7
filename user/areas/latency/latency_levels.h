/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cache levels read off a latency curve (latency against working-set size).
 *
 * Plateau of level k: among the sizes surely beyond the level before and
 * within this one's nominal size, [2 * nominal(k-1), nominal(k)/2] ([0,
 * nominal(1)/2] for the first), the run of sizes from the smallest on
 * whose latency stays within 25 % of a seed (the median of the first three
 * of them), a single size outside being passed over as noise and two in a
 * row ending the run; the plateau latency is the median over the run.
 * Walking up from the previous level matters: a shared last-level cache
 * may hold far less than its nominal size, so most of its nominal range
 * can lie at memory latency.  Memory: median latency over the largest
 * octave measured, reported only when it is well above the last cache
 * plateau (the curve went past the caches).
 *
 * Threshold between level k and the next: the geometric mean of their
 * plateaus.  Effective capacity of level k: the largest size measured
 * before the curve rises past that threshold for good, i.e. before the
 * first size that exceeds it and is followed by another that does (or is
 * the last): a single slow size is taken for noise, not for the edge.
 */
#ifndef CACHEPROBE_LATENCY_LEVELS_H
#define CACHEPROBE_LATENCY_LEVELS_H

#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

struct cp_curve_point {
	uint64_t size_bytes;
	double ns, ticks;		/* medians per load */
	double cycles;			/* 0: core clock not measured */
};

struct cp_nominal_level {
	char name[16];			/* "L1d", "L2", ... */
	uint64_t size_bytes;		/* of one instance */
};

/* A plateau counts as a further level when it is this much slower. */
#define CP_LEVEL_MIN_STEP 1.5

/*
 * Fill @levels (at most CP_MAX_LEVELS) from @points (sorted by size) and
 * the @nominal data-cache levels (innermost first).  Returns how many
 * levels were found: a level with no size in its plateau range, or not
 * slower than the one before by CP_LEVEL_MIN_STEP, is left out.
 */
size_t cp_latency_levels(const struct cp_curve_point *points, size_t nr_points,
			 const struct cp_nominal_level *nominal,
			 size_t nr_nominal, struct cp_level_estimate *levels);

/*
 * The level that served a load of @ns: the first of @levels whose
 * threshold it does not exceed (the last level when it exceeds them all).
 * Returns an index into @levels, or -1 when there are none.
 */
int cp_latency_classify(const struct cp_level_estimate *levels,
			size_t nr_levels, double ns);

#endif
