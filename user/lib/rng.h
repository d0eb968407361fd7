/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SplitMix64: a small, seedable generator, so that random chains and
 * bootstrap intervals are reproducible and their tests can recompute them
 * independently.
 */
#ifndef CACHEPROBE_RNG_H
#define CACHEPROBE_RNG_H

#include <stddef.h>
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

/*
 * Uniform in [0, @bound) by Lemire's multiply-and-shift with rejection, so
 * no index is favoured.  It divides only in the rare rejection case: the
 * two 64-bit divisions a draw of the plain method took made the bootstrap
 * of the align ratios last half a second after an interrupt.
 */
static inline uint64_t cp_rng_below(struct cp_rng *rng, uint64_t bound)
{
	__extension__ typedef unsigned __int128 u128;
	u128 product = (u128)cp_rng_next(rng) * bound;
	uint64_t low = (uint64_t)product;

	if (low < bound) {
		uint64_t threshold = -bound % bound;

		while (low < threshold) {
			product = (u128)cp_rng_next(rng) * bound;
			low = (uint64_t)product;
		}
	}
	return (uint64_t)(product >> 64);
}

/* Sattolo's shuffle of 0..@n-1 into @order, seeded with @seed: a
 * uniformly random permutation with a single cycle, so a walk from any
 * index visits every index before returning. */
static inline void cp_rng_cycle(uint32_t *order, size_t n, uint64_t seed)
{
	struct cp_rng rng;

	cp_rng_seed(&rng, seed);
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)cp_rng_below(&rng, i);
		uint32_t held = order[i];

		order[i] = order[j];
		order[j] = held;
	}
}

#endif
