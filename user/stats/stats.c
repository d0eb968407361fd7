// SPDX-License-Identifier: GPL-2.0
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness/rng.h"
#include "harness/rounds.h"

static int compare_doubles(const void *a, const void *b)
{
	double left = *(const double *)a, right = *(const double *)b;

	return (left > right) - (left < right);
}

double *cp_stats_sorted_copy(const double *values, size_t n)
{
	double *copy = malloc(n * sizeof(*copy));

	if (copy) {
		memcpy(copy, values, n * sizeof(*copy));
		qsort(copy, n, sizeof(*copy), compare_doubles);
	}
	return copy;
}

double cp_stats_percentile_sorted(const double *sorted, size_t n,
				  double fraction)
{
	double position = fraction * (double)(n - 1);
	size_t below = (size_t)floor(position);
	double weight = position - (double)below;

	if (below + 1 >= n)
		return sorted[n - 1];
	return sorted[below] + weight * (sorted[below + 1] - sorted[below]);
}

double cp_stats_median(const double *values, size_t n)
{
	double *sorted = cp_stats_sorted_copy(values, n);
	double median;

	if (!sorted)
		abort();
	median = cp_stats_percentile_sorted(sorted, n, 0.5);
	free(sorted);
	return median;
}

/* The @k-th smallest (from 0) of a resample given as @counts of each
 * index into @sorted. */
static double kth_of_counts(const double *sorted, const uint32_t *counts,
			    size_t n, size_t k)
{
	size_t seen = 0;

	for (size_t i = 0; i < n; i++) {
		seen += counts[i];
		if (seen > k)
			return sorted[i];
	}
	return sorted[n - 1];
}

/* The median of one resample of @sorted, as cp_stats_percentile_sorted
 * takes it, in O(n): a resample is @n indices drawn into the sorted
 * values, so counting them orders it without a sort (a sort per resample
 * took a second for 4000 samples). */
double cp_stats_resample_median(const double *sorted, uint32_t *counts,
				size_t n, struct cp_rng *rng)
{
	double position = 0.5 * (double)(n - 1);
	size_t below = (size_t)floor(position);
	double weight = position - (double)below;
	double low;

	memset(counts, 0, n * sizeof(*counts));
	for (size_t i = 0; i < n; i++)
		counts[cp_rng_below(rng, n)]++;
	low = kth_of_counts(sorted, counts, n, below);
	if (weight == 0 || below + 1 >= n)
		return low;
	return low + weight * (kth_of_counts(sorted, counts, n, below + 1) -
			       low);
}

/* The interval from values already sorted (n and resamples above 0). */
static int median_interval_sorted(const double *sorted, size_t n,
				  unsigned int resamples, uint64_t seed,
				  double *low, double *high)
{
	double *medians = malloc(resamples * sizeof(*medians));
	uint32_t *counts = malloc(n * sizeof(*counts));
	struct cp_rng rng;

	if (!medians || !counts) {
		free(medians);
		free(counts);
		return -ENOMEM;
	}
	cp_rng_seed(&rng, seed);
	for (unsigned int r = 0; r < resamples; r++)
		medians[r] = cp_stats_resample_median(sorted, counts, n, &rng);
	qsort(medians, resamples, sizeof(*medians), compare_doubles);
	*low = cp_stats_percentile_sorted(medians, resamples, 0.025);
	*high = cp_stats_percentile_sorted(medians, resamples, 0.975);
	free(medians);
	free(counts);
	return 0;
}

int cp_stats_median_interval(const double *values, size_t n,
			     unsigned int resamples, uint64_t seed,
			     double *low, double *high)
{
	double *sorted;
	int ret;

	if (!n || !resamples)
		return -EINVAL;
	sorted = cp_stats_sorted_copy(values, n);
	if (!sorted)
		return -ENOMEM;
	ret = median_interval_sorted(sorted, n, resamples, seed, low, high);
	free(sorted);
	return ret;
}

enum cp_outlier cp_stats_classify(double value, double p25, double p75)
{
	double iqr = p75 - p25;

	if (value < p25 - 3 * iqr || value > p75 + 3 * iqr)
		return CP_OUTLIER_EXTREME;
	if (value < p25 - 1.5 * iqr || value > p75 + 1.5 * iqr)
		return CP_OUTLIER_MILD;
	return CP_OUTLIER_NONE;
}

const char *cp_outlier_name(enum cp_outlier outlier)
{
	static const char *const names[] = {
		[CP_OUTLIER_NONE] = "none",
		[CP_OUTLIER_MILD] = "mild",
		[CP_OUTLIER_EXTREME] = "extreme",
	};

	return names[outlier];
}

static void moments(const double *values, size_t n, struct cp_stats *out)
{
	double sum = 0, squares = 0;

	for (size_t i = 0; i < n; i++)
		sum += values[i];
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		squares += (values[i] - out->mean) * (values[i] - out->mean);
	out->stddev = n > 1 ? sqrt(squares / (double)(n - 1)) : 0;
	out->cv = out->mean != 0 ? out->stddev / fabs(out->mean) : 0;
}

static void order_statistics(const double *sorted, size_t n,
			     struct cp_stats *out)
{
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = cp_stats_percentile_sorted(sorted, n, 0.5);
	out->p5 = cp_stats_percentile_sorted(sorted, n, 0.05);
	out->p25 = cp_stats_percentile_sorted(sorted, n, 0.25);
	out->p75 = cp_stats_percentile_sorted(sorted, n, 0.75);
	out->p95 = cp_stats_percentile_sorted(sorted, n, 0.95);
	for (size_t i = 0; i < n; i++) {
		enum cp_outlier kind =
			cp_stats_classify(sorted[i], out->p25, out->p75);

		out->mild_outliers += kind == CP_OUTLIER_MILD;
		out->extreme_outliers += kind == CP_OUTLIER_EXTREME;
	}
}

/* Everything but the interval, from @sorted. */
static void summarize_sorted(const double *values, const double *sorted,
			     size_t n, struct cp_stats *out)
{
	out->count = n;
	moments(values, n, out);
	order_statistics(sorted, n, out);
	out->median_ci_low = NAN;
	out->median_ci_high = NAN;
}

/* The statistics of @values, the bootstrap interval of the median only
 * @with_interval. */
static int describe(const double *values, size_t n, bool with_interval,
		    struct cp_stats *out)
{
	double *sorted;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -EINVAL;
	sorted = cp_stats_sorted_copy(values, n);
	if (!sorted)
		return -ENOMEM;
	summarize_sorted(values, sorted, n, out);
	if (with_interval)
		ret = median_interval_sorted(sorted, n, CP_BOOTSTRAP_RESAMPLES,
					     CP_BOOTSTRAP_SEED,
					     &out->median_ci_low,
					     &out->median_ci_high);
	free(sorted);
	return ret;
}

int cp_stats_summarize(const double *values, size_t n, struct cp_stats *out)
{
	return describe(values, n, false, out);
}

int cp_stats_compute(const double *values, size_t n, struct cp_stats *out)
{
	return describe(values, n, true, out);
}

int cp_stats_compute_rounds(const double *values, size_t n,
			    unsigned int per_round, struct cp_stats *out)
{
	size_t rounds = cp_rounds_count(n, per_round);
	double *medians;
	int ret;

	if (rounds < 2)
		return cp_stats_compute(values, n, out);
	ret = cp_stats_summarize(values, n, out);
	medians = malloc(rounds * sizeof(*medians));
	if (!ret && !medians)
		ret = -ENOMEM;
	if (!ret) {
		cp_rounds_medians(values, n, per_round, medians);
		ret = cp_stats_median_interval(medians, rounds,
					       CP_BOOTSTRAP_RESAMPLES,
					       CP_BOOTSTRAP_SEED,
					       &out->median_ci_low,
					       &out->median_ci_high);
	}
	free(medians);
	return ret;
}
