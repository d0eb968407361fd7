/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running the bounce loop on several CPUs at once.  One thread per CPU,
 * each pinned with sched_setaffinity, each incrementing its own counter of
 * a layout (areas/bounce/bounce_layout.h).  Before every run all threads meet at a
 * spinning barrier and leave it together; each then times its own loop
 * with the clock module (cp_clock_start/cp_clock_stop).  A run during which
 * any thread was preempted (its involuntary context switches rose), or in
 * which the threads ran together for less than @min_overlap of it (one was
 * held up and the others ran alone), is taken again, at most @max_retakes
 * times in all, as the harness does for preemption.
 *
 * The calling thread only waits (pthread_join), so it takes no CPU from
 * the measured threads.
 */
#ifndef CACHEPROBE_BOUNCE_RUN_H
#define CACHEPROBE_BOUNCE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "areas/bounce/bounce_layout.h"
#include "areas/bounce/bounce_loop.h"

struct cp_bounce_job {
	const unsigned int *cpus;	/* one per thread of @layout, distinct */
	const struct cp_bounce_layout *layout;
	cp_bounce_loop_fn loop;
	uint64_t count;			/* increments per thread and run */
	unsigned int runs;		/* runs wanted */
	unsigned int max_retakes;	/* spoilt runs taken again */
	double min_overlap;		/* 0..1, see cp_bounce_overlap */
};

struct cp_bounce_timing {
	unsigned int threads;
	unsigned int runs;		/* runs kept (fewer when interrupted) */
	unsigned int retaken;		/* runs thrown away and taken again */
	bool interrupted;		/* an interrupt stopped the runs */
	/* runs x threads raw ticks of each thread's loop, run-major. */
	uint64_t *ticks;
	/* Per run: the share of the longest thread's span during which every
	 * thread was running its loop (1: they ran exactly together). */
	double *overlap;
	/* Per thread: increments done in all runs, kept or not. */
	uint64_t *increments;
};

/*
 * Run @job.  0; -EINTR when an interrupt came before one run was kept;
 * -errno (EINVAL: a CPU cannot be used, with @failed_cpu set) otherwise.
 * Free @out with cp_bounce_timing_free.
 */
int cp_bounce_run(const struct cp_bounce_job *job,
		  struct cp_bounce_timing *out, unsigned int *failed_cpu);
void cp_bounce_timing_free(struct cp_bounce_timing *timing);

/* Ticks of thread @thread in run @run. */
static inline uint64_t cp_bounce_ticks(const struct cp_bounce_timing *timing,
				       unsigned int run, unsigned int thread)
{
	return timing->ticks[(size_t)run * timing->threads + thread];
}

/* The overlap of @n spans [@starts[i], @stops[i]]: the time all of them
 * share over the time from the first start to the last stop (0..1). */
double cp_bounce_overlap(const uint64_t *starts, const uint64_t *stops,
			 unsigned int n);

#endif
