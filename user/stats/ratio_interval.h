/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How much slower one set of timings is than another, with an interval
 * that needs no model of their distribution: the n*m ratios new/base of
 * every pair of samples, their median (the Hodges-Lehmann estimate, on
 * the log scale) and the order statistics that bound it (Moses), with the
 * rank from the normal approximation of the Mann-Whitney U statistic.
 * The interval excludes 1 exactly when that U test rejects "no change"
 * at the same level, so a verdict from the interval and one from the test
 * cannot disagree.
 */
#ifndef CACHEPROBE_RATIO_INTERVAL_H
#define CACHEPROBE_RATIO_INTERVAL_H

#include <stddef.h>

struct cp_ratio_interval {
	double estimate;	/* median of the pairwise ratios */
	double low, high;	/* 0 and +inf when too few samples */
};

/* The two-sided standard normal quantile for @confidence (0.95 -> 1.96). */
double cp_normal_quantile_two_sided(double confidence);

/*
 * The interval at @z (cp_normal_quantile_two_sided) of new/base from
 * @base (@n) and @next (@m), every sample above zero.  0; -EINVAL for an
 * empty set; -EDOM when a sample is not above zero (no ratio);
 * -ENOMEM.
 */
int cp_ratio_interval(const double *base, size_t n, const double *next,
		      size_t m, double z, struct cp_ratio_interval *out);

#endif
