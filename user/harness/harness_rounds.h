/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A benchmark measured in rounds (harness/rounds.h): each round builds its
 * arrangement anew (a buffer, an order, a placement), is primed, takes
 * its share of the samples and is checked, so that the samples cover
 * what changes from one arrangement to the next.  The first round
 * calibrates the count; later rounds keep it, so every sample is as
 * long.  The core clock is read around each round.
 */
#ifndef CACHEPROBE_HARNESS_ROUNDS_H
#define CACHEPROBE_HARNESS_ROUNDS_H

#include <stdbool.h>

#include "harness/harness.h"

/* What a measurement's rounds make of an arrangement. */
struct cp_arrangement {
	/* Build round @round's arrangement and the benchmark over it;
	 * 0 or -errno (nothing to release then).  Under
	 * cp_harness_measure_rounds the last round's is still held while
	 * the next is built (so that it cannot get the same pages back):
	 * two at once, told apart by @round % 2. */
	int (*build)(void *context, unsigned int round,
		     struct cp_benchmark *benchmark);
	/* Whether round @round's work checks out (a checksum); NULL: no
	 * check. */
	bool (*verify)(void *context, unsigned int round);
	/* Undo build of round @round. */
	void (*release)(void *context, unsigned int round);
	void *context;
};

/* The core clock per TSC tick around the rounds. */
struct cp_round_clock {
	double ratio_sum;		/* of each round's mean */
	unsigned int rounds;
	/* The round whose clock moved most: before and after it. */
	double drift_before, drift_after;
};

/* Count a round that read the clock @before and @after it. */
void cp_round_clock_note(struct cp_round_clock *clock, double before,
			 double after);

/* The mean core cycles per tick of the rounds, 0 when none. */
double cp_round_clock_mean(const struct cp_round_clock *clock);

/*
 * Round @round of @arrangement with @samples samples, appended to @acc
 * (whose samples_per_round the caller sets).  0; -EINTR (interrupted
 * before a sample); -EIO when the check failed; -errno from build.
 */
int cp_harness_round(const struct cp_harness *harness,
		     const struct cp_arrangement *arrangement,
		     unsigned int round, unsigned int samples,
		     struct cp_samples *acc, struct cp_round_clock *clock);

/*
 * Every round of @arrangement: the harness's samples over its rounds, in
 * @out (free with cp_samples_free).  Stops at an interrupt with what it
 * has (marked interrupted when short).  0, or as cp_harness_round (a
 * failed round frees what was taken).
 */
int cp_harness_measure_rounds(const struct cp_harness *harness,
			      const struct cp_arrangement *arrangement,
			      struct cp_samples *out,
			      struct cp_round_clock *clock);

/* Round @round of a measurement taken in rounds, with @round_harness:
 * the caller's harness with the NOTHING floor measured at this round's
 * start.  0 to go on; anything else ends the rounds and is returned. */
typedef int (*cp_harness_round_fn)(const struct cp_harness *round_harness,
				   unsigned int round, void *data);

/*
 * Rounds 0 to @rounds - 1 of @fn: before each round after the first the
 * turn passes to the other areas (harness/turns.h), and every round gets
 * a copy of @harness whose NOTHING floor is measured at its start
 * (cp_harness_renew_floor), so that the floor's moves fall among the
 * rounds and into their interval; @harness is left as it was.  0 after
 * the last round; -EINTR when the run was asked to stop while the turn
 * was elsewhere or the floor was measured; else the first nonzero
 * return of @fn.
 */
int cp_harness_each_round(const struct cp_harness *harness,
			  unsigned int rounds, cp_harness_round_fn fn,
			  void *data);

/* Called before each round of an interleaved measurement: arrangement
 * @index's round @round is next (progress, for instance). */
typedef void (*cp_round_start_fn)(void *data, size_t index,
				  unsigned int round);

/*
 * The rounds of @n arrangements interleaved: round after round, each
 * round every arrangement once, in an order drawn from @seed and the
 * round, so that a slow moment of the machine, or the host moving a
 * vCPU, spreads over all of them instead of biasing one, and so that each
 * arrangement's rounds spread over the whole measurement.  A round's
 * arrangement is released as soon as it is measured (the others' rounds
 * come between two of its own).  Each round measures NOTHING anew at its
 * start and its samples subtract that floor (cp_harness_renew_floor);
 * @harness is left as it was.  @outs[i] and @clocks[i] as
 * cp_harness_measure_rounds gives them; @start (may be NULL) is called
 * before each round.  Stops at an interrupt with what every arrangement
 * has (marked interrupted when short); 0 then.  On another error, -errno
 * with *@failed the arrangement's index (SIZE_MAX: none in particular,
 * no memory), and @outs freed.
 */
int cp_harness_measure_interleaved(const struct cp_harness *harness,
				   const struct cp_arrangement *arrangements,
				   size_t n, uint64_t seed,
				   struct cp_samples *outs,
				   struct cp_round_clock *clocks,
				   cp_round_start_fn start, void *data,
				   size_t *failed);

#endif
