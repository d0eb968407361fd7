/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SplitMix64: a small, seedable generator, so that random chains and
 * bootstrap intervals are reproducible and their tests can recompute them
 * independently.  The generator itself is measure/rng.h's, shared with
 * the module.
 */
#ifndef CACHEPROBE_RNG_H
#define CACHEPROBE_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "measure/rng.h"

struct cp_rng {
	__u64 state;			/* measure/rng.h's SplitMix64 */
};

static inline void cp_rng_seed(struct cp_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

static inline uint64_t cp_rng_next(struct cp_rng *rng)
{
	return cp_splitmix64(&rng->state);
}

/* Uniform in [0, @bound): measure/rng.h's multiply-and-shift with
 * rejection, so no index is favoured. */
static inline uint64_t cp_rng_below(struct cp_rng *rng, uint64_t bound)
{
	return cp_splitmix64_below(&rng->state, bound);
}

/* A uniformly random order of 0..@n-1 in @order, seeded with @seed, the
 * same as the module's chains for that seed (measure/rng.h). */
static inline void cp_rng_cycle(uint32_t *order, size_t n, uint64_t seed)
{
	__u64 state = seed;

	cp_order_init(order, n);
	if (n > 1)
		cp_order_shuffle(order, n - 1, 1, &state);
}

#endif
