/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's areas take turns, round by round (harness/turns.h): a round
 * of one area, then a round of the next.  Each area's rounds then spread
 * over the whole run rather than over its own few seconds, so the moves
 * of the machine from one stretch of seconds to the next (the host's
 * clock, its load, where it runs the vCPUs) reach every area's rounds,
 * and with them its interval, instead of shifting one area's
 * measurements all alike.  Areas hand over between their rounds
 * (coldcache: between rounds of its repetitions).
 *
 * Each area measures into results of its own, so that an area reading
 * back what it measured reads only its own; they join the run's results
 * in the areas' order.
 */
#ifndef CACHEPROBE_RUN_TURNS_H
#define CACHEPROBE_RUN_TURNS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "areas/area.h"
#include "cli/progress.h"
#include "results/results.h"
#include "util/error.h"

struct run_turn {
	const struct cp_area *area;
	struct cp_results results;	/* its own, until merged */
	struct cp_error error;
	int ret;			/* of its run() */
	/* The run had been asked to stop when it returned: a failure then
	 * may be the stop's doing, and is not reported as the area's. */
	bool stopped;
	/* When it first had the turn (@begun): the progress line's
	 * estimate runs from there, others' turns included, as the
	 * area's will. */
	struct timespec started;
	bool begun;
};

/*
 * Run the areas of @turns[0..@n) in turns, each with @context but results
 * of its own, started from the header of @context's (environment, clock,
 * harness figures).  @progress shows the area that has the turn.
 */
void run_turns(struct run_turn *turns, size_t n,
	       const struct cp_area_context *context,
	       struct cli_progress *progress);

/*
 * Move @turn's measurements, notes and levels into @into, leaving @turn's
 * results empty: what an area adds to results (skipped areas and the
 * interruption are the run's, cmd_run.c).  0, or -ENOMEM (@turn's
 * results freed; what had moved stays).
 */
int run_turn_merge(struct cp_results *into, struct run_turn *turn);

#endif
