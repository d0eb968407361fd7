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

/* Loads per iteration of cp_chase_body: the harness's scale. */
#define CP_CHASE_HOPS_PER_ITERATION 16

struct cp_chase {
	void *buffer;
	size_t mapped_bytes;
	size_t nr_lines;
	size_t line_size;
	bool huge_pages_requested;	/* madvise(MADV_HUGEPAGE) accepted */
	void **position;		/* where the next iteration starts */
};

/*
 * Build a chase over @bytes (a multiple of @line_size, at least two lines)
 * with lines of @line_size bytes in an order drawn from @seed.
 * 0 or -EINVAL, -ENOMEM, -EINTR (a signal asked the run to stop while the
 * lines were linked; nothing stays mapped).
 */
int cp_chase_build(struct cp_chase *chase, size_t bytes, size_t line_size,
		   uint64_t seed);
void cp_chase_free(struct cp_chase *chase);

/* Follow CP_CHASE_HOPS_PER_ITERATION * @count pointers, continuing where
 * the last call stopped (a restart would re-walk lines still cached). */
uint64_t cp_chase_body(void *chase, uint64_t count);

/* The line index each line points to, in @next (nr_lines entries): for
 * tests that check the chain is one cycle. */
void cp_chase_successors(const struct cp_chase *chase, size_t *next);

#endif
