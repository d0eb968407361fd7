/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MeasureIt's measuring method.  A benchmark body runs @count iterations of
 * something that performs @scale operations; the harness primes it once,
 * calibrates @count so that one sample lasts the target time, takes the
 * samples, and subtracts the cost of an empty iteration (the NOTHING
 * benchmark, measured the same way) and of the timer itself.  A sample
 * during which the scheduler preempted the thread is taken again (within a
 * bound).  Results are TSC ticks per operation.
 */
#ifndef CACHEPROBE_HARNESS_H
#define CACHEPROBE_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/clock.h"
#include "stats/stats.h"

/* Returns something derived from the work, which the harness keeps alive
 * so the compiler cannot drop the work. */
typedef uint64_t (*cp_body_fn)(void *context, uint64_t count);

struct cp_benchmark {
	cp_body_fn body;
	void *context;
	uint64_t scale;		/* operations per iteration, >= 1 */
	uint64_t prime_count;	/* iterations of the priming run, >= 1 */
};

struct cp_harness_config {
	unsigned int samples;
	double target_sample_ns;	/* what calibration aims for */
	uint64_t fixed_count;		/* 0: calibrate */
	/* Arrangements the samples are spread over, where an area draws
	 * them anew (harness/rounds.h); 0 or 1: one. */
	unsigned int rounds;
};

#define CP_HARNESS_DEFAULT_SAMPLES 15
#define CP_HARNESS_DEFAULT_TARGET_NS 2e6

struct cp_harness {
	const struct cp_clock *clock;
	struct cp_harness_config config;
	double nothing_ticks_per_iteration;	/* the subtracted floor */
	struct cp_stats nothing_stats;		/* of that, per iteration */
};

struct cp_samples {
	uint64_t count;			/* iterations per sample */
	size_t nr_samples;
	double *ticks_per_op;		/* after subtraction, malloc'ed */
	double median_sample_ticks;	/* raw length of one sample */
	bool interrupted;		/* fewer samples than asked */
	/* Samples taken again because the thread was preempted during
	 * them; at most the number of samples asked for. */
	unsigned int preempted_retaken;
	/* Taken in rounds of this many (harness/rounds.h); 0: one round. */
	unsigned int samples_per_round;
};

/* An empty iteration: the NOTHING benchmark. */
uint64_t cp_nothing_body(void *context, uint64_t count);

/* Measure NOTHING and keep it as the floor.  0 or -errno. */
int cp_harness_init(struct cp_harness *harness, const struct cp_clock *clock,
		    const struct cp_harness_config *config);

/*
 * Measure NOTHING again and keep it as @harness's floor (a copy's, for a
 * round): a floor measured once at start-up is one moment of the machine
 * (a slow one made it 1.8 times the usual, and moved every figure near
 * the floor of that run alike), while one measured at each round's start
 * varies with the rounds and so shows in their interval.  0, -EINTR, or
 * -errno with the old floor kept.
 */
int cp_harness_renew_floor(struct cp_harness *harness);

/*
 * Measure @benchmark.  Stops early, with what it has, when an interrupt is
 * requested (cp_interrupt_requested); -EINTR when not one sample was taken.
 */
int cp_harness_measure(const struct cp_harness *harness,
		       const struct cp_benchmark *benchmark,
		       struct cp_samples *out);
void cp_samples_free(struct cp_samples *samples);

/*
 * Move the samples of one round, @round, to the end of @into (empty the
 * first time: it then takes @round's count).  The sample length becomes
 * the mean over rounds.  0 or -ENOMEM (@round freed either way).
 */
int cp_samples_append(struct cp_samples *into, struct cp_samples *round);

/* Iterations for one sample of about @target_ticks, given that @count
 * iterations took @ticks; never below 1. */
uint64_t cp_harness_scale_count(uint64_t count, double ticks,
				double target_ticks);

#endif
