/* SPDX-License-Identifier: GPL-2.0 */
/* Pointer chains through a buffer, shared by CHASE, ACCESS and XFER. */
#ifndef CACHEPROBE_CHAIN_H
#define CACHEPROBE_CHAIN_H

#include <linux/types.h>
#include "cacheprobe.h"

/**
 * struct cp_chain - how to link a buffer's slots
 * @nr_slots: slots, at least @chases.
 * @stride: bytes between slots, a multiple of 8.
 * @order: CACHEPROBE_ORDER_SEQUENTIAL or CACHEPROBE_ORDER_RANDOM.
 * @chases: independent cycles, 1 to CP_CHASE_MAX_CHASES.
 * @seed: the SplitMix64 seed of a random order.
 */
struct cp_chain {
	u64 nr_slots;
	u32 stride;
	u32 order;
	u32 chases;
	u64 seed;
};

u32 *cp_chain_order(const struct cp_chain *chain, struct cp_err *err);
void cp_chain_order_free(u32 *order);
/* Positions handled between two looks at signals and the scheduler. */
#define CP_CHAIN_SLICE	65536

int cp_chain_pause(struct cp_err *err);
int cp_chain_link(void *buf, const struct cp_chain *chain, const u32 *order,
		  void **first, struct cp_err *err);
int cp_chain_build(void *buf, const struct cp_chain *chain, void **first,
		   struct cp_err *err);
int cp_chain_check_order(u32 *order, struct cp_err *err);

#endif /* CACHEPROBE_CHAIN_H */
