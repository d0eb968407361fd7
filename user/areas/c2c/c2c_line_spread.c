// SPDX-License-Identifier: GPL-2.0
#include "areas/c2c/c2c_line_spread.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "areas/c2c/c2c_pingpong.h"
#include "stats/stats.h"

struct line {
	double median, noise;
};

static int compare_doubles(const void *a, const void *b)
{
	double left = *(const double *)a, right = *(const double *)b;

	return (left > right) - (left < right);
}

static int by_median(const void *a, const void *b)
{
	return compare_doubles(&((const struct line *)a)->median,
			       &((const struct line *)b)->median);
}

void cp_c2c_line_value(double *values, size_t n, double *median,
		       double *noise)
{
	double half = 0.98 * sqrt((double)n);
	/* Ranks (from 1) floor(n/2 - half) and ceil(1 + n/2 + half), within
	 * 1..n: few timings give the whole range. */
	double low = floor((double)n / 2 - half);
	double high = ceil(1 + (double)n / 2 + half);
	size_t lo = low < 1 ? 0 : (size_t)low - 1;
	size_t hi = high > (double)n ? n - 1 : (size_t)high - 1;

	qsort(values, n, sizeof(*values), compare_doubles);
	*median = cp_stats_percentile_sorted(values, n, 0.5);
	*noise = (values[hi] - values[lo]) / 2;
}

/* The typical line's noise: the median of the lines' noise. */
static double typical_noise(const struct line *lines, size_t n, double *work)
{
	for (size_t i = 0; i < n; i++)
		work[i] = lines[i].noise;
	qsort(work, n, sizeof(*work), compare_doubles);
	return cp_stats_percentile_sorted(work, n, 0.5);
}

/* Whether neighbours @a and @b (sorted) are apart by clearly more than
 * their noise, each at least @typical. */
static bool clear_gap(const struct line *a, const struct line *b,
		      double typical)
{
	return b->median - a->median >
	       CP_C2C_SPREAD_CLEAR *
		       (fmax(a->noise, typical) + fmax(b->noise, typical));
}

/*
 * The group boundaries of @lines (sorted by median) into @cuts, as
 * medians (a line at or above one is past it), ascending; how many.
 * Two passes: every line with its neighbour, so that a line far out
 * stands alone when it clears even its own wide noise; and the precise
 * lines only, each with the next precise one, so that a noisy line
 * between two groups cannot bridge them.  @cuts holds 2 * @n.
 */
static size_t find_cuts(const struct line *lines, size_t n, double typical,
			double *cuts)
{
	const struct line *previous = NULL;
	size_t k = 0, kept = 0;

	for (size_t i = 0; i + 1 < n; i++)
		if (clear_gap(&lines[i], &lines[i + 1], typical))
			cuts[k++] = (lines[i].median + lines[i + 1].median) / 2;
	for (size_t i = 0; i < n; i++) {
		const struct line *l = &lines[i];

		if (l->noise > CP_C2C_SPREAD_NOISY * typical)
			continue;
		if (previous && clear_gap(previous, l, typical))
			cuts[k++] = (previous->median + l->median) / 2;
		previous = l;
	}
	qsort(cuts, k, sizeof(*cuts), compare_doubles);
	for (size_t i = 0; i < k; i++)
		if (!kept || cuts[i] != cuts[kept - 1])
			cuts[kept++] = cuts[i];
	return kept;
}

/* The group of a line: how many of the @k cuts it is at or above. */
static size_t group_of(double median, const double *cuts, size_t k)
{
	size_t g = 0;

	while (g < k && median >= cuts[g])
		g++;
	return g;
}

/* The median of lines [@from, @to) of @lines, sorted by median. */
static double group_median(const struct line *lines, size_t from, size_t to,
			   double *work)
{
	for (size_t i = from; i < to; i++)
		work[i - from] = lines[i].median;
	return cp_stats_percentile_sorted(work, to - from, 0.5);
}

/* Groups are the cuts' intervals that hold a line: how many, and the
 * fastest and the slowest of them, into @out. */
static void fill_groups(const struct line *lines, size_t n, const double *cuts,
			size_t k, double *work, struct cp_c2c_line_spread *out)
{
	size_t first = group_of(lines[0].median, cuts, k);
	size_t last = group_of(lines[n - 1].median, cuts, k);
	size_t fast_end = 0, slow_start = n, previous = first;

	out->groups = 1;
	for (size_t i = 0; i < n; i++) {
		size_t g = group_of(lines[i].median, cuts, k);

		if (g != previous)
			out->groups++;
		previous = g;
		if (g == first)
			fast_end = i + 1;
		if (g == last && slow_start == n)
			slow_start = i;
	}
	out->fast_lines = fast_end;
	out->fast_ns = group_median(lines, 0, fast_end, work);
	if (out->groups > 1) {
		out->slow_lines = n - slow_start;
		out->slow_ns = group_median(lines, slow_start, n, work);
	}
	/* The central 90 % of the lines: a line or two far out are the
	 * groups' business, not the range's. */
	for (size_t i = 0; i < n; i++)
		work[i] = lines[i].median;
	out->range = cp_stats_percentile_sorted(work, n, 0.95) /
		     cp_stats_percentile_sorted(work, n, 0.05) - 1;
}

int cp_c2c_line_spread_judge(const double *medians, const double *noise,
			     size_t n, unsigned int visits,
			     struct cp_c2c_line_spread *out)
{
	struct line *lines;
	double *work, *cuts;

	memset(out, 0, sizeof(*out));
	out->lines = n;
	out->visits = visits;
	out->fast_ns = out->slow_ns = out->range = out->noise_ns = NAN;
	if (!n || visits < CP_C2C_SPREAD_MIN_VISITS)
		return 0;
	lines = malloc(n * sizeof(*lines));
	work = malloc(n * sizeof(*work));
	cuts = malloc(2 * n * sizeof(*cuts));
	if (!lines || !work || !cuts) {
		free(lines);
		free(work);
		free(cuts);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		lines[i] = (struct line){ medians[i], noise[i] };
	qsort(lines, n, sizeof(*lines), by_median);
	out->noise_ns = typical_noise(lines, n, work);
	fill_groups(lines, n, cuts, find_cuts(lines, n, out->noise_ns, cuts),
		    work, out);
	free(lines);
	free(work);
	free(cuts);
	return 0;
}

/* Line @line's timings in ns per round trip into @values; how many.  The
 * coarsest step the timer allows one of them into *@step_ns. */
static size_t line_timings(const uint64_t *segment_ticks, size_t segments,
			   unsigned int pool, unsigned int line,
			   uint32_t round_trips, double ns_per_tick,
			   double resolution_ticks, double *values,
			   double *step_ns)
{
	size_t k = 0;

	*step_ns = 0;
	for (size_t g = line; g < segments; g += pool) {
		unsigned int place = (unsigned int)(g % CP_C2C_LINES_PER_SAMPLE);
		double trips = cp_c2c_segment_trips(round_trips, place);

		values[k++] = (double)segment_ticks[g] / trips * ns_per_tick;
		*step_ns = fmax(*step_ns,
				resolution_ticks / trips * ns_per_tick);
	}
	return k;
}

/* Room for @more lines in @lines. */
static int reserve(struct cp_c2c_line_values *lines, size_t more)
{
	size_t want = lines->nr_lines + more;
	double *medians, *noise;

	if (want <= lines->capacity)
		return 0;
	medians = realloc(lines->medians, want * sizeof(*medians));
	if (!medians)
		return -ENOMEM;
	lines->medians = medians;
	noise = realloc(lines->noise, want * sizeof(*noise));
	if (!noise)
		return -ENOMEM;
	lines->noise = noise;
	lines->capacity = want;
	return 0;
}

int cp_c2c_line_values_add(struct cp_c2c_line_values *lines,
			   const uint64_t *segment_ticks, unsigned int samples,
			   uint32_t round_trips, double tsc_hz,
			   double resolution_ticks)
{
	unsigned int pool = cp_c2c_pool_lines(samples);
	size_t segments = (size_t)samples * CP_C2C_LINES_PER_SAMPLE;
	unsigned int visits = pool ? (unsigned int)(segments / pool) : 0;
	double *values;
	int ret;

	/* Every place in a sample has a round trip from 16 on (c2c's
	 * least); fewer would leave some lines untimed. */
	if (round_trips < CP_C2C_LINES_PER_SAMPLE)
		visits = 0;
	if (!lines->jobs++ || visits < lines->visits)
		lines->visits = visits;
	if (visits < CP_C2C_SPREAD_MIN_VISITS) {
		lines->nr_lines += pool;
		return 0;
	}
	ret = reserve(lines, pool);
	values = malloc((visits + 1) * sizeof(*values));
	if (ret || !values) {
		free(values);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < pool; i++) {
		size_t at = lines->nr_lines + i;
		double step;
		size_t k = line_timings(segment_ticks, segments, pool, i,
					round_trips, 1e9 / tsc_hz,
					resolution_ticks, values, &step);

		cp_c2c_line_value(values, k, &lines->medians[at],
				  &lines->noise[at]);
		lines->noise[at] = fmax(lines->noise[at], step);
	}
	lines->nr_lines += pool;
	free(values);
	return 0;
}

int cp_c2c_line_values_judge(const struct cp_c2c_line_values *lines,
			     struct cp_c2c_line_spread *out)
{
	bool known = lines->visits >= CP_C2C_SPREAD_MIN_VISITS;
	int ret = cp_c2c_line_spread_judge(known ? lines->medians : NULL,
					   known ? lines->noise : NULL,
					   lines->nr_lines, lines->visits,
					   out);

	out->rounds = lines->jobs;
	return ret;
}

void cp_c2c_line_values_free(struct cp_c2c_line_values *lines)
{
	free(lines->medians);
	free(lines->noise);
	memset(lines, 0, sizeof(*lines));
}
