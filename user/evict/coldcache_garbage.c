// SPDX-License-Identifier: GPL-2.0
#include "evict/coldcache_garbage.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "harness/interrupt.h"

#define LINE 64
#define PAGE 4096
/* Bytes faulted in between two looks at the interrupt flag: ~10 ms. */
#define POPULATE_CHUNK (32u << 20)

/* Where read results go, so no read is optimised away. */
static volatile uint64_t garbage_sink;

static size_t round_to_page(size_t bytes)
{
	return (bytes + PAGE - 1) / PAGE * PAGE;
}

static char *map_populated(size_t bytes)
{
	void *buffer = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buffer == MAP_FAILED)
		return NULL;
	/* Huge pages keep the reads from waiting on page walks. */
	madvise(buffer, bytes, MADV_HUGEPAGE);
	/* Distinct physical pages: untouched anonymous memory reads as the
	 * one shared zero page, which would stay cached and evict nothing.
	 * Gigabytes take seconds to fault in: a Ctrl-C must not wait. */
	for (size_t done = 0; done < bytes; done += POPULATE_CHUNK) {
		size_t chunk = bytes - done < POPULATE_CHUNK ? bytes - done
							     : POPULATE_CHUNK;

		if (cp_interrupt_requested()) {
			munmap(buffer, bytes);
			return NULL;
		}
		memset((char *)buffer + done, 0x5a, chunk);
	}
	return buffer;
}

/* A byte waits for the pool to be read past its size less the largest
 * window, or for one window, whichever is more. */
static size_t pool_size(size_t smallest, size_t largest, uint64_t llc_bytes)
{
	size_t reuse = round_to_page((size_t)llc_bytes * CP_GARBAGE_REUSE_LLCS);

	return smallest >= reuse ? largest : largest + reuse;
}

int cp_garbage_alloc_pool(struct cp_garbage *garbage, size_t smallest_bytes,
			  size_t largest_bytes, uint64_t llc_bytes)
{
	size_t window = round_to_page(largest_bytes);
	size_t pool = pool_size(round_to_page(smallest_bytes), window,
				llc_bytes);

	memset(garbage, 0, sizeof(*garbage));
	if (!window || !smallest_bytes || smallest_bytes > largest_bytes)
		return -EINVAL;
	garbage->pool = map_populated(pool);
	if (!garbage->pool)
		return -ENOMEM;
	garbage->pool_bytes = pool;
	garbage->window_bytes = window;
	return 0;
}

int cp_garbage_alloc(struct cp_garbage *garbage, size_t smallest_bytes,
		     size_t largest_bytes, uint64_t llc_bytes)
{
	int ret = cp_garbage_alloc_pool(garbage, smallest_bytes,
					largest_bytes, llc_bytes);

	if (ret)
		return ret;
	garbage->naive = map_populated(CP_NAIVE_GARBAGE_BYTES);
	if (!garbage->naive) {
		cp_garbage_free(garbage);
		return -ENOMEM;
	}
	return 0;
}

int cp_garbage_redraw_naive(struct cp_garbage *garbage)
{
	char *naive = map_populated(CP_NAIVE_GARBAGE_BYTES);

	if (!naive)
		return cp_interrupt_requested() ? -EINTR : -ENOMEM;
	if (garbage->naive_kept[0])
		munmap(garbage->naive_kept[0], CP_NAIVE_GARBAGE_BYTES);
	memmove(garbage->naive_kept, garbage->naive_kept + 1,
		(CP_NAIVE_KEPT - 1) * sizeof(garbage->naive_kept[0]));
	garbage->naive_kept[CP_NAIVE_KEPT - 1] = garbage->naive;
	garbage->naive = naive;
	return 0;
}

void cp_garbage_free(struct cp_garbage *garbage)
{
	for (size_t i = 0; i < CP_NAIVE_KEPT; i++)
		if (garbage->naive_kept[i])
			munmap(garbage->naive_kept[i], CP_NAIVE_GARBAGE_BYTES);
	if (garbage->naive)
		munmap(garbage->naive, CP_NAIVE_GARBAGE_BYTES);
	if (garbage->pool)
		munmap(garbage->pool, garbage->pool_bytes);
	memset(garbage, 0, sizeof(*garbage));
}

const char *cp_garbage_next_window(struct cp_garbage *garbage, size_t bytes)
{
	const char *start = garbage->pool + garbage->cursor;

	garbage->cursor += round_to_page(bytes);
	if (garbage->cursor + garbage->window_bytes > garbage->pool_bytes)
		garbage->cursor = 0;
	return start;
}

uint64_t cp_garbage_read(const char *start, size_t bytes)
{
	const volatile uint64_t *word = (const volatile uint64_t *)start;
	size_t stride = LINE / sizeof(uint64_t);
	size_t nr_lines = bytes / LINE;
	uint64_t sum = 0;
	size_t i = 0;

	for (; i + 4 <= nr_lines; i += 4)
		sum += word[i * stride] ^ word[(i + 1) * stride] ^
		       word[(i + 2) * stride] ^ word[(i + 3) * stride];
	for (; i < nr_lines; i++)
		sum += word[i * stride];
	return sum;
}

uint64_t cp_garbage_read_twice(const char *start, size_t bytes,
			       size_t chunk_bytes)
{
	uint64_t sum = 0;

	if (!chunk_bytes)
		chunk_bytes = bytes;
	for (size_t done = 0; done < bytes; done += chunk_bytes) {
		size_t len = bytes - done < chunk_bytes ? bytes - done
							: chunk_bytes;

		for (int pass = 0; pass < CP_PLAN_PASSES; pass++)
			sum += cp_garbage_read(start + done, len);
	}
	return sum;
}

static int pin_to(unsigned int cpu)
{
	cpu_set_t mask;

	CPU_ZERO(&mask);
	CPU_SET(cpu, &mask);
	return sched_setaffinity(0, sizeof(mask), &mask) ? -errno : 0;
}

int cp_garbage_naive(const struct cp_garbage *garbage,
		     const struct cp_cpuset *cpus)
{
	cpu_set_t previous;
	int ret = 0;

	if (sched_getaffinity(0, sizeof(previous), &previous))
		return -errno;
	for (int cpu = cp_cpuset_first(cpus); cpu >= 0 && !ret;
	     cpu = cp_cpuset_next(cpus, (unsigned int)cpu)) {
		/* 64 MiB a CPU: on a large machine, a long while in all. */
		if (cp_interrupt_requested()) {
			ret = -EINTR;
			break;
		}
		ret = pin_to((unsigned int)cpu);
		if (!ret)
			garbage_sink += cp_garbage_read(garbage->naive,
							CP_NAIVE_GARBAGE_BYTES);
	}
	if (sched_setaffinity(0, sizeof(previous), &previous) && !ret)
		ret = -errno;
	return ret;
}

int cp_garbage_planned(struct cp_garbage *garbage, struct cp_readers *readers,
		       const struct cp_eviction_plan *plan)
{
	if (garbage->window_bytes < plan->total_bytes)
		return -EINVAL;
	return cp_readers_read(readers, plan,
			       cp_garbage_next_window(garbage,
						      plan->total_bytes));
}
