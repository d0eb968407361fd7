/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache-transfer loops of xcore, once for the module (XFER) and the
 * tool: the producer's touch of each line (read, or an add of 0 to
 * memory that leaves the line Modified) and the consumer's timed walk, a
 * dependent chain through the lines with an optional delay after each
 * load.  Each is inline assembly, so that both modes run the same
 * instructions whatever the compiler would choose.  How often a loop
 * stops to look at the clock or the interrupt-off window stays each
 * side's.  Freestanding: no libc.
 */
#ifndef CACHEPROBE_MEASURE_XFER_H
#define CACHEPROBE_MEASURE_XFER_H

#include <linux/types.h>
#ifndef __KERNEL__
#include <sys/cdefs.h>		/* __always_inline */
#endif

/**
 * cp_xfer_modify() - write a line without changing it
 * @word: the line's first 8 bytes
 *
 * An add of 0 to memory: the pointer the word holds stays, the line
 * becomes Modified; the asm keeps the compiler from dropping a store that
 * changes nothing.
 */
static __always_inline void cp_xfer_modify(__u64 *word)
{
	__asm__ __volatile__("addq $0, %0" : "+m" (*word));
}

/**
 * cp_xfer_read() - read a line
 * @word: the line's first 8 bytes
 *
 * Return: what it holds (one movq, which the compiler cannot drop).
 */
static __always_inline __u64 cp_xfer_read(const __u64 *word)
{
	__u64 value;

	__asm__ __volatile__("movq %1, %0" : "=r" (value) : "m" (*word));
	return value;
}

/**
 * cp_xfer_walk() - follow @n pointers from @p with a delay after each
 * @p: where the walk starts; each line holds the address of the next
 * @n: loads
 * @delay: dependent adds after each load
 * @zero: 0, which the compiler must not know (the caller hides it)
 *
 * Each load is followed by @delay adds of @zero to the pointer: every add
 * waits for the load and for the add before it, and the next load waits
 * for the last add, a dependent delay of one cycle per add.  A register
 * operand, not an immediate 0, which newer cores drop at rename.  The add
 * loop is written out in asm so that nothing else (such as a register
 * copy the compiler might choose) joins the chain, and the compiler keeps
 * every add.  Always inlined: with @delay the constant 0 the walk is the
 * bare chain.
 *
 * Return: where the walk stopped.
 */
static __always_inline void **cp_xfer_walk(void **p, __u64 n, __u32 delay,
					   unsigned long zero)
{
	__u32 k;

	while (n--) {
		__asm__ __volatile__("movq (%0), %0" : "+r" (p) : : "memory");
		if (!delay)
			continue;
		k = delay;
		__asm__ __volatile__("1:\tadd %[zero], %[p]\n\t"
				     "dec %[k]\n\t"
				     "jnz 1b"
				     : [p] "+r" (p), [k] "+r" (k)
				     : [zero] "r" (zero)
				     : "cc");
	}
	return p;
}

#endif
