// SPDX-License-Identifier: GPL-2.0
#include "areas/xcore/xcore_block.h"

#include <errno.h>
#include <stdio.h>

#include "measure/xfer.h"

const char *cp_xcore_touch_name(enum cp_xcore_touch touch)
{
	switch (touch) {
	case CP_XCORE_TOUCH_READ:
		return "read";
	case CP_XCORE_TOUCH_MODIFY:
		return "modify";
	default:
		return "memory";
	}
}

static char *line_at(const struct cp_chase *block, size_t index)
{
	return (char *)block->buffer + index * block->line_size;
}

void cp_xcore_touch(const struct cp_chase *block, enum cp_xcore_touch touch)
{
	uint64_t sum = 0;

	if (touch == CP_XCORE_TOUCH_NONE)
		return;
	for (size_t i = 0; i < block->nr_lines; i++) {
		__u64 *word = (__u64 *)line_at(block, i);

		if (touch == CP_XCORE_TOUCH_MODIFY)
			cp_xfer_modify(word);
		else
			sum += cp_xfer_read(word);
	}
	__asm__ __volatile__("" : : "r"(sum));
}

void cp_xcore_flush(const struct cp_chase *block)
{
	for (size_t i = 0; i < block->nr_lines; i++)
		__asm__ __volatile__("clflush %0"
				     : "+m"(*(volatile char *)line_at(block, i)));
	__asm__ __volatile__("mfence" : : : "memory");
}

/* Read through a volatile: the compiler cannot know it is 0. */
static volatile uintptr_t zero;

void *cp_xcore_walk(void *head, size_t lines, unsigned int delay)
{
	unsigned long nothing = zero;

	/* As the module's: with delay the constant 0, the bare chain. */
	if (!delay)
		return cp_xfer_walk(head, lines, 0, nothing);
	return cp_xfer_walk(head, lines, delay, nothing);
}

int cp_xcore_check_block(uint64_t bytes, uint64_t limit, char *why,
			 size_t why_len)
{
	if (bytes & (bytes - 1)) {
		snprintf(why, why_len,
			 "block size %llu is not a power of two",
			 (unsigned long long)bytes);
		return -EINVAL;
	}
	if (bytes < CP_XCORE_MIN_BLOCK) {
		snprintf(why, why_len,
			 "block size %llu is below the smallest block (%llu bytes)",
			 (unsigned long long)bytes, CP_XCORE_MIN_BLOCK);
		return -EINVAL;
	}
	if (bytes > limit) {
		snprintf(why, why_len,
			 "block size %llu is above the limit of %llu bytes",
			 (unsigned long long)bytes, (unsigned long long)limit);
		return -EINVAL;
	}
	return 0;
}

size_t cp_xcore_block_sizes(uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t size = CP_XCORE_MIN_BLOCK;
	size_t n = 0;

	while (size < min)
		size *= 2;
	for (; size <= max && n < CP_XCORE_MAX_SIZES; size *= 2)
		out[n++] = size;
	return n;
}

/* The size of the cache of @level serving @cpu, and how many CPUs share
 * it; 0 when there is none. */
static uint64_t cache_of(const struct cp_cache_level *level, unsigned int cpu,
			 unsigned int *sharing)
{
	for (size_t i = 0; i < level->nr_instances; i++) {
		if (!cp_cpuset_test(level->instances[i].cpus, cpu))
			continue;
		*sharing = cp_cpuset_count(level->instances[i].cpus);
		return level->instances[i].size_bytes;
	}
	return 0;
}

uint64_t cp_xcore_default_max(const struct cp_topology *topology,
			      unsigned int cpu)
{
	uint64_t private_bytes = 0, last_bytes = 0, max = CP_XCORE_MIN_BLOCK;
	unsigned int threads = topology->max_threads_per_core;

	for (size_t i = 0; i < topology->nr_cache_levels; i++) {
		const struct cp_cache_level *level = &topology->cache_levels[i];
		unsigned int sharing = 0;
		uint64_t bytes;

		if (level->type == CP_CACHE_INSTRUCTION)
			continue;
		bytes = cache_of(level, cpu, &sharing);
		if (bytes && sharing <= (threads ? threads : 1) &&
		    bytes > private_bytes)
			private_bytes = bytes;
		if (bytes > last_bytes)
			last_bytes = bytes;
	}
	if (!private_bytes)
		private_bytes = last_bytes;
	while (max < private_bytes && max < CP_XCORE_DEFAULT_MAX)
		max *= 2;
	return max;
}
