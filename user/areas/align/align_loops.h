/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classic pattern's loop, which only user mode measures.  The loops of
 * the access widths and kinds are include/measure/access.h's, which the
 * module's ACCESS runs too.
 */
#ifndef CACHEPROBE_ALIGN_LOOPS_H
#define CACHEPROBE_ALIGN_LOOPS_H

#include <stdint.h>

/*
 * The classic pattern: @laps times over @steps steps from @first, each
 * step loading the bytes at p and p + @half (movzbl), adding them to two
 * accumulators, then moving p on by @step.  Returns the sum.
 */
uint64_t cp_align_classic_loop(const unsigned char *first, uint64_t half,
			       uint64_t step, uint64_t steps, uint64_t laps);

#endif
