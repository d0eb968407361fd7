/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summary statistics of one measurement's samples.
 *
 * Percentiles interpolate linearly between order statistics (position
 * p*(n-1), the common "type 7" definition); the standard deviation is the
 * sample one (n-1); the interval of the median is a percentile bootstrap
 * with a fixed seed, so a result file can be recomputed exactly.
 */
#ifndef CACHEPROBE_STATS_H
#define CACHEPROBE_STATS_H

#include <stddef.h>
#include <stdint.h>

struct cp_rng;

#define CP_BOOTSTRAP_RESAMPLES 2000
#define CP_BOOTSTRAP_SEED 0x63616368ull	/* "cach" */

enum cp_outlier {
	CP_OUTLIER_NONE,
	CP_OUTLIER_MILD,	/* beyond 1.5 IQR from the quartiles */
	CP_OUTLIER_EXTREME,	/* beyond 3 IQR */
};

struct cp_stats {
	size_t count;
	double median, mean, stddev, min, max;
	double p5, p25, p75, p95;
	double cv;			/* stddev / mean; 0 when mean is 0 */
	double median_ci_low, median_ci_high;	/* bootstrap 95 % */
	size_t mild_outliers, extreme_outliers;
};

/* The median of @n values (@n > 0), without changing them. */
double cp_stats_median(const double *values, size_t n);

/* A malloc'ed copy of @values in ascending order, or NULL. */
double *cp_stats_sorted_copy(const double *values, size_t n);

/* Percentile @fraction (0..1) of @sorted, ascending, @n > 0. */
double cp_stats_percentile_sorted(const double *sorted, size_t n,
				  double fraction);

/* Bootstrap 95 % interval of the median with @resamples and @seed: 0,
 * -EINVAL (no values or no resamples) or -ENOMEM. */
int cp_stats_median_interval(const double *values, size_t n,
			     unsigned int resamples, uint64_t seed,
			     double *low, double *high);

/* The median of one bootstrap resample (@n draws from @rng, with
 * replacement) of @sorted, ascending, in O(n); @counts holds @n. */
double cp_stats_resample_median(const double *sorted, uint32_t *counts,
				size_t n, struct cp_rng *rng);

/* Tukey's fences around quartiles @p25, @p75. */
enum cp_outlier cp_stats_classify(double value, double p25, double p75);
const char *cp_outlier_name(enum cp_outlier outlier);

/* Everything above; 0, or -EINVAL for no samples, -ENOMEM. */
int cp_stats_compute(const double *values, size_t n, struct cp_stats *out);

/*
 * The same for samples taken in rounds of @per_round (harness/rounds.h): the
 * interval is that of the median of the rounds' medians, a bootstrap over
 * rounds, so it covers what changes from one round's arrangement to the
 * next.  With @per_round 0 or fewer than two rounds, cp_stats_compute.
 */
int cp_stats_compute_rounds(const double *values, size_t n,
			    unsigned int per_round, struct cp_stats *out);

/* The same without the bootstrap interval of the median (NaN): a
 * thousandth of the work, for readers of many measurements that do not
 * show it. */
int cp_stats_summarize(const double *values, size_t n, struct cp_stats *out);

#endif
