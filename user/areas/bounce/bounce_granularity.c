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

static bool measured(const struct cp_ratio *slowdown)
{
	return slowdown->value > 0;
}

/* The index of the smallest measured distance above 0, or @n. */
static size_t in_line(const uint32_t *distances,
		      const struct cp_ratio *slowdowns, size_t n)
{
	size_t closest = n;

	for (size_t i = 0; i < n; i++)
		if (distances[i] > 0 && measured(&slowdowns[i]) &&
		    (closest == n || distances[i] < distances[closest]))
			closest = i;
	return closest;
}

double cp_bounce_threshold(const uint32_t *distances,
			   const struct cp_ratio *slowdowns, size_t n)
{
	size_t closest = in_line(distances, slowdowns, n);

	if (closest == n)
		return 1;
	return 1 + (slowdowns[closest].value - 1) / 2;
}

uint32_t cp_bounce_granularity(const uint32_t *distances,
			       const struct cp_ratio *slowdowns,
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
static double noise_of(const struct cp_ratio *slowdowns, size_t n,
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
		      const struct cp_ratio *slowdowns, size_t n,
		      struct cp_bounce_decision *out)
{
	size_t closest = in_line(distances, slowdowns, n);
	double threshold = cp_bounce_threshold(distances, slowdowns, n);
	const struct cp_ratio *same;

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
