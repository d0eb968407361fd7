// SPDX-License-Identifier: GPL-2.0
#include "areas/align/align_detect.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>


static bool predicted(uint32_t offset, unsigned int width, unsigned int line)
{
	return offset % line + width > line;
}

/* Offsets whose penalty @line explains (split and penalized, or neither). */
static size_t agreement(const uint32_t *offsets, const bool *penalized,
			size_t n, unsigned int width, unsigned int line)
{
	size_t agree = 0;

	for (size_t i = 0; i < n; i++)
		agree += predicted(offsets[i], width, line) == penalized[i];
	return agree;
}

static int compare_doubles(const void *a, const void *b)
{
	double left = *(const double *)a, right = *(const double *)b;

	return (left > right) - (left < right);
}

/* The lower decile of @values: the cost of an access that does not split,
 * even in a sweep where most offsets do. */
static double low_decile(const double *values, size_t n)
{
	double *sorted = malloc(n * sizeof(*sorted)), value;

	if (!sorted)
		return 0;
	memcpy(sorted, values, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_doubles);
	value = sorted[(n - 1) / 10];
	free(sorted);
	return value;
}

static unsigned int choose(const uint32_t *offsets, const bool *penalized,
			   size_t n, unsigned int width,
			   struct cp_align_detection *out)
{
	unsigned int best = 0;
	size_t best_agree = 0;
	bool tied = false;

	for (unsigned int line = CP_ALIGN_MIN_LINE; line <= CP_ALIGN_MAX_LINE;
	     line *= 2) {
		size_t agree;

		if (line < 2 * width)
			continue;
		agree = agreement(offsets, penalized, n, width, line);
		if (agree > best_agree) {
			best = line;
			best_agree = agree;
			tied = false;
		} else if (agree == best_agree && best) {
			/* Equally good: the sweep cannot choose. */
			tied = true;
		}
	}
	out->agreeing = best_agree;
	if (!best || tied) {
		out->why = "the offsets cannot tell the candidate line sizes apart";
		return 0;
	}
	if ((double)best_agree < CP_ALIGN_MIN_AGREEMENT * (double)n) {
		out->why = "no line size explains which offsets pay";
		return 0;
	}
	return best;
}

unsigned int cp_align_detect_line(const uint32_t *offsets,
				  const double *medians, size_t n,
				  unsigned int width,
				  struct cp_align_detection *out)
{
	struct cp_align_detection local;
	bool *penalized;

	if (!out)
		out = &local;
	memset(out, 0, sizeof(*out));
	if (!n || !width) {
		out->why = "no offsets measured";
		return 0;
	}
	penalized = malloc(n * sizeof(*penalized));
	if (!penalized) {
		out->why = "out of memory";
		return 0;
	}
	out->baseline = low_decile(medians, n);
	if (out->baseline <= 0) {
		free(penalized);
		out->why = "out of memory";
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		penalized[i] = medians[i] >=
			       out->baseline * CP_ALIGN_PENALTY_THRESHOLD;
		out->penalized += penalized[i];
	}
	if (!out->penalized)
		out->why = "no offset pays a penalty";
	else
		out->line_bytes = choose(offsets, penalized, n, width, out);
	free(penalized);
	return out->line_bytes;
}
