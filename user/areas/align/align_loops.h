/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The align area's measured loops, one per access width and kind, written
 * in inline assembly so each access is exactly one instruction of the
 * width it claims (movzbl, movzwl, movl, movq; movdqu for 16 bytes,
 * vmovdqu for 32, vmovdqu64 for 64), whatever the compiler would choose.
 * The 32- and 64-byte loops end with vzeroupper.  Callers check first
 * that the CPU can do the width (areas/align/align_widths.h).
 *
 * Widths are indexed by their base-2 logarithm (0 for 1 byte ... 6 for 64).
 */
#ifndef CACHEPROBE_ALIGN_LOOPS_H
#define CACHEPROBE_ALIGN_LOOPS_H

#include <stdint.h>

/* Hops of one call's iteration of the dependent loops. */
#define CP_ALIGN_HOPS_PER_ITERATION 16
/* Independent accesses per inner iteration: slot counts of the
 * throughput loops are multiples of it. */
#define CP_ALIGN_UNROLL 4

/*
 * Pointer chase for 8 to 64 bytes: @count times 16 hops, each loading the
 * access at the pointer and taking its first 8 bytes as the next pointer
 * (through a movq from the vector register for 16 to 64 bytes).  Returns
 * where it stopped.
 */
typedef void *(*cp_align_chase_fn)(void *position, uint64_t count);

/*
 * Dependent chain for 1 to 4 bytes (too narrow for a pointer): 16 hops,
 * each loading at *@position and adding the loaded value (0) to the next
 * slot address taken from *@table (which advances 16 entries), so every
 * load waits for the previous one.  The loaded values are summed into
 * *@sum.
 */
typedef void (*cp_align_chain_fn)(uintptr_t *position, const uintptr_t **table,
				  uint64_t *sum);

/*
 * Independent loads: @laps times over @groups groups of CP_ALIGN_UNROLL
 * slots @stride bytes apart from @first; each loaded value is added (in
 * 64-bit lanes) into one of four accumulators.  Returns the sum of all.
 */
typedef uint64_t (*cp_align_load_fn)(const unsigned char *first,
				     uint64_t stride, uint64_t groups,
				     uint64_t laps);

/* Independent stores of the first width bytes of @pattern (64 bytes),
 * over the same slots. */
typedef void (*cp_align_store_fn)(unsigned char *first, uint64_t stride,
				  uint64_t groups, uint64_t laps,
				  const unsigned char *pattern);

/* NULL for widths the kind has no loop for (chase: below 8, chain: above
 * 4). */
cp_align_chase_fn cp_align_chase_loop(unsigned int width);
cp_align_chain_fn cp_align_chain_loop(unsigned int width);
cp_align_load_fn cp_align_load_loop(unsigned int width);
cp_align_store_fn cp_align_store_loop(unsigned int width);

/*
 * The classic pattern: @laps times over @steps steps from @first, each
 * step loading the bytes at p and p + @half (movzbl), adding them to two
 * accumulators, then moving p on by @step.  Returns the sum.
 */
uint64_t cp_align_classic_loop(const unsigned char *first, uint64_t half,
			       uint64_t step, uint64_t steps, uint64_t laps);

#endif
