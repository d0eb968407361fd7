/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SplitMix64 and the random order of a chain's slots, once for the module
 * and the tool: the same seed gives the same chain in kernel and user
 * mode.  Freestanding: no libc, kernel types under __KERNEL__.
 */
#ifndef CACHEPROBE_MEASURE_RNG_H
#define CACHEPROBE_MEASURE_RNG_H

#include <linux/types.h>

/**
 * cp_splitmix64() - the next number of a SplitMix64 sequence
 * @state: the sequence's state, seeded with any value, advanced
 *
 * Return: a 64-bit number.
 */
static inline __u64 cp_splitmix64(__u64 *state)
{
	__u64 z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/**
 * cp_splitmix64_below() - a number uniform in [0, @bound)
 * @state: as cp_splitmix64()
 * @bound: at least 1
 *
 * Lemire's multiply-and-shift with rejection: no value favoured, and a
 * division only in the rare rejection case.
 *
 * Return: the number.
 */
static inline __u64 cp_splitmix64_below(__u64 *state, __u64 bound)
{
	__uint128_t product = (__uint128_t)cp_splitmix64(state) * bound;
	__u64 low = (__u64)product;

	if (low < bound) {
		__u64 threshold = -bound % bound;

		while (low < threshold) {
			product = (__uint128_t)cp_splitmix64(state) * bound;
			low = (__u64)product;
		}
	}
	return (__u64)(product >> 64);
}

/**
 * cp_order_init() - the identity order of @n slots, to be shuffled
 * @order: receives 0 .. @n - 1
 * @n: slots
 */
static inline void cp_order_init(__u32 *order, __u64 n)
{
	__u64 i;

	for (i = 0; i < n; i++)
		order[i] = (__u32)i;
}

/**
 * cp_order_shuffle() - shuffle positions @from down to @to of an order
 * @order: from cp_order_init(), of at least @from + 1 slots
 * @from: the highest position to shuffle now (start with n - 1)
 * @to: the lowest, at least 1; positions below it wait for the next call
 * @state: the SplitMix64 state, seeded with the chain's seed before the
 *	first call and carried from call to call
 *
 * Sattolo's steps, in slices so that the module can look at signals and
 * reschedule between them: calls over n - 1 .. 1 in order give the same
 * uniformly random order as one call.
 */
static inline void cp_order_shuffle(__u32 *order, __u64 from,
				    __u64 to, __u64 *state)
{
	__u64 i, j;
	__u32 held;

	for (i = from; i >= to && i > 0; i--) {
		j = cp_splitmix64_below(state, i);
		held = order[i];
		order[i] = order[j];
		order[j] = held;
	}
}

#endif
