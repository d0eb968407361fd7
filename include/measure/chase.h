/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pointer chase, once for the module and the tool: how a random order
 * of slots becomes one or several independent cycles, and the loop that
 * follows them.  Kernel and user mode include this header, so that a
 * chase measured in either mode runs the same instructions.  Freestanding:
 * no libc, kernel types under __KERNEL__.
 *
 * Several chases at once (multichase's -p) show memory-level parallelism:
 * the loads of one chase depend on each other, those of different chases
 * do not, so a core that keeps N misses in flight walks N chases in about
 * the time of one.
 */
#ifndef CACHEPROBE_MEASURE_CHASE_H
#define CACHEPROBE_MEASURE_CHASE_H

#include <linux/types.h>
#ifndef __KERNEL__
#include <sys/cdefs.h>		/* __always_inline */
#endif

/*
 * Most independent chases one loop follows: 16 pointers still mostly fit
 * x86-64's general registers (a spilled one adds a store and a load to
 * its own chase, not to the others).
 */
/*
 * Laps over a working set before it is timed warm: CHASE's PREPARE WARM
 * (ABI 6) and the tool's coldcache area, so both modes warm alike.
 */
#define CP_CHASE_WARM_LAPS	4

#define CP_CHASE_MAX_CHASES	16

/**
 * cp_chase_rounds_of() - rounds one whole iteration takes for @n chases
 * @n: chases, 1 to CP_CHASE_MAX_CHASES
 *
 * An iteration does at least 16 loads, so that the loop's own
 * instructions stay out of the way.
 *
 * Return: the rounds; each moves every chase one load on.
 */
static __always_inline unsigned int cp_chase_rounds_of(unsigned int n)
{
	return n >= 16 ? 1 : 16 / n;
}

/**
 * cp_chase_loads_of() - loads one whole iteration does for @n chases
 * @n: chases, 1 to CP_CHASE_MAX_CHASES
 *
 * Return: cp_chase_rounds_of(@n) * @n.
 */
static __always_inline unsigned int cp_chase_loads_of(unsigned int n)
{
	return cp_chase_rounds_of(n) * n;
}

/**
 * cp_chase_link() - link the slots of a buffer into @chases cycles
 * @buf: the buffer; slot i is at @buf + i * @stride and receives a pointer
 *	to the next slot of its cycle
 * @order: a random order of the @n slots (rng.h)
 * @n: slots, at least @chases
 * @stride: bytes between slots, at least a pointer's size
 * @chases: cycles, 1 to CP_CHASE_MAX_CHASES
 * @first: receives the first slot of each cycle, where its chase starts
 * @from: the first position of @order to link now
 * @to: one past the last: the module links in slices between looks at
 *	signals; one call from 0 to @n links everything
 *
 * Cycle k takes the positions k * @n / @chases up to (k + 1) * @n /
 * @chases of @order, so the cycles share the working set evenly and
 * one chase (@chases 1) is the single cycle through every slot in @order.
 */
static inline void cp_chase_link(void *buf, const __u32 *order, __u64 n,
				 __u32 stride, __u32 chases, void **first,
				 __u64 from, __u64 to)
{
	__u64 i, k, begin, end, next;
	char *base = (char *)buf;
	void *slot;

	for (k = 0; k < chases; k++) {
		begin = k * n / chases;
		end = (k + 1) * n / chases;
		if (from <= begin && begin < to)
			first[k] = base + (__u64)order[begin] * stride;
		for (i = begin < from ? from : begin; i < end && i < to; i++) {
			next = i + 1 < end ? i + 1 : begin;
			slot = base + (__u64)order[next] * stride;
			/* A slot may sit at any offset (ACCESS's, align's). */
			__builtin_memcpy(base + (__u64)order[i] * stride, &slot,
					 sizeof(slot));
		}
	}
}

/*
 * Load @i of an iteration of @loads loads: chase @i % @n one step on.
 * With @n and @loads constant the test and the index fold away.
 */
static __always_inline void cp_chase_step(void **p, unsigned int i,
					  unsigned int n, unsigned int loads)
{
	if (i < loads)
		p[i % n] = *(void *const *)p[i % n];
}

/*
 * The loop for a constant @n and @rounds: with both known every index
 * below is a constant, so the steps unroll into plain loads and the
 * pointers live in registers.  Written out, not left to unrolling pragmas,
 * which GCC applied to other loops than the one they preceded.
 */
static __always_inline void cp_chase_loop_n(void **pos, const unsigned int n,
					    __u64 iterations,
					    const unsigned int rounds)
{
	const unsigned int loads = rounds * n;
	void *p[CP_CHASE_MAX_CHASES];
	unsigned int k;

	for (k = 0; k < n; k++)
		p[k] = pos[k];
	while (iterations--) {
		cp_chase_step(p, 0, n, loads);
		cp_chase_step(p, 1, n, loads);
		cp_chase_step(p, 2, n, loads);
		cp_chase_step(p, 3, n, loads);
		cp_chase_step(p, 4, n, loads);
		cp_chase_step(p, 5, n, loads);
		cp_chase_step(p, 6, n, loads);
		cp_chase_step(p, 7, n, loads);
		cp_chase_step(p, 8, n, loads);
		cp_chase_step(p, 9, n, loads);
		cp_chase_step(p, 10, n, loads);
		cp_chase_step(p, 11, n, loads);
		cp_chase_step(p, 12, n, loads);
		cp_chase_step(p, 13, n, loads);
		cp_chase_step(p, 14, n, loads);
		cp_chase_step(p, 15, n, loads);
	}
	for (k = 0; k < n; k++)
		pos[k] = p[k];
}

/* @n chases, whole iterations or single rounds, @n made a constant. */
static __always_inline void cp_chase_loop_of(void **pos, const unsigned int n,
					     __u64 iterations, int whole)
{
	if (whole)
		cp_chase_loop_n(pos, n, iterations, cp_chase_rounds_of(n));
	else
		cp_chase_loop_n(pos, n, iterations, 1);
}

/**
 * cp_chase_follow() - follow @n chases for whole iterations or rounds
 * @pos: where each chase is, updated (the next call goes on from there:
 *	a restart would re-walk lines still cached)
 * @n: chases, 1 to CP_CHASE_MAX_CHASES; other values do nothing
 * @iterations: iterations to run
 * @whole: true: each iteration is cp_chase_loads_of(@n) loads; false:
 *	each is one round, @n loads (for a remainder)
 */
static __always_inline void cp_chase_follow(void **pos, unsigned int n,
					    __u64 iterations, int whole)
{
	switch (n) {
	case 1:
		cp_chase_loop_of(pos, 1, iterations, whole);
		break;
	case 2:
		cp_chase_loop_of(pos, 2, iterations, whole);
		break;
	case 3:
		cp_chase_loop_of(pos, 3, iterations, whole);
		break;
	case 4:
		cp_chase_loop_of(pos, 4, iterations, whole);
		break;
	case 5:
		cp_chase_loop_of(pos, 5, iterations, whole);
		break;
	case 6:
		cp_chase_loop_of(pos, 6, iterations, whole);
		break;
	case 7:
		cp_chase_loop_of(pos, 7, iterations, whole);
		break;
	case 8:
		cp_chase_loop_of(pos, 8, iterations, whole);
		break;
	case 9:
		cp_chase_loop_of(pos, 9, iterations, whole);
		break;
	case 10:
		cp_chase_loop_of(pos, 10, iterations, whole);
		break;
	case 11:
		cp_chase_loop_of(pos, 11, iterations, whole);
		break;
	case 12:
		cp_chase_loop_of(pos, 12, iterations, whole);
		break;
	case 13:
		cp_chase_loop_of(pos, 13, iterations, whole);
		break;
	case 14:
		cp_chase_loop_of(pos, 14, iterations, whole);
		break;
	case 15:
		cp_chase_loop_of(pos, 15, iterations, whole);
		break;
	case 16:
		cp_chase_loop_of(pos, 16, iterations, whole);
		break;
	default:
		break;
	}
}

#endif
