// SPDX-License-Identifier: GPL-2.0
#include "chase.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "interrupt.h"
#include "rng.h"

static void *line_address(const struct cp_chase *chase, size_t index)
{
	return (char *)chase->buffer + index * chase->line_size;
}

/* Lines linked between two looks at the interrupt flag: each may fault
 * in a page of its own, so a few milliseconds. */
#define LINES_PER_LOOK 4096

/* 0, or -EINTR when a signal asked the run to stop: a chase over
 * hundreds of MiB takes most of a second to fault in and link. */
static int link_lines(struct cp_chase *chase, const uint32_t *order)
{
	for (size_t i = 0; i < chase->nr_lines; i++) {
		size_t next = (i + 1) % chase->nr_lines;

		if (i % LINES_PER_LOOK == 0 && cp_interrupt_requested())
			return -EINTR;
		*(void **)line_address(chase, order[i]) =
			line_address(chase, order[next]);
	}
	chase->position = line_address(chase, order[0]);
	return 0;
}

#define HUGE_PAGE (2ul << 20)

/*
 * Fault the buffer in, in order, looking at the interrupt flag between
 * huge pages: linked in random order, the first few thousand lines fault
 * in nearly every page of the buffer (hundreds of MiB zeroed) before the
 * link loop's next look.
 */
static int fault_in(struct cp_chase *chase)
{
	volatile char *bytes = chase->buffer;

	for (size_t at = 0; at < chase->mapped_bytes; at += 4096) {
		if (at % HUGE_PAGE == 0 && cp_interrupt_requested())
			return -EINTR;
		bytes[at] = 0;
	}
	return 0;
}

static size_t round_to_huge(size_t bytes)
{
	return (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/*
 * Huge pages keep TLB misses out of the cache latencies where the kernel
 * allows them; whether it did is recorded with the result.  The kernel
 * backs only whole aligned 2 MiB ranges of a mapping with a huge page, so
 * the buffer starts on one and spans whole ones: a 24 KiB working set
 * spread one line per 4 KiB spans 1.6 MB, and unaligned it sat on 384
 * small pages whose TLB entries a large garbage read evicts, adding a page
 * walk to every load of the first pass.
 */
static int map_buffer(struct cp_chase *chase, size_t bytes)
{
	size_t mapped = round_to_huge(bytes);
	char *raw = mmap(NULL, mapped + HUGE_PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *aligned;

	if (raw == MAP_FAILED)
		return -ENOMEM;
	aligned = (char *)round_to_huge((size_t)raw);
	if (aligned > raw)
		munmap(raw, (size_t)(aligned - raw));
	munmap(aligned + mapped, (size_t)(raw + HUGE_PAGE - aligned));
	chase->huge_pages_requested =
		madvise(aligned, mapped, MADV_HUGEPAGE) == 0;
	chase->buffer = aligned;
	chase->mapped_bytes = mapped;
	return 0;
}

int cp_chase_build(struct cp_chase *chase, size_t bytes, size_t line_size,
		   uint64_t seed)
{
	uint32_t *order;
	int ret;

	memset(chase, 0, sizeof(*chase));
	if (line_size < sizeof(void *) || bytes % line_size ||
	    bytes / line_size < 2 || bytes / line_size > UINT32_MAX)
		return -EINVAL;
	order = malloc(bytes / line_size * sizeof(*order));
	if (!order)
		return -ENOMEM;
	ret = map_buffer(chase, bytes);
	if (!ret) {
		chase->line_size = line_size;
		chase->nr_lines = bytes / line_size;
		cp_rng_cycle(order, chase->nr_lines, seed);
		ret = fault_in(chase);
		if (!ret)
			ret = link_lines(chase, order);
	}
	free(order);
	if (ret)
		cp_chase_free(chase);
	return ret;
}

void cp_chase_free(struct cp_chase *chase)
{
	if (chase->buffer)
		munmap(chase->buffer, chase->mapped_bytes);
	memset(chase, 0, sizeof(*chase));
}

#define HOP(p) ((p) = *(void **)(p))

uint64_t cp_chase_body(void *context, uint64_t count)
{
	struct cp_chase *chase = context;
	void **p = chase->position;

	_Static_assert(CP_CHASE_HOPS_PER_ITERATION == 16,
		       "the unrolled body below must match");
	for (uint64_t i = 0; i < count; i++) {
		HOP(p); HOP(p); HOP(p); HOP(p);
		HOP(p); HOP(p); HOP(p); HOP(p);
		HOP(p); HOP(p); HOP(p); HOP(p);
		HOP(p); HOP(p); HOP(p); HOP(p);
	}
	chase->position = p;
	return (uint64_t)(uintptr_t)p;
}

void cp_chase_successors(const struct cp_chase *chase, size_t *next)
{
	for (size_t i = 0; i < chase->nr_lines; i++) {
		char *target = *(char **)line_address(chase, i);

		next[i] = (size_t)(target - (char *)chase->buffer) /
			  chase->line_size;
	}
}
