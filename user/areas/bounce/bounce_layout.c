// SPDX-License-Identifier: GPL-2.0
#include "areas/bounce/bounce_layout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "areas/bounce/bounce_choices.h"

int cp_bounce_layout_init(struct cp_bounce_layout *layout,
			  unsigned int threads, unsigned int width,
			  uint32_t distance)
{
	return cp_bounce_layout_init_at(layout, threads, width, distance, 0);
}

int cp_bounce_layout_init_at(struct cp_bounce_layout *layout,
			     unsigned int threads, unsigned int width,
			     uint32_t distance, size_t start)
{
	size_t span;

	memset(layout, 0, sizeof(*layout));
	if (!threads || (width != 4 && width != 8) || distance % width ||
	    distance > CP_BOUNCE_MAX_DISTANCE ||
	    start % CP_BOUNCE_START_ALIGN || start >= CP_BOUNCE_BLOCK_ALIGN)
		return -EINVAL;
	span = start + (size_t)(threads - 1) * distance + width;
	layout->block_bytes = (span + CP_BOUNCE_BLOCK_ALIGN - 1) /
			      CP_BOUNCE_BLOCK_ALIGN * CP_BOUNCE_BLOCK_ALIGN;
	layout->block = aligned_alloc(CP_BOUNCE_BLOCK_ALIGN,
				      layout->block_bytes);
	if (!layout->block)
		return -ENOMEM;
	memset(layout->block, 0, layout->block_bytes);
	layout->threads = threads;
	layout->width = width;
	layout->distance = distance;
	layout->start = start;
	return 0;
}

void cp_bounce_layout_free(struct cp_bounce_layout *layout)
{
	free(layout->block);
	layout->block = NULL;
}

size_t cp_bounce_counter_offset(const struct cp_bounce_layout *layout,
				unsigned int thread)
{
	return layout->start + (size_t)thread * layout->distance;
}

void *cp_bounce_counter(const struct cp_bounce_layout *layout,
			unsigned int thread)
{
	return layout->block + cp_bounce_counter_offset(layout, thread);
}

uint64_t cp_bounce_counter_value(const struct cp_bounce_layout *layout,
				 unsigned int thread)
{
	const void *counter = cp_bounce_counter(layout, thread);

	if (layout->width == 4)
		return *(const volatile uint32_t *)counter;
	return *(const volatile uint64_t *)counter;
}

void cp_bounce_layout_reset(struct cp_bounce_layout *layout)
{
	memset(layout->block, 0, layout->block_bytes);
}
