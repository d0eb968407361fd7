/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the bounce area derives from its slowdowns (stats/median_ratio.h):
 * the coherence granularity read off the slowdown-against-distance curve,
 * and which rounds of a reference were quiet.
 */
#ifndef CACHEPROBE_BOUNCE_GRANULARITY_H
#define CACHEPROBE_BOUNCE_GRANULARITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/median_ratio.h"

/*
 * The threshold of a sweep: half-way (in the excess over 1) to the
 * slowdown at its smallest distance above 0, where the counters surely
 * share a line.  Bouncing costs a factor (about 9 for atomic increments
 * here), so a disturbance of 15 % does not pass for it; whether a small
 * factor is bouncing at all is for cp_bounce_decide to say.
 * @slowdowns[i] is at @distances[i]; a value not above 0 was not measured.
 */
double cp_bounce_threshold(const uint32_t *distances,
			   const struct cp_ratio *slowdowns, size_t n);

/*
 * The coherence granularity: the smallest distance above 0 from which on
 * every measured distance shows a slowdown below @threshold (any order;
 * distance 0, the shared counter, and distances not measured are no
 * candidates).  0 when even the largest distance is slowed down, or no
 * distance above 0 was measured.
 */
uint32_t cp_bounce_granularity(const uint32_t *distances,
			       const struct cp_ratio *slowdowns,
			       size_t n, double threshold);

enum cp_bounce_verdict {
	CP_BOUNCE_FOUND,	/* @granularity holds it */
	CP_BOUNCE_NEVER_FREE,	/* slowed down at every distance */
	CP_BOUNCE_UNDETERMINED,	/* @reason says why */
};

struct cp_bounce_decision {
	enum cp_bounce_verdict verdict;
	uint32_t granularity;	/* bytes, with CP_BOUNCE_FOUND */
	uint32_t in_line;	/* the distance judged; 0: none measured */
	double noise;		/* highest interval end not slowed, >= 1 */
	char reason[112];	/* with CP_BOUNCE_UNDETERMINED */
};

/*
 * What a sweep says about the granularity, from its slowdowns against
 * padded counters with their intervals.  Plain increments sharing a line
 * cost only a few per cent on some hosts, as little as one run's scatter:
 * a fixed cut-off then reads noise as a granularity.  So the noise is
 * that of the run: the highest interval end (and 1) among the distances
 * below cp_bounce_threshold, the padded reference among them.  A verdict
 * is given only when the slowdown at the smallest measured distance
 * above 0 has the low end of its interval above that noise; otherwise it
 * is undetermined, as when nothing above 0 was measured.
 */
void cp_bounce_decide(const uint32_t *distances,
		      const struct cp_ratio *slowdowns, size_t n,
		      struct cp_bounce_decision *out);

/* How the bounce area's warning of an undetermined granularity starts;
 * the reason follows, which the tables show. */
#define CP_BOUNCE_UNDETERMINED_WARNING "granularity undetermined: "

/*
 * Quiet rounds.  Runs of a reference that shares no line (padded
 * counters) depend on the core alone; on a shared host the core is now
 * and then slowed for tens of milliseconds at a time (every layout then
 * runs 2-4 times slower and ratios taken then scatter from 0.3 to 3),
 * while undisturbed runs of one process stay within a few per cent of
 * one another.  A round is quiet when its reference run took at most
 * CP_BOUNCE_QUIET_MARGIN more than the fastest reference run.
 */
#define CP_BOUNCE_QUIET_MARGIN 0.15

/* The smallest of @n values, 0 when @n is 0. */
double cp_bounce_fastest(const double *ticks, size_t n);
/* Whether a reference run of @ticks is quiet beside @fastest. */
bool cp_bounce_quiet(double ticks, double fastest);
/* How many of @n reference runs are quiet beside the fastest of them. */
size_t cp_bounce_count_quiet(const double *ticks, size_t n);

/* cp_bounce_count_quiet kept up to date run by run: one test per run,
 * a recount only when a run is the fastest yet. */
struct cp_bounce_quiet_count {
	double fastest;
	size_t quiet;
};

/* Count @ticks[@n - 1], just added to @ticks[0..@n - 2] (@count zeroed
 * before the first). */
void cp_bounce_quiet_add(struct cp_bounce_quiet_count *count,
			 const double *ticks, size_t n);

#endif
