/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measured loops of bounce, once for the module and the tool: @count
 * increments of one counter in memory, each a single read-modify-write
 * instruction in inline assembly (addl/addq $1 to memory; lock addl/addq
 * for atomic), so the compiler can neither keep the counter in a register
 * nor merge increments.  "+m" makes the counter a memory operand the asm
 * both reads and writes; volatile keeps every one of them.  Freestanding:
 * no libc.
 */
#ifndef CACHEPROBE_MEASURE_BOUNCE_H
#define CACHEPROBE_MEASURE_BOUNCE_H

#include <linux/types.h>
#ifndef __KERNEL__
#include <sys/cdefs.h>		/* __always_inline */
#endif

/**
 * cp_bounce_add_plain32() - @count plain increments of a 4-byte counter
 * @counter: the counter
 * @count: increments
 */
static __always_inline void cp_bounce_add_plain32(__u32 *counter,
						  __u64 count)
{
	while (count--)
		__asm__ __volatile__("addl $1, %0" : "+m" (*counter));
}

/**
 * cp_bounce_add_plain64() - @count plain increments of an 8-byte counter
 * @counter: the counter
 * @count: increments
 */
static __always_inline void cp_bounce_add_plain64(__u64 *counter,
						  __u64 count)
{
	while (count--)
		__asm__ __volatile__("addq $1, %0" : "+m" (*counter));
}

/**
 * cp_bounce_add_atomic32() - @count atomic increments of a 4-byte counter
 * @counter: the counter
 * @count: increments
 */
static __always_inline void cp_bounce_add_atomic32(__u32 *counter,
						   __u64 count)
{
	while (count--)
		__asm__ __volatile__("lock addl $1, %0" : "+m" (*counter));
}

/**
 * cp_bounce_add_atomic64() - @count atomic increments of an 8-byte counter
 * @counter: the counter
 * @count: increments
 */
static __always_inline void cp_bounce_add_atomic64(__u64 *counter,
						   __u64 count)
{
	while (count--)
		__asm__ __volatile__("lock addq $1, %0" : "+m" (*counter));
}

#endif
