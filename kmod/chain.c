// SPDX-License-Identifier: GPL-2.0
/*
 * Pointer chains through a buffer, shared by CHASE and XFER.  The order of
 * the slots and how it becomes cycles are the shared code of
 * include/measure/ (rng.h, chase.h), which the tool's user mode runs too:
 * the same seed gives the same chain in both modes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include "measure/chase.h"
#include "measure/rng.h"
#include "chain.h"

/**
 * cp_chain_pause() - let a signal stop a long build, others run
 * @err: filled when a signal is pending
 *
 * Return: 0, or -EINTR with @err filled.
 */
int cp_chain_pause(struct cp_err *err)
{
	if (signal_pending(current))
		return cp_fail(err, EINTR, 0, "interrupted by a signal",
			       "while building the chain");
	cond_resched();
	return 0;
}

/**
 * cp_chain_order() - the order in which a chain visits its slots
 * @chain: the slots, the order and the seed (@chain->chases is not used)
 * @err: filled on failure
 *
 * The slots in increasing addresses (SEQUENTIAL), or the identity
 * shuffled by Sattolo's steps from SplitMix64 seeded with @chain->seed
 * (RANDOM): as one cycle, every slot once before it repeats.
 *
 * Return: the order of @chain->nr_slots slot indices, to be released with
 * cp_chain_order_free(); or an ERR_PTR of -ENOMEM, -E2BIG (more than
 * U32_MAX slots) or -EINTR (a signal while shuffling) with @err filled.
 */
u32 *cp_chain_order(const struct cp_chain *chain, struct cp_err *err)
{
	u64 n = chain->nr_slots, state = chain->seed, from, to;
	u32 *order;
	int ret = 0;

	if (n > U32_MAX)
		return ERR_PTR(cp_fail(err, E2BIG, CACHEPROBE_ATTR_SIZE,
				       "too many slots in the chain",
				       "%llu slots; at most %u (use a larger stride)",
				       n, U32_MAX));
	order = kvmalloc_array(n, sizeof(*order), GFP_KERNEL | __GFP_NOWARN);
	if (!order)
		return ERR_PTR(cp_fail(err, ENOMEM, 0,
				       "cannot allocate the chain order",
				       "%llu slots", n));
	cp_live_inc(order);
	cp_order_init(order, n);
	/* Sattolo's steps from n - 1 down to 1, a slice at a time. */
	for (from = n - 1; !ret && chain->order == CACHEPROBE_ORDER_RANDOM &&
	     from >= 1; from = to - 1) {
		to = from >= CP_CHAIN_SLICE ? from - CP_CHAIN_SLICE + 1 : 1;
		cp_order_shuffle(order, from, to, &state);
		ret = cp_chain_pause(err);
	}
	if (ret) {
		cp_chain_order_free(order);
		return ERR_PTR(ret);
	}
	return order;
}

/**
 * cp_chain_order_free() - release an order from cp_chain_order()
 * @order: the order
 */
void cp_chain_order_free(u32 *order)
{
	cp_live_dec(order);
	kvfree(order);
}

/**
 * cp_chain_build() - link the slots of a buffer into cycles
 * @buf: the buffer; slot i is at @buf + i * @chain->stride and receives a
 *	pointer to the next slot of its cycle
 * @chain: the slots, the order, the cycles and the seed
 * @first: receives the first slot of each of the @chain->chases cycles
 * @err: filled on failure
 *
 * cp_chase_link() cuts the order of cp_chain_order() into @chain->chases
 * cycles.
 *
 * Return: 0, or -ENOMEM, -E2BIG (more than U32_MAX slots) or -EINTR (a
 * signal while building) with @err filled.
 */
int cp_chain_build(void *buf, const struct cp_chain *chain, void **first,
		   struct cp_err *err)
{
	u32 *order;
	int ret;

	order = cp_chain_order(chain, err);
	if (IS_ERR(order))
		return PTR_ERR(order);
	ret = cp_chain_link(buf, chain, order, first, err);
	cp_chain_order_free(order);
	return ret;
}

/**
 * cp_chain_link() - link the slots of a buffer into cycles in an order
 * @buf: as for cp_chain_build()
 * @chain: as for cp_chain_build()
 * @order: from cp_chain_order(@chain)
 * @first: as for cp_chain_build()
 * @err: filled on failure
 *
 * Return: 0, or -EINTR (a signal while linking) with @err filled.
 */
int cp_chain_link(void *buf, const struct cp_chain *chain, const u32 *order,
		  void **first, struct cp_err *err)
{
	u64 n = chain->nr_slots, from, to;
	int ret = 0;

	BUILD_BUG_ON(CACHEPROBE_MAX_CHASES != CP_CHASE_MAX_CHASES);
	for (from = 0; !ret && from < n; from = to) {
		to = min_t(u64, n, from + CP_CHAIN_SLICE);
		cp_chase_link(buf, order, n, chain->stride, chain->chases, first,
			      from, to);
		ret = cp_chain_pause(err);
	}
	return ret;
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
