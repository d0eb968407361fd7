// SPDX-License-Identifier: GPL-2.0
#include "bounce_ratio.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "rng.h"
#include "stats.h"

static int compare_doubles(const void *a, const void *b)
{
	double left = *(const double *)a, right = *(const double *)b;

	return (left > right) - (left < right);
}

/*
 * The resamples' medians come from counts over sorted copies (O(n) a
 * resample): a sort per resample made the align area's ratios take half
 * a second, which an interrupted run had to wait for before it could
 * write what it had.
 */
static void bootstrap_ratios(const double *sorted_a, size_t na,
			     const double *sorted_b, size_t nb,
			     uint32_t *counts, double *ratios)
{
	struct cp_rng rng;

	cp_rng_seed(&rng, CP_BOOTSTRAP_SEED);
	for (unsigned int r = 0; r < CP_BOOTSTRAP_RESAMPLES; r++) {
		double top = cp_stats_resample_median(sorted_a, counts, na,
						      &rng);
		double bottom = cp_stats_resample_median(sorted_b, counts, nb,
							 &rng);

		/* A resample can hold only values at or below 0 (a noisy
		 * floor subtraction): no finite ratio, count it as 0. */
		ratios[r] = bottom > 0 ? top / bottom : 0;
	}
}

int cp_bounce_ratio_value(const double *a, size_t na, const double *b,
			  size_t nb, double *value)
{
	double median_a, median_b;

	if (!na || !nb)
		return -EINVAL;
	median_a = cp_stats_median(a, na);
	median_b = cp_stats_median(b, nb);
	if (median_a <= 0 || median_b <= 0)
		return -EINVAL;
	*value = median_a / median_b;
	return 0;
}

int cp_bounce_ratio(const double *a, size_t na, const double *b, size_t nb,
		    struct cp_bounce_ratio *out)
{
	double *ratios, *sorted_a, *sorted_b;
	uint32_t *counts;
	int ret = cp_bounce_ratio_value(a, na, b, nb, &out->value);

	if (ret)
		return ret;
	ratios = malloc(CP_BOOTSTRAP_RESAMPLES * sizeof(*ratios));
	counts = malloc((na > nb ? na : nb) * sizeof(*counts));
	sorted_a = cp_stats_sorted_copy(a, na);
	sorted_b = cp_stats_sorted_copy(b, nb);
	if (ratios && counts && sorted_a && sorted_b) {
		bootstrap_ratios(sorted_a, na, sorted_b, nb, counts, ratios);
		qsort(ratios, CP_BOOTSTRAP_RESAMPLES, sizeof(*ratios),
		      compare_doubles);
		out->low = cp_stats_percentile_sorted(
			ratios, CP_BOOTSTRAP_RESAMPLES, 0.025);
		out->high = cp_stats_percentile_sorted(
			ratios, CP_BOOTSTRAP_RESAMPLES, 0.975);
	} else {
		ret = -ENOMEM;
	}
	free(ratios);
	free(counts);
	free(sorted_a);
	free(sorted_b);
	return ret;
}

double cp_bounce_threshold(const uint32_t *distances, const double *slowdowns,
			   size_t n)
{
	double in_line = 0, half_way;
	uint32_t closest = UINT32_MAX;

	for (size_t i = 0; i < n; i++)
		if (distances[i] > 0 && distances[i] < closest) {
			closest = distances[i];
			in_line = slowdowns[i];
		}
	half_way = 1 + (in_line - 1) / 2;
	return half_way > CP_BOUNCE_NO_SLOWDOWN ? half_way
						 : CP_BOUNCE_NO_SLOWDOWN;
}

uint32_t cp_bounce_granularity(const uint32_t *distances,
			       const double *slowdowns, size_t n,
			       double threshold)
{
	uint32_t best = 0;

	for (size_t i = 0; i < n; i++) {
		bool clear = distances[i] > 0;

		/* Free of bouncing here and at every larger distance. */
		for (size_t k = 0; k < n && clear; k++)
			if (distances[k] >= distances[i] &&
			    slowdowns[k] >= threshold)
				clear = false;
		if (clear && (!best || distances[i] < best))
			best = distances[i];
	}
	return best;
}

double cp_bounce_fastest(const double *ticks, size_t n)
{
	double fastest = n ? ticks[0] : 0;

	for (size_t i = 1; i < n; i++)
		if (ticks[i] < fastest)
			fastest = ticks[i];
	return fastest;
}

bool cp_bounce_quiet(double ticks, double fastest)
{
	return ticks <= fastest * (1 + CP_BOUNCE_QUIET_MARGIN);
}

void cp_bounce_quiet_add(struct cp_bounce_quiet_count *count,
			 const double *ticks, size_t n)
{
	double latest = ticks[n - 1];

	if (n == 1 || latest < count->fastest) {
		count->fastest = latest;
		count->quiet = cp_bounce_count_quiet(ticks, n);
	} else if (cp_bounce_quiet(latest, count->fastest)) {
		count->quiet++;
	}
}

size_t cp_bounce_count_quiet(const double *ticks, size_t n)
{
	double fastest = cp_bounce_fastest(ticks, n);
	size_t quiet = 0;

	for (size_t i = 0; i < n; i++)
		quiet += cp_bounce_quiet(ticks[i], fastest);
	return quiet;
}
