/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache-line size read off an offset sweep: the line size is where
 * the penalty appears.  A @width-byte access at offset o splits a line of
 * L bytes exactly when (o mod L) + width > L, so each candidate L
 * predicts which offsets of the sweep pay; the candidate whose prediction
 * matches the penalized offsets best, alone, is the line size.
 *
 * An offset is penalized when its median is at least
 * CP_ALIGN_PENALTY_THRESHOLD times the sweep's baseline, the lower decile
 * of its medians: an access that does not split, even in a sweep where
 * most offsets do, and not one lucky or unlucky offset-0 measurement.
 */
#ifndef CACHEPROBE_ALIGN_DETECT_H
#define CACHEPROBE_ALIGN_DETECT_H

#include <stddef.h>
#include <stdint.h>

/* A split 8-byte load costs about half again an aligned one here; noise
 * between offsets of one sweep stays within a few per cent. */
#define CP_ALIGN_PENALTY_THRESHOLD 1.15
/* A candidate must explain at least this share of the offsets. */
#define CP_ALIGN_MIN_AGREEMENT 0.9
#define CP_ALIGN_MIN_LINE 16u
#define CP_ALIGN_MAX_LINE 2048u

struct cp_align_detection {
	unsigned int line_bytes;	/* 0: not determined */
	size_t penalized;		/* offsets above the threshold */
	size_t agreeing;		/* offsets the winner explains */
	double baseline;		/* lower decile of the medians */
	const char *why;		/* when line_bytes is 0 */
};

/*
 * Detect the line size from @n offsets (@offsets[i] measured @medians[i],
 * any unit, any order) of @width-byte accesses.  Returns the line size, 0
 * when the sweep shows no penalty, the offsets cannot tell the candidates
 * apart, or no candidate explains them; @out (may be NULL) says why.
 */
unsigned int cp_align_detect_line(const uint32_t *offsets,
				  const double *medians, size_t n,
				  unsigned int width,
				  struct cp_align_detection *out);

#endif
