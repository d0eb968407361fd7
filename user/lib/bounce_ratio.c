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

/* The median of @n values drawn with replacement from @values. */
static double resampled_median(struct cp_rng *rng, const double *values,
			       size_t n, double *scratch)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = values[cp_rng_below(rng, n)];
	qsort(scratch, n, sizeof(*scratch), compare_doubles);
	return cp_stats_percentile_sorted(scratch, n, 0.5);
}

int cp_bounce_ratio(const double *a, size_t na, const double *b, size_t nb,
		    struct cp_bounce_ratio *out)
{
	double *ratios, *scratch;
	struct cp_rng rng;
	double median_b;

	if (!na || !nb)
		return -EINVAL;
	median_b = cp_stats_median(b, nb);
	if (median_b <= 0 || cp_stats_median(a, na) <= 0)
		return -EINVAL;
	out->value = cp_stats_median(a, na) / median_b;
	ratios = malloc(CP_BOOTSTRAP_RESAMPLES * sizeof(*ratios));
	scratch = malloc((na > nb ? na : nb) * sizeof(*scratch));
	if (!ratios || !scratch) {
		free(ratios);
		free(scratch);
		return -ENOMEM;
	}
	cp_rng_seed(&rng, CP_BOOTSTRAP_SEED);
	for (unsigned int r = 0; r < CP_BOOTSTRAP_RESAMPLES; r++) {
		double top = resampled_median(&rng, a, na, scratch);
		double bottom = resampled_median(&rng, b, nb, scratch);

		/* A resample can hold only values at or below 0 (a noisy
		 * floor subtraction): no finite ratio, count it as 0. */
		ratios[r] = bottom > 0 ? top / bottom : 0;
	}
	qsort(ratios, CP_BOOTSTRAP_RESAMPLES, sizeof(*ratios), compare_doubles);
	out->low = cp_stats_percentile_sorted(ratios, CP_BOOTSTRAP_RESAMPLES,
					      0.025);
	out->high = cp_stats_percentile_sorted(ratios, CP_BOOTSTRAP_RESAMPLES,
					       0.975);
	free(ratios);
	free(scratch);
	return 0;
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
