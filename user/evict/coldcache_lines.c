// SPDX-License-Identifier: GPL-2.0
#include "evict/coldcache_lines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

uint64_t cp_lines_timed_pass(void ***position, size_t nr_lines,
			     uint16_t *ticks)
{
	void **p = *position;
	uint64_t first = cp_lines_fenced_tsc(), previous = first, now = first;

	for (size_t i = 0; i < nr_lines; i++) {
		p = *p;
		now = cp_lines_fenced_tsc();
		ticks[i] = cp_lines_clamp_step(now - previous);
		previous = now;
	}
	*position = p;
	return now - first;
}

/* Kept out of line so the floor loop is the pass loop minus the load. */
__attribute__((noinline)) void cp_lines_timer_steps(uint16_t *ticks, size_t n)
{
	uint64_t previous = cp_lines_fenced_tsc();

	for (size_t i = 0; i < n; i++) {
		uint64_t now = cp_lines_fenced_tsc();

		ticks[i] = cp_lines_clamp_step(now - previous);
		previous = now;
	}
}

void cp_lines_floor_of(const uint16_t *steps, size_t n,
		       struct cp_timer_floor *out)
{
	double *values = malloc(n * sizeof(*values));
	struct cp_stats stats;

	memset(out, 0, sizeof(*out));
	out->spread = 1;
	if (!values || !n) {
		free(values);
		return;
	}
	for (size_t i = 0; i < n; i++)
		values[i] = steps[i];
	if (!cp_stats_summarize(values, n, &stats)) {
		out->median = stats.median;
		out->spread = fmax(1, stats.p95 - stats.p5);
	}
	free(values);
}

double cp_lines_median_above(const uint16_t *steps, size_t n, double floor)
{
	double *values = malloc(n * sizeof(*values)), median;

	if (!values)
		return -1;
	for (size_t i = 0; i < n; i++)
		values[i] = (double)steps[i] - floor;
	median = cp_stats_median(values, n);
	free(values);
	return median < 0 ? 0 : median;
}

void cp_lines_timer_floor(uint16_t *scratch, size_t nr_probes,
			  struct cp_timer_floor *out)
{
	cp_lines_timer_steps(scratch, nr_probes);
	cp_lines_floor_of(scratch, nr_probes, out);
}

void cp_line_levels_thresholds_padded(struct cp_line_levels *levels,
				      double pad)
{
	for (size_t k = 0; k < levels->nr; k++)
		levels->threshold_ticks[k] =
			k + 1 < levels->nr
				? sqrt(fmax(1, levels->plateau_ticks[k] + pad) *
				       fmax(1, levels->plateau_ticks[k + 1]))
				: 0;
}

void cp_line_levels_thresholds(struct cp_line_levels *levels)
{
	cp_line_levels_thresholds_padded(levels, 0);
}

size_t cp_line_levels_merge(struct cp_line_levels *levels, double spread)
{
	size_t merges = 0;

	/* Outermost first: a level is compared with the group outside it
	 * as merged, represented by that group's outermost plateau. */
	for (size_t k = levels->nr - 1; k-- > 0;) {
		size_t group_end = k + 1;
		double inner = levels->plateau_ticks[k], outer;

		while (group_end + 1 < levels->nr && levels->merged[group_end])
			group_end++;
		outer = levels->plateau_ticks[group_end];

		if (outer - inner < 2 * spread ||
		    outer < CP_COLDCACHE_MIN_STEP * inner) {
			levels->merged[k] = true;
			merges++;
		}
	}
	return merges;
}

size_t cp_line_levels_group_first(const struct cp_line_levels *levels,
				  size_t index)
{
	while (index > 0 && levels->merged[index - 1])
		index--;
	return index;
}

void cp_line_levels_group_name(const struct cp_line_levels *levels,
			       size_t index, char *out, size_t len)
{
	size_t first = cp_line_levels_group_first(levels, index);
	size_t used = 0;

	out[0] = '\0';
	for (size_t k = first; k <= index && used < len; k++)
		used += (size_t)snprintf(out + used, len - used, "%s%s",
					 k > first ? "+" : "",
					 levels->names[k]);
}

/* The level a latency belongs to, before merging. */
static size_t level_of(const struct cp_line_levels *levels, double latency)
{
	for (size_t k = 0; k + 1 < levels->nr; k++)
		if (latency <= levels->threshold_ticks[k])
			return k;
	return levels->nr - 1;
}

double cp_lines_classify(const uint16_t *ticks, size_t n, double floor,
			 const struct cp_line_levels *levels, size_t *counts)
{
	double total = 0;

	memset(counts, 0, levels->nr * sizeof(*counts));
	if (!levels->nr)
		return 0;
	for (size_t i = 0; i < n; i++) {
		double latency = fmax(0, (double)ticks[i] - floor);
		size_t k = level_of(levels, latency);

		while (levels->merged[k] && k + 1 < levels->nr)
			k++;
		counts[k]++;
		total += latency;
	}
	return total;
}

size_t cp_lines_before_interruption(const uint16_t *ticks, size_t n,
				    double threshold)
{
	for (size_t i = 0; i < n; i++)
		if ((double)ticks[i] > threshold)
			return i;
	return n;
}
