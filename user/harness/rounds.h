/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rounds: a measurement's samples taken in groups, each group on an
 * arrangement drawn anew (a fresh buffer on new physical pages, a new
 * chase order).  Samples taken back to back on one arrangement vary less
 * than the same measurement does from one run to the next, so an
 * interval from them alone claims a precision the next run will not
 * reproduce; the medians of rounds vary as runs do.  Samples are kept in
 * round order, @per_round to a round, the last round possibly shorter
 * (an interrupted run).
 */
#ifndef CACHEPROBE_ROUNDS_H
#define CACHEPROBE_ROUNDS_H

#include <stddef.h>
#include <stdint.h>

#define CP_ROUNDS_DEFAULT 5
#define CP_ROUNDS_MAX 1000

/* Samples per round when @samples are spread over @rounds (both >= 1):
 * at least one, the rounds then as many as it takes. */
unsigned int cp_rounds_samples_per_round(unsigned int samples,
					 unsigned int rounds);

/* How a measurement's samples are spread over its rounds. */
struct cp_rounds {
	unsigned int samples;		/* in all, >= 1 */
	unsigned int per_round;		/* the last round may take fewer */
	unsigned int rounds;
};

/* @samples (>= 1) spread over at most @rounds rounds (0 or 1: one). */
struct cp_rounds cp_rounds_plan(unsigned int samples, unsigned int rounds);

/* The samples round @round of @plan takes: the last what is left. */
unsigned int cp_rounds_samples_in(const struct cp_rounds *plan,
				  unsigned int round);

/* What a measurement of @plan records as samples_per_round: 0 when
 * its samples are all one round's. */
unsigned int cp_rounds_marked(const struct cp_rounds *plan);

/* How many rounds @nr_samples taken @per_round make; 0 for @per_round 0
 * (samples not taken in rounds). */
size_t cp_rounds_count(size_t nr_samples, unsigned int per_round);

/* The median of each round of @values into @medians (room for
 * cp_rounds_count()), in round order; the number written. */
size_t cp_rounds_medians(const double *values, size_t nr_samples,
			 unsigned int per_round, double *medians);

/* A uniformly random order of 0..@n-1 in @order, from @seed: which
 * measurement of an area a round takes first. */
void cp_rounds_order(size_t *order, size_t n, uint64_t seed);

/* The order of round @round of an area whose rounds interleave its
 * measurements: cp_rounds_order from @seed and the round. */
void cp_rounds_order_in(size_t *order, size_t n, uint64_t seed,
			unsigned int round);

#endif
