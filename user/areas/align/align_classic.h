/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classic misalignment pattern: sum the bytes p[0] and p[LINE/2],
 * step p on by three lines, over a buffer whose base pointer is shifted by
 * a few bytes.  Shifted by 0 or LINE/2 - 1 both bytes share one line;
 * shifted by LINE/2 they fall in two, so each step touches twice the
 * lines.  No load ever splits (they are single bytes): what the pattern
 * shows is the cost of the larger set of lines it touches.
 */
#ifndef CACHEPROBE_ALIGN_CLASSIC_H
#define CACHEPROBE_ALIGN_CLASSIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CP_ALIGN_CLASSIC_STEP_LINES 3

struct cp_align_classic {
	unsigned char *buffer;
	size_t mapped_bytes;
	uint64_t size;			/* bytes the steps range over */
	unsigned int line;
	uint32_t shift;			/* of the base pointer */
	uint64_t steps;			/* per lap */
	uint64_t laps;
	uint64_t checksum;
	uint64_t lap_sum;
};

/* Lines one step touches: 1, or 2 when p[0] and p[LINE/2] straddle. */
unsigned int cp_align_classic_lines_per_step(unsigned int line,
					     uint32_t shift);

/* Build over @size bytes with @line-byte lines and the base shifted by
 * @shift (below @line).  0, -EINVAL or -ENOMEM. */
int cp_align_classic_build(struct cp_align_classic *classic, uint64_t size,
			   unsigned int line, uint32_t shift);
void cp_align_classic_free(struct cp_align_classic *classic);

/* The harness body: @count laps of classic->steps steps (2 loads each). */
uint64_t cp_align_classic_body(void *classic, uint64_t count);

/* Whether the sum of what was loaded is laps times one lap's sum. */
bool cp_align_classic_verify(const struct cp_align_classic *classic);

#endif
