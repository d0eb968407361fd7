// SPDX-License-Identifier: GPL-2.0
#include "areas/latency/latency_levels.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "stats/stats.h"

/* Points as far off the seed as this share do not belong to the plateau. */
#define PLATEAU_TOLERANCE 0.25
#define PLATEAU_SEED_POINTS 3
/* This many off points in a row end the plateau; fewer are noise. */
#define PLATEAU_END_MISSES 2

static bool near_seed(double ns, double seed)
{
	return fabs(ns / seed - 1) <= PLATEAU_TOLERANCE;
}

/* The indexes of points with size in [low, high] into @members, then
 * those forming the plateau; returns how many do. */
static size_t plateau_members(const struct cp_curve_point *points, size_t n,
			      uint64_t low, uint64_t high, size_t *members)
{
	double seed_values[PLATEAU_SEED_POINTS];
	size_t in_range = 0, count = 0, misses = 0, seeds = 0;
	double seed;

	for (size_t i = 0; i < n; i++)
		if (points[i].size_bytes >= low && points[i].size_bytes <= high)
			members[in_range++] = i;
	if (!in_range)
		return 0;
	while (seeds < in_range && seeds < PLATEAU_SEED_POINTS) {
		seed_values[seeds] = points[members[seeds]].ns;
		seeds++;
	}
	seed = cp_stats_median(seed_values, seeds);
	for (size_t i = 0; i < in_range && misses < PLATEAU_END_MISSES; i++) {
		if (near_seed(points[members[i]].ns, seed)) {
			members[count++] = members[i];
			misses = 0;
		} else {
			misses++;
		}
	}
	/* Seed points all far apart: the smallest size is the best guess. */
	return count ? count : 1;
}

/* The plateau's medians of ns, ticks and cycles; 0 when no size is in
 * [low, high]. */
static size_t plateau(const struct cp_curve_point *points, size_t n,
		      uint64_t low, uint64_t high,
		      struct cp_level_estimate *level)
{
	size_t members[n ? n : 1];
	double ns[n ? n : 1], ticks[n ? n : 1], cycles[n ? n : 1];
	size_t count = plateau_members(points, n, low, high, members);
	size_t with_cycles = 0;

	for (size_t i = 0; i < count; i++) {
		const struct cp_curve_point *point = &points[members[i]];

		ns[i] = point->ns;
		ticks[i] = point->ticks;
		if (point->cycles > 0)
			cycles[with_cycles++] = point->cycles;
	}
	if (count) {
		level->latency_ns = cp_stats_median(ns, count);
		level->latency_ticks = cp_stats_median(ticks, count);
		level->latency_cycles =
			with_cycles == count ? cp_stats_median(cycles, count)
					     : 0;
	}
	return count;
}

static size_t cache_plateaus(const struct cp_curve_point *points, size_t n,
			     const struct cp_nominal_level *nominal,
			     size_t nr_nominal,
			     struct cp_level_estimate *levels)
{
	size_t found = 0;

	for (size_t k = 0; k < nr_nominal && found < CP_MAX_LEVELS - 1; k++) {
		struct cp_level_estimate *level = &levels[found];
		uint64_t low = k ? 2 * nominal[k - 1].size_bytes : 0;
		uint64_t high = nominal[k].size_bytes / 2;

		memset(level, 0, sizeof(*level));
		if (!plateau(points, n, low, high, level))
			continue;
		if (found && level->latency_ns <
				     CP_LEVEL_MIN_STEP * levels[found - 1].latency_ns)
			continue;
		snprintf(level->name, sizeof(level->name), "%s",
			 nominal[k].name);
		level->nominal_bytes = nominal[k].size_bytes;
		found++;
	}
	return found;
}

static size_t memory_plateau(const struct cp_curve_point *points, size_t n,
			     struct cp_level_estimate *levels, size_t found)
{
	struct cp_level_estimate *level = &levels[found];
	uint64_t largest = points[n - 1].size_bytes;

	memset(level, 0, sizeof(*level));
	if (!plateau(points, n, largest / 2 + 1, largest, level))
		return found;
	if (found && level->latency_ns <
			     CP_LEVEL_MIN_STEP * levels[found - 1].latency_ns)
		return found;
	snprintf(level->name, sizeof(level->name), "memory");
	return found + 1;
}

static bool above(const struct cp_curve_point *points, size_t n, size_t i,
		  double threshold)
{
	return i >= n || points[i].ns > threshold;
}

/*
 * The largest size before the curve rises past @threshold for good: the
 * first point above it whose successor is above it too (a lone spike is
 * noise, e.g. another tenant's burst), from the first point below it on.
 */
static uint64_t effective_capacity(const struct cp_curve_point *points,
				   size_t n, double threshold)
{
	uint64_t effective = 0;

	for (size_t i = 0; i < n; i++) {
		if (points[i].ns <= threshold) {
			effective = points[i].size_bytes;
			continue;
		}
		if (effective && above(points, n, i + 1, threshold))
			break;
	}
	return effective;
}

/* Thresholds and effective capacities of every level but the last. */
static void boundaries(const struct cp_curve_point *points, size_t n,
		       struct cp_level_estimate *levels, size_t found)
{
	for (size_t k = 0; k + 1 < found; k++) {
		struct cp_level_estimate *level = &levels[k];

		level->threshold_ns =
			sqrt(level->latency_ns * levels[k + 1].latency_ns);
		level->effective_bytes =
			effective_capacity(points, n, level->threshold_ns);
	}
}

size_t cp_latency_levels(const struct cp_curve_point *points, size_t nr_points,
			 const struct cp_nominal_level *nominal,
			 size_t nr_nominal, struct cp_level_estimate *levels)
{
	size_t found;

	if (!nr_points)
		return 0;
	found = cache_plateaus(points, nr_points, nominal, nr_nominal, levels);
	found = memory_plateau(points, nr_points, levels, found);
	boundaries(points, nr_points, levels, found);
	return found;
}

int cp_latency_classify(const struct cp_level_estimate *levels,
			size_t nr_levels, double ns)
{
	if (!nr_levels)
		return -1;
	for (size_t k = 0; k + 1 < nr_levels; k++)
		if (ns <= levels[k].threshold_ns)
			return (int)k;
	return (int)nr_levels - 1;
}
