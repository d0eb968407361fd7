/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SplitMix64: a small, seedable generator, so that random chains and
 * bootstrap intervals are reproducible and their tests can recompute them
 * independently.
 */
#ifndef CACHEPROBE_RNG_H
#define CACHEPROBE_RNG_H

#include <stdint.h>

struct cp_rng {
	uint64_t state;
};

static inline void cp_rng_seed(struct cp_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

static inline uint64_t cp_rng_next(struct cp_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, @bound) by rejection, so no index is favoured. */
static inline uint64_t cp_rng_below(struct cp_rng *rng, uint64_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t value;

	do {
		value = cp_rng_next(rng);
	} while (value >= limit);
	return value % bound;
}

#endif
