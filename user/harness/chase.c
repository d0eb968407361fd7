// SPDX-License-Identifier: GPL-2.0
#include "harness/chase.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/mman.h>
#include <sys/mman.h>

#include "harness/interrupt.h"
#include "harness/page_backing.h"
#include "harness/rng.h"

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
	void *first[CP_CHASE_MAX_CHASES];

	for (size_t from = 0; from < chase->nr_lines; from += LINES_PER_LOOK) {
		if (cp_interrupt_requested())
			return -EINTR;
		cp_chase_link(chase->buffer, order, chase->nr_lines,
			      (uint32_t)chase->line_size, chase->chases, first,
			      from, from + LINES_PER_LOOK);
	}
	for (unsigned int k = 0; k < chase->chases; k++)
		chase->positions[k] = first[k];
	chase->position = first[0];
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

#define GIANT_PAGE (1ul << 30)

/* 1 GiB pages come only from the hugetlb pool, reserved beforehand. */
static int map_giant(struct cp_chase *chase, size_t bytes)
{
	size_t mapped = (bytes + GIANT_PAGE - 1) & ~(GIANT_PAGE - 1);
	void *raw = mmap(NULL, mapped, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
			 MAP_HUGE_1GB, -1, 0);

	if (raw == MAP_FAILED)
		return -ENOMEM;
	chase->buffer = raw;
	chase->mapped_bytes = mapped;
	chase->huge_pages_requested = true;
	return 0;
}

/*
 * Huge pages keep TLB misses out of the cache latencies where the kernel
 * allows them; whether it did is recorded with the result.  The kernel
 * backs only whole aligned 2 MiB ranges of a mapping with a huge page, so
 * the buffer starts on one and spans whole ones: a 24 KiB working set
 * spread one line per 4 KiB spans 1.6 MB, and unaligned it sat on 384
 * small pages whose TLB entries a large garbage read evicts, adding a page
 * walk to every load of the first pass.  Small pages are asked for
 * explicitly (MADV_NOHUGEPAGE): with THP "always" the kernel would
 * otherwise back the aligned buffer with huge ones anyway.
 */
static int map_buffer(struct cp_chase *chase, size_t bytes)
{
	size_t mapped = round_to_huge(bytes);
	char *raw, *aligned;

	if (chase->pages == CP_PAGES_1G)
		return map_giant(chase, bytes);
	raw = mmap(NULL, mapped + HUGE_PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return -ENOMEM;
	aligned = (char *)round_to_huge((size_t)raw);
	if (aligned > raw)
		munmap(raw, (size_t)(aligned - raw));
	munmap(aligned + mapped, (size_t)(raw + HUGE_PAGE - aligned));
	if (chase->pages == CP_PAGES_4K)
		madvise(aligned, mapped, MADV_NOHUGEPAGE);
	else
		chase->huge_pages_requested =
			madvise(aligned, mapped, MADV_HUGEPAGE) == 0;
	chase->buffer = aligned;
	chase->mapped_bytes = mapped;
	return 0;
}

static bool spec_valid(const struct cp_chase_spec *spec)
{
	size_t lines = spec->line_size ? spec->bytes / spec->line_size : 0;
	unsigned int chases = spec->chases ? spec->chases : 1;

	return spec->line_size >= sizeof(void *) &&
	       spec->bytes % spec->line_size == 0 &&
	       chases <= CP_CHASE_MAX_CHASES && lines >= 2ull * chases &&
	       lines <= UINT32_MAX && spec->pages <= CP_PAGES_1G;
}

int cp_chase_build_spec(struct cp_chase *chase,
			const struct cp_chase_spec *spec)
{
	uint32_t *order;
	int ret;

	memset(chase, 0, sizeof(*chase));
	if (!spec_valid(spec))
		return -EINVAL;
	order = malloc(spec->bytes / spec->line_size * sizeof(*order));
	if (!order)
		return -ENOMEM;
	chase->pages = spec->pages;
	chase->chases = spec->chases ? spec->chases : 1;
	ret = map_buffer(chase, spec->bytes);
	if (!ret) {
		chase->line_size = spec->line_size;
		chase->nr_lines = spec->bytes / spec->line_size;
		cp_rng_cycle(order, chase->nr_lines, spec->seed);
		ret = fault_in(chase);
		if (!ret)
			ret = link_lines(chase, order);
	}
	free(order);
	if (ret)
		cp_chase_free(chase);
	return ret;
}

int cp_chase_build(struct cp_chase *chase, size_t bytes, size_t line_size,
		   uint64_t seed)
{
	const struct cp_chase_spec spec = {
		.bytes = bytes, .line_size = line_size, .seed = seed,
		.pages = CP_PAGES_2M, .chases = 1,
	};

	return cp_chase_build_spec(chase, &spec);
}

void cp_chase_free(struct cp_chase *chase)
{
	if (chase->buffer)
		munmap(chase->buffer, chase->mapped_bytes);
	memset(chase, 0, sizeof(*chase));
}

unsigned int cp_chase_loads_per_iteration(const struct cp_chase *chase)
{
	return cp_chase_loads_of(chase->chases);
}

/* One chase goes on from position, which other walks (the cold-cache
 * classifier's timed passes) move too; several from positions. */
uint64_t cp_chase_body(void *context, uint64_t count)
{
	struct cp_chase *chase = context;

	if (chase->chases == 1) {
		void *position = chase->position;

		cp_chase_follow(&position, 1, count, 1);
		chase->position = position;
		return (uint64_t)(uintptr_t)position;
	}
	cp_chase_follow(chase->positions, chase->chases, count, 1);
	return (uint64_t)(uintptr_t)chase->positions[0];
}

size_t cp_chase_page_bytes(const struct cp_chase *chase)
{
	return cp_page_backing(chase->buffer);
}

void cp_chase_successors(const struct cp_chase *chase, size_t *next)
{
	for (size_t i = 0; i < chase->nr_lines; i++) {
		char *target = *(char **)line_address(chase, i);

		next[i] = (size_t)(target - (char *)chase->buffer) /
			  chase->line_size;
	}
}
