/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What coldcache's line timer cannot tell from nothing, read back from
 * results: a first pass at or under it is a floor subtracted from itself
 * (an L1 hit is 2 ticks, the floor's spread 4), shown as "< floor" by the
 * console and the report rather than as a figure.
 */
#ifndef CACHEPROBE_COLDCACHE_FLOOR_H
#define CACHEPROBE_COLDCACHE_FLOOR_H

#include <stdbool.h>

#include "results/results.h"

/*
 * The p5 to p95 spread, in ns, of the "line timer floor" measurement that
 * coldcache recorded in @mode (the classifier's resolution, see
 * evict/coldcache_lines.h), or 0 when there is none: kernel mode times
 * whole passes, with no per-line floor subtracted.
 */
double cp_coldcache_floor_ns(const struct cp_results *results,
			     const char *mode);

/* Whether first pass @pass is at or under its mode's floor (never where
 * there is no floor). */
bool cp_coldcache_under_floor(const struct cp_results *results,
			      const struct cp_measurement *pass);

#endif
