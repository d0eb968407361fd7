/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Mann-Whitney U test (Wilcoxon rank-sum): do two sets of samples come
 * from the same distribution?  No normality assumed, which suits timings
 * with their long right tails.
 *
 * Exact two-sided p-value when there are no ties and both sets have at
 * most CP_MW_EXACT_MAX samples; otherwise the normal approximation with
 * the tie correction and a continuity correction of 0.5.
 */
#ifndef CACHEPROBE_MANN_WHITNEY_H
#define CACHEPROBE_MANN_WHITNEY_H

#include <stdbool.h>
#include <stddef.h>

#define CP_MW_EXACT_MAX 50

struct cp_mann_whitney {
	double u_first;		/* U of the first set: pairs where it is larger */
	double u_second;
	double z;		/* 0 when the exact test was used */
	double p_value;		/* two-sided */
	bool exact;
};

/* 0, or -EINVAL for an empty set, -ENOMEM. */
int cp_mann_whitney(const double *first, size_t n_first, const double *second,
		    size_t n_second, struct cp_mann_whitney *out);

#endif
