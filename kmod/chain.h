/* SPDX-License-Identifier: GPL-2.0 */
/* Pointer chains through a buffer, shared by CHASE and XFER. */
#ifndef CACHEPROBE_CHAIN_H
#define CACHEPROBE_CHAIN_H

#include <linux/types.h>
#include "cacheprobe.h"

int cp_chain_build(void *buf, u64 nr_slots, u32 stride, u32 order,
		   struct cp_err *err);
u64 cp_chain_rand(u64 *state);
int cp_chain_check_order(u32 *order, struct cp_err *err);

#endif /* CACHEPROBE_CHAIN_H */
