// SPDX-License-Identifier: GPL-2.0
#include "areas/bounce/bounce_granularity.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static bool measured(const struct cp_bounce_ratio *slowdown)
{
	return slowdown->value > 0;
}

/* The index of the smallest measured distance above 0, or @n. */
static size_t in_line(const uint32_t *distances,
		      const struct cp_bounce_ratio *slowdowns, size_t n)
{
	size_t closest = n;

	for (size_t i = 0; i < n; i++)
		if (distances[i] > 0 && measured(&slowdowns[i]) &&
		    (closest == n || distances[i] < distances[closest]))
			closest = i;
	return closest;
}

double cp_bounce_threshold(const uint32_t *distances,
			   const struct cp_bounce_ratio *slowdowns, size_t n)
{
	size_t closest = in_line(distances, slowdowns, n);

	if (closest == n)
		return 1;
	return 1 + (slowdowns[closest].value - 1) / 2;
}

uint32_t cp_bounce_granularity(const uint32_t *distances,
			       const struct cp_bounce_ratio *slowdowns,
			       size_t n, double threshold)
{
	uint32_t best = 0;

	for (size_t i = 0; i < n; i++) {
		bool clear = distances[i] > 0 && measured(&slowdowns[i]);

		/* Free of bouncing here and at every larger distance. */
		for (size_t k = 0; k < n && clear; k++)
			if (distances[k] >= distances[i] &&
			    measured(&slowdowns[k]) &&
			    slowdowns[k].value >= threshold)
				clear = false;
		if (clear && (!best || distances[i] < best))
			best = distances[i];
	}
	return best;
}

/* The run's noise: the highest interval end of the distances not slowed
 * down, among them the padded reference against itself; at least 1. */
static double noise_of(const struct cp_bounce_ratio *slowdowns, size_t n,
		       double threshold)
{
	double noise = 1;

	for (size_t i = 0; i < n; i++)
		if (measured(&slowdowns[i]) &&
		    slowdowns[i].value < threshold &&
		    slowdowns[i].high > noise)
			noise = slowdowns[i].high;
	return noise;
}

void cp_bounce_decide(const uint32_t *distances,
		      const struct cp_bounce_ratio *slowdowns, size_t n,
		      struct cp_bounce_decision *out)
{
	size_t closest = in_line(distances, slowdowns, n);
	double threshold = cp_bounce_threshold(distances, slowdowns, n);
	const struct cp_bounce_ratio *same;

	memset(out, 0, sizeof(*out));
	out->verdict = CP_BOUNCE_UNDETERMINED;
	out->noise = noise_of(slowdowns, n, threshold);
	if (closest == n) {
		snprintf(out->reason, sizeof(out->reason),
			 "no slowdown against padded counters above 0 B");
		return;
	}
	same = &slowdowns[closest];
	out->in_line = distances[closest];
	if (same->low <= out->noise) {
		snprintf(out->reason, sizeof(out->reason),
			 "slowdown %.2f [%.2f, %.2f] at %" PRIu32 " B within the padded noise (<= %.2f)",
			 same->value, same->low, same->high,
			 distances[closest], out->noise);
		return;
	}
	out->granularity = cp_bounce_granularity(distances, slowdowns, n,
						 threshold);
	out->verdict = out->granularity ? CP_BOUNCE_FOUND
					: CP_BOUNCE_NEVER_FREE;
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
