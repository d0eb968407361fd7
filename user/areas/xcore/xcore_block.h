/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The xcore block: a pointer chase (harness/chase.h) with one pointer per line,
 * all lines in one random cycle inside the block, and what the two sides
 * do to it.  The producer touches every line (reads it, or reads and
 * writes it back: Shared/Exclusive or Modified); the consumer walks the
 * cycle once from its head, each load's address coming from the previous
 * load, with an optional chain of dependent adds between loads; the
 * consumer flushes every line (clflush) before the next round.
 */
#ifndef CACHEPROBE_XCORE_BLOCK_H
#define CACHEPROBE_XCORE_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/chase.h"
#include "machine/topology.h"

/* Blocks start here and double. */
#define CP_XCORE_MIN_BLOCK 8192ull
/* The largest user-mode block: past any last-level cache of today. */
#define CP_XCORE_MAX_BLOCK (4ull << 30)
#define CP_XCORE_MAX_SIZES 32
/* The default sweep's end: a few seconds of rounds. */
#define CP_XCORE_DEFAULT_MAX (512ull << 10)

enum cp_xcore_touch {
	CP_XCORE_TOUCH_NONE,	/* nobody: the from-memory baseline */
	CP_XCORE_TOUCH_READ,	/* lines end Shared or Exclusive */
	CP_XCORE_TOUCH_MODIFY,	/* lines end Modified */
};

/* "memory", "read", "modify". */
const char *cp_xcore_touch_name(enum cp_xcore_touch touch);

/* Read or modify every line of @block (nothing for NONE). */
void cp_xcore_touch(const struct cp_chase *block, enum cp_xcore_touch touch);

/* clflush every line of @block, then mfence. */
void cp_xcore_flush(const struct cp_chase *block);

/* Follow @lines pointers from @head with @delay dependent adds after each
 * load; returns where the walk ended (the head again after a whole
 * cycle). */
void *cp_xcore_walk(void *head, size_t lines, unsigned int delay);

/* 0, or -EINVAL with why @bytes is no block size: a power of two from
 * CP_XCORE_MIN_BLOCK to @limit. */
int cp_xcore_check_block(uint64_t bytes, uint64_t limit, char *why,
			 size_t why_len);

/* The block sizes from @min to @max (powers of two, from at least
 * CP_XCORE_MIN_BLOCK), at most CP_XCORE_MAX_SIZES; returns how many. */
size_t cp_xcore_block_sizes(uint64_t min, uint64_t max, uint64_t *out);

/* The default largest block for a producer on @cpu: its largest private
 * cache (the last level when none is private), rounded up to a power of
 * two, but at most CP_XCORE_DEFAULT_MAX.  Each round flushes and walks
 * the whole block, and clflush of a line costs a few hundred ns under a
 * hypervisor, so a default sweep past every cache would take minutes; a
 * sweep past the last level is asked for with --max-size. */
uint64_t cp_xcore_default_max(const struct cp_topology *topology,
			      unsigned int cpu);

#endif
