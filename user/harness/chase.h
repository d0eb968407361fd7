/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A dependent pointer chase: one pointer per cache line, the lines linked
 * in one random cycle (Sattolo's algorithm), so every load's address comes
 * from the previous load and no stride is there for a prefetcher to learn.
 */
#ifndef CACHEPROBE_CHASE_H
#define CACHEPROBE_CHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/chase.h"

/* Loads per iteration of cp_chase_body with one chase: the harness's
 * scale. */
#define CP_CHASE_HOPS_PER_ITERATION 16

/* The pages a chase's buffer asks for. */
enum cp_page_size {
	CP_PAGES_2M,	/* transparent huge pages (madvise): the default */
	CP_PAGES_4K,	/* small pages only (MADV_NOHUGEPAGE) */
	CP_PAGES_1G,	/* hugetlbfs pages of 1 GiB, reserved beforehand */
};

struct cp_chase_spec {
	size_t bytes;			/* the working set */
	size_t line_size;		/* bytes between chased slots */
	uint64_t seed;			/* of the random order */
	enum cp_page_size pages;
	unsigned int chases;		/* independent cycles; 0 or 1: one */
};

struct cp_chase {
	void *buffer;
	size_t mapped_bytes;
	size_t nr_lines;
	size_t line_size;
	bool huge_pages_requested;	/* madvise(MADV_HUGEPAGE) accepted */
	enum cp_page_size pages;
	unsigned int chases;
	void **position;		/* where the next iteration starts */
	/* With several chases, where each goes on (position: the first). */
	void *positions[CP_CHASE_MAX_CHASES];
};

/*
 * Build a chase over @bytes (a multiple of @line_size, at least two lines)
 * with lines of @line_size bytes in an order drawn from @seed, on huge
 * pages where the kernel gives them, one cycle.
 * 0 or -EINVAL, -ENOMEM, -EINTR (a signal asked the run to stop while the
 * lines were linked; nothing stays mapped).
 */
int cp_chase_build(struct cp_chase *chase, size_t bytes, size_t line_size,
		   uint64_t seed);

/*
 * The same with the pages and the number of chases chosen: the lines of
 * the order split evenly into @spec->chases cycles (measure/chase.h),
 * each at least two lines.  Errors as cp_chase_build; -ENOMEM for 1 GiB
 * pages also when none are reserved.
 */
int cp_chase_build_spec(struct cp_chase *chase,
			const struct cp_chase_spec *spec);
void cp_chase_free(struct cp_chase *chase);

/* Loads one iteration of cp_chase_body does for @chase. */
unsigned int cp_chase_loads_per_iteration(const struct cp_chase *chase);

/* Follow cp_chase_loads_per_iteration() * @count pointers over all the
 * chases, continuing where the last call stopped (a restart would re-walk
 * lines still cached). */
uint64_t cp_chase_body(void *chase, uint64_t count);

/* The page size that really maps @chase's buffer (the smallest, when
 * mixed), read from /proc/self/smaps; 0 when it cannot be read. */
size_t cp_chase_page_bytes(const struct cp_chase *chase);

/* The line index each line points to, in @next (nr_lines entries): for
 * tests that check the chain is one cycle. */
void cp_chase_successors(const struct cp_chase *chase, size_t *next);

#endif
