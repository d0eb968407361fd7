/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ping-pong turn of c2c, once for the module and the tool: a side's
 * look at the line and its try at a turn, each a single instruction of
 * inline assembly, so that both modes run the same ones (CAS: LOCK
 * CMPXCHG of @v to @v + 1; FLAG: a plain load and, when the line holds
 * @v, a plain store of @v + 1).  How long a side spins, when it pauses
 * and how it gives up stay each side's (the module checks its
 * interrupt-off window, the tool whether its job was abandoned).
 * Freestanding: no libc.
 */
#ifndef CACHEPROBE_MEASURE_PINGPONG_H
#define CACHEPROBE_MEASURE_PINGPONG_H

#include <linux/types.h>
#ifndef __KERNEL__
#include <stdbool.h>
#include <sys/cdefs.h>		/* __always_inline */
#endif

/**
 * cp_pingpong_look() - the value of a line, one plain load
 * @line: the line
 *
 * Return: what the line holds.
 */
static __always_inline __u64 cp_pingpong_look(const __u64 *line)
{
	__u64 value;

	__asm__ __volatile__("movq %1, %0" : "=r" (value) : "m" (*line)
			     : "memory");
	return value;
}

/**
 * cp_pingpong_try() - one try at a turn: @v to @v + 1
 * @line: the line
 * @v: the value that says it is this side's turn
 * @cas: LOCK CMPXCHG; false: load, and store when it holds @v
 *
 * Return: whether it was this side's turn (the line now holds @v + 1).
 */
static __always_inline bool cp_pingpong_try(__u64 *line, __u64 v, bool cas)
{
	__u64 held = v;

	if (cas) {
		__asm__ __volatile__("lock cmpxchgq %2, %1"
				     : "+a" (held), "+m" (*line)
				     : "r" (v + 1) : "memory", "cc");
		return held == v;
	}
	if (cp_pingpong_look(line) != v)
		return false;
	__asm__ __volatile__("movq %1, %0" : "=m" (*line) : "r" (v + 1)
			     : "memory");
	return true;
}

#endif
