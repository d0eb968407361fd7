// SPDX-License-Identifier: GPL-2.0
#include "evict/coldcache_lines.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

void cp_lines_timed_pass(void ***position, size_t nr_lines, uint16_t *ticks)
{
	void **p = *position;
	__u64 dither = (uintptr_t)p | 1;

	for (size_t i = 0; i < nr_lines; i++) {
		uint64_t before, after;

		cp_dither_wait(&dither);
		before = cp_lines_fenced_tsc();
		p = *p;
		after = cp_lines_fenced_tsc();
		ticks[i] = cp_lines_clamp_step(after - before);
	}
	*position = p;
}

/* Kept out of line so the floor loop is the pass loop minus the load. */
__attribute__((noinline)) void cp_lines_timer_steps(uint16_t *ticks, size_t n)
{
	__u64 dither = (uintptr_t)ticks | 1;

	for (size_t i = 0; i < n; i++) {
		uint64_t before, after;

		cp_dither_wait(&dither);
		before = cp_lines_fenced_tsc();
		after = cp_lines_fenced_tsc();
		ticks[i] = cp_lines_clamp_step(after - before);
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

void cp_line_pass_init(struct cp_line_pass *pass)
{
	*pass = (struct cp_line_pass){ .median = -1 };
}

int cp_line_pass_offer(struct cp_line_pass *pass, const uint16_t *steps,
		       size_t n, double floor)
{
	double *latencies = malloc((n ? n : 1) * sizeof(*latencies));
	double median;

	if (!latencies)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		latencies[i] = fmax(0, (double)steps[i] - floor);
	median = n ? cp_stats_median(latencies, n) : 0;
	if (pass->median >= 0 && median >= pass->median) {
		free(latencies);
		return 0;
	}
	free(pass->latencies);
	pass->median = median;
	pass->latencies = latencies;
	pass->nr = n;
	return 0;
}

void cp_line_pass_free(struct cp_line_pass *pass)
{
	free(pass->latencies);
	cp_line_pass_init(pass);
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

/* The last level of the group @index is in. */
static size_t group_end(const struct cp_line_levels *levels, size_t index)
{
	while (levels->merged[index] && index + 1 < levels->nr)
		index++;
	return index;
}

/* Whether level @k is in the last group (memory's). */
static bool in_last_group(const struct cp_line_levels *levels, size_t k)
{
	return group_end(levels, k) + 1 == levels->nr;
}

/* How @pass reads with @levels' thresholds: lines in level @k itself,
 * and of the lines read in a cache (outside memory's group), those in
 * @k's group and in groups inside and outside it. */
struct misreads {
	size_t own, cached, group, inward, outward;
};

static struct misreads read_pass(const struct cp_line_levels *levels,
				 size_t k, const struct cp_line_pass *pass)
{
	size_t end = group_end(levels, k);
	size_t first = cp_line_levels_group_first(levels, end);
	struct misreads read = { 0 };

	for (size_t i = 0; i < pass->nr; i++) {
		size_t level = level_of(levels, pass->latencies[i]);

		read.own += level == k;
		if (in_last_group(levels, level))
			continue;
		read.cached++;
		if (level < first)
			read.inward++;
		else if (level > end)
			read.outward++;
		else
			read.group++;
	}
	return read;
}

/* Merge level @k's group with the neighbouring cache group that most of
 * its misread lines went to.  False when there is none to merge with. */
static bool merge_toward(struct cp_line_levels *levels, size_t k,
			 const struct misreads *read)
{
	size_t end = group_end(levels, k);
	size_t first = cp_line_levels_group_first(levels, end);
	bool outer_cache = !in_last_group(levels, end + 1);
	size_t at;

	if (outer_cache && (read->outward >= read->inward || first == 0))
		at = end;
	else if (first > 0)
		at = first - 1;
	else
		return false;
	levels->merged[at] = true;
	levels->merged_on_lines[at] = true;
	return true;
}

/* Whether level @k's own lines, those read in a cache, fall short of
 * CP_LINES_OWN_SHARE in its group. */
static bool misread(const struct cp_line_levels *levels, size_t k,
		    const struct cp_line_pass *pass, struct misreads *read)
{
	if (!pass->nr || in_last_group(levels, k))
		return false;
	*read = read_pass(levels, k, pass);
	return read->cached &&
	       (double)read->group < CP_LINES_OWN_SHARE * (double)read->cached;
}

size_t cp_line_levels_merge_misread(struct cp_line_levels *levels,
				    const struct cp_line_pass *passes)
{
	size_t merges = 0;
	bool merged;

	do {
		merged = false;
		for (size_t k = 0; k < levels->nr && !merged; k++) {
			struct misreads read;

			if (misread(levels, k, &passes[k], &read) &&
			    merge_toward(levels, k, &read)) {
				merged = true;
				merges++;
			}
		}
	} while (merged);
	for (size_t k = 0; k < levels->nr; k++)
		levels->own_share[k] =
			passes[k].nr ? (double)read_pass(levels, k, &passes[k]).own /
					       (double)passes[k].nr
				     : -1;
	return merges;
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
