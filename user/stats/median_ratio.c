// SPDX-License-Identifier: GPL-2.0
#include "stats/median_ratio.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness/rng.h"
#include "stats/stats.h"

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

int cp_ratio_of_medians_value(const double *a, size_t na, const double *b,
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

int cp_ratio_of_medians(const double *a, size_t na, const double *b,
			size_t nb, struct cp_ratio *out)
{
	double *ratios, *sorted_a, *sorted_b;
	uint32_t *counts;
	int ret = cp_ratio_of_medians_value(a, na, b, nb, &out->value);

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
