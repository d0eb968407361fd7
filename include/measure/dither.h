/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A random wait before a timed load, once for the module and the tool.
 *
 * A virtual TSC may advance in steps as long as the differences between
 * cache levels (26 ticks, 10 ns, on an AMD EPYC guest).  A loop that
 * reads it at a steady pace locks onto its steps: one pass read every
 * warm L1d line at the floor, the next read half of them a step up.  A
 * load started at a random point of a step reads the step below or the
 * step above its latency, with odds whose mean is right and that are
 * alike in every pass.  Freestanding: no libc, kernel types under
 * __KERNEL__.
 */
#ifndef CACHEPROBE_MEASURE_DITHER_H
#define CACHEPROBE_MEASURE_DITHER_H

#include <linux/types.h>
#ifndef __KERNEL__
#include <sys/cdefs.h>		/* __always_inline */
#endif

/*
 * Waits are 0 to this many - 1 empty iterations, about a cycle each:
 * longer than a few steps of the coarsest TSC seen.
 */
#define CP_DITHER_SPINS	128

/**
 * cp_dither_wait() - wait a random number of empty iterations
 * @state: an xorshift state, not 0 (it then never becomes 0), advanced;
 *	kept in a register by the caller's loop, so the wait touches no
 *	memory
 *
 * Return: the iterations waited, for test builds that count them.
 */
static __always_inline __u32 cp_dither_wait(__u64 *state)
{
	__u32 spins, left;

	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	spins = (__u32)(*state % CP_DITHER_SPINS);
	for (left = spins; left; left--)
		__asm__ __volatile__("" : "+r"(left));
	return spins;
}

#endif /* CACHEPROBE_MEASURE_DITHER_H */
