// SPDX-License-Identifier: GPL-2.0
/* Pointer chains through a buffer, shared by CHASE and XFER. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include "chain.h"

/**
 * cp_chain_build() - link the slots of a buffer into one cycle
 * @buf: the buffer; slot i is at @buf + i * @stride and receives a pointer
 *	to the next slot
 * @nr_slots: slots, at least 1
 * @stride: bytes between slots, a multiple of 8
 * @order: CACHEPROBE_ORDER_SEQUENTIAL or CACHEPROBE_ORDER_RANDOM
 * @err: filled on failure
 *
 * A random order is one cycle through every slot (Sattolo's shuffle), so a
 * chase from any slot visits them all before it repeats.
 *
 * Return: 0, or -ENOMEM, -E2BIG (more than U32_MAX slots) or -EINTR (a
 * signal while shuffling) with @err filled.
 */
int cp_chain_build(void *buf, u64 nr_slots, u32 stride, u32 order,
		   struct cp_err *err)
{
	u64 i, j, seed;
	u32 *perm, t;

	if (nr_slots > U32_MAX)
		return cp_fail(err, E2BIG, CACHEPROBE_ATTR_SIZE,
			       "too many slots in the chain",
			       "%llu slots; at most %u (use a larger stride)",
			       nr_slots, U32_MAX);
	if (order == CACHEPROBE_ORDER_SEQUENTIAL) {
		for (i = 0; i < nr_slots; i++)
			*(void **)(buf + i * stride) =
				buf + ((i + 1) % nr_slots) * stride;
		return 0;
	}
	perm = kvmalloc_array(nr_slots, sizeof(*perm),
			      GFP_KERNEL | __GFP_NOWARN);
	if (!perm)
		return cp_fail(err, ENOMEM, 0, "cannot allocate the chain order",
			       "%llu slots", nr_slots);
	cp_live_inc(perm);
	for (i = 0; i < nr_slots; i++)
		perm[i] = i;
	seed = get_random_u64() | 1;
	for (i = nr_slots - 1; i > 0; i--) {
		j = cp_chain_rand(&seed) % i;
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
		if (i % 65536 == 0) {
			/* Large chains take a while: let a signal stop it. */
			if (signal_pending(current)) {
				cp_live_dec(perm);
				kvfree(perm);
				return cp_fail(err, EINTR, 0,
					       "interrupted by a signal",
					       "while building the chain");
			}
			cond_resched();
		}
	}
	for (i = 0; i < nr_slots; i++)
		*(void **)(buf + (u64)perm[i] * stride) =
			buf + (u64)perm[(i + 1) % nr_slots] * stride;
	cp_live_dec(perm);
	kvfree(perm);
	return 0;
}

/**
 * cp_chain_rand() - xorshift64*: cheap numbers for shuffling chains
 * @state: non-zero state, updated
 *
 * Return: the next number.
 */
u64 cp_chain_rand(u64 *state)
{
	u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/**
 * cp_chain_check_order() - check and default an ORDER value
 * @order: in: the request's value (0 for the default); out: the order
 * @err: filled on failure
 *
 * Return: 0 or -EINVAL.
 */
int cp_chain_check_order(u32 *order, struct cp_err *err)
{
	if (!*order)
		*order = CACHEPROBE_ORDER_RANDOM;
	if (*order != CACHEPROBE_ORDER_SEQUENTIAL &&
	    *order != CACHEPROBE_ORDER_RANDOM)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_ORDER,
			       "unknown order",
			       "order %u is neither SEQUENTIAL (%u) nor RANDOM (%u)",
			       *order, CACHEPROBE_ORDER_SEQUENTIAL,
			       CACHEPROBE_ORDER_RANDOM);
	return 0;
}
