/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the bounce counters live.  Counter k (k = 0 .. threads-1) sits at
 * byte start + k * distance of a block that starts on a page boundary,
 * start a multiple of an adjacent-line pair (128 bytes) within the first
 * page, so the first counter is at the start of a cache line and of a
 * line pair: "d bytes apart" then says exactly which lines and line pairs
 * the counters share, wherever in its page a round places them.  Distance
 * 0 puts every thread on one counter.  Nothing else is ever placed in the
 * block's lines.
 */
#ifndef CACHEPROBE_BOUNCE_LAYOUT_H
#define CACHEPROBE_BOUNCE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* The block's alignment: a page, which is a whole number of line pairs. */
#define CP_BOUNCE_BLOCK_ALIGN 4096u
/* The first counter's possible places in its page are this far apart. */
#define CP_BOUNCE_START_ALIGN 128u

struct cp_bounce_layout {
	unsigned int threads;
	unsigned int width;		/* counter bytes, 4 or 8 */
	uint32_t distance;		/* bytes from one counter to the next */
	size_t start;			/* the first counter's byte */
	size_t block_bytes;		/* whole pages */
	unsigned char *block;		/* CP_BOUNCE_BLOCK_ALIGN-aligned */
};

/*
 * Allocate a zeroed block for @threads counters of @width bytes @distance
 * apart.  0; -EINVAL when @width is not 4 or 8, @distance not a multiple
 * of it or above CP_BOUNCE_MAX_DISTANCE, or @threads is 0; -ENOMEM.
 */
int cp_bounce_layout_init(struct cp_bounce_layout *layout,
			  unsigned int threads, unsigned int width,
			  uint32_t distance);

/* The same with the first counter at byte @start of the block, a multiple
 * of CP_BOUNCE_START_ALIGN below CP_BOUNCE_BLOCK_ALIGN (-EINVAL else). */
int cp_bounce_layout_init_at(struct cp_bounce_layout *layout,
			     unsigned int threads, unsigned int width,
			     uint32_t distance, size_t start);
void cp_bounce_layout_free(struct cp_bounce_layout *layout);

/* Byte offset of thread @thread's counter from the block's start. */
size_t cp_bounce_counter_offset(const struct cp_bounce_layout *layout,
				unsigned int thread);
/* The counter itself. */
void *cp_bounce_counter(const struct cp_bounce_layout *layout,
			unsigned int thread);
/* The counter's current value (4- or 8-byte). */
uint64_t cp_bounce_counter_value(const struct cp_bounce_layout *layout,
				 unsigned int thread);
/* Every counter back to 0. */
void cp_bounce_layout_reset(struct cp_bounce_layout *layout);

#endif
