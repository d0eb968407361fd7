// SPDX-License-Identifier: GPL-2.0
#include "areas/c2c/c2c_line_report.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "areas/c2c/c2c_pingpong.h"
#include "harness/rounds.h"
#include "stats/stats.h"

/* ns in whole picoseconds: params are integers. */
static int64_t ps(double ns)
{
	return (int64_t)llround(ns * 1e3);
}

int cp_c2c_line_spread_store(struct cp_measurement *m,
			     const struct cp_c2c_line_spread *s)
{
	int ret = cp_measurement_add_param(m, "line_groups", s->groups);

	if (!ret)
		ret = cp_measurement_add_param(m, "lines", (int64_t)s->lines);
	if (!ret)
		ret = cp_measurement_add_param(m, "line_visits", s->visits);
	if (ret || !s->groups)
		return ret;
	if (!ret)
		ret = cp_measurement_add_param(m, "fast_lines",
					       (int64_t)s->fast_lines);
	if (!ret)
		ret = cp_measurement_add_param(m, "fast_line_ps",
					       ps(s->fast_ns));
	if (!ret)
		ret = cp_measurement_add_param(m, "line_range_milli",
					       llround(s->range * 1e3));
	if (ret || s->groups < 2)
		return ret;
	ret = cp_measurement_add_param(m, "slow_lines",
				       (int64_t)s->slow_lines);
	if (!ret)
		ret = cp_measurement_add_param(m, "slow_line_ps",
					       ps(s->slow_ns));
	return ret;
}

bool cp_c2c_line_spread_load(const struct cp_measurement *m,
			     struct cp_c2c_line_spread *s)
{
	int64_t groups = cp_measurement_param(m, "line_groups", -1);
	int64_t lines = cp_measurement_param(m, "lines", 0);

	if (groups < 0 || lines <= 0)
		return false;
	memset(s, 0, sizeof(*s));
	s->groups = (unsigned int)groups;
	s->lines = (size_t)lines;
	/* Files written before rounds: one job, its samples' segments. */
	s->visits = (unsigned int)cp_measurement_param(
		m, "line_visits",
		(int64_t)(m->nr_samples * CP_C2C_LINES_PER_SAMPLE /
			  (size_t)lines));
	s->rounds = m->samples_per_round
		? (unsigned int)cp_rounds_count(m->nr_samples,
						m->samples_per_round)
		: 1;
	s->fast_ns = s->slow_ns = s->range = s->noise_ns = NAN;
	if (!groups)
		return true;
	s->fast_lines = (size_t)cp_measurement_param(m, "fast_lines", 0);
	s->fast_ns = (double)cp_measurement_param(m, "fast_line_ps", 0) / 1e3;
	if (groups > 1) {
		s->slow_lines = (size_t)cp_measurement_param(m, "slow_lines",
							     0);
		s->slow_ns = (double)cp_measurement_param(m, "slow_line_ps",
							  0) / 1e3;
	}
	s->range = (double)cp_measurement_param(m, "line_range_milli", 0) / 1e3;
	return true;
}

static json_object *group_json(size_t lines, double ns)
{
	json_object *group = json_object_new_object();

	json_object_object_add(group, "lines", json_object_new_int64(
			(int64_t)lines));
	json_object_object_add(group, "round_trip_ns",
			       json_object_new_double(ns));
	json_object_object_add(group, "one_way_ns",
			       json_object_new_double(ns / 2));
	return group;
}

json_object *cp_c2c_line_spread_json(const struct cp_c2c_line_spread *s)
{
	json_object *object = json_object_new_object();
	bool known = s->groups > 0, split = s->groups > 1;

	json_object_object_add(object, "groups",
			       json_object_new_int64(s->groups));
	json_object_object_add(object, "lines",
			       json_object_new_int64((int64_t)s->lines));
	json_object_object_add(object, "visits_per_line",
			       json_object_new_int64(s->visits));
	json_object_object_add(object, "fast_group", known
			       ? group_json(s->fast_lines, s->fast_ns) : NULL);
	json_object_object_add(object, "slow_group", split
			       ? group_json(s->slow_lines, s->slow_ns) : NULL);
	json_object_object_add(object, "slow_over_fast", split
			       ? json_object_new_double(s->slow_ns / s->fast_ns)
			       : NULL);
	/* In tenths of a percent, as the param keeps it. */
	json_object_object_add(object, "range_percent", known
			       ? json_object_new_double(
					 (double)llround(s->range * 1e3) / 10)
			       : NULL);
	return object;
}

unsigned int cp_c2c_spread_samples_needed(unsigned int rounds)
{
	return CP_C2C_SPREAD_MIN_VISITS * CP_C2C_LINE_POOL /
	       CP_C2C_LINES_PER_SAMPLE * (rounds ? rounds : 1);
}

/* The median of the first @n of @values (NaN for none). */
static double median_of(double *values, size_t n)
{
	return n ? cp_stats_median(values, n) : NAN;
}

/* Counts, extremes and the one pair's own figures. */
static void count(const struct cp_c2c_line_spread *s,
		  struct cp_c2c_spread_summary *out)
{
	out->pairs++;
	if (s->lines > out->lines)
		out->lines = s->lines;
	if (out->pairs == 1 || s->visits < out->visits)
		out->visits = s->visits;
	if (s->rounds > out->rounds)
		out->rounds = s->rounds;
	if (s->groups > out->most_groups)
		out->most_groups = s->groups;
	if (!s->groups)
		out->undetermined++;
	else if (s->groups == 1)
		out->one_group++;
	else
		out->split++;
	if (s->groups && !(s->range <= out->widest_range))
		out->widest_range = s->range;
	out->fast_lines = s->fast_lines;
	out->slow_lines = s->slow_lines;
}

int cp_c2c_spread_summarize(const struct cp_c2c_line_spread *spreads,
			    size_t n, struct cp_c2c_spread_summary *out)
{
	double *v = malloc((n ? n : 1) * 5 * sizeof(*v));
	double *fast = v, *slow = v + n, *fast_share = v + 2 * n;
	double *slow_share = v + 3 * n, *one = v + 4 * n;
	size_t k = 0, ones = 0;

	memset(out, 0, sizeof(*out));
	out->widest_range = NAN;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct cp_c2c_line_spread *s = &spreads[i];

		count(s, out);
		if (s->groups == 1)
			one[ones++] = s->fast_ns;
		if (s->groups < 2)
			continue;
		fast[k] = s->fast_ns;
		slow[k] = s->slow_ns;
		fast_share[k] = (double)s->fast_lines / (double)s->lines;
		slow_share[k++] = (double)s->slow_lines / (double)s->lines;
	}
	out->fast_ns = median_of(fast, k);
	out->slow_ns = median_of(slow, k);
	out->fast_share = median_of(fast_share, k);
	out->slow_share = median_of(slow_share, k);
	out->one_ns = median_of(one, ones);
	free(v);
	return 0;
}

static void print_split_pair(FILE *out, const struct cp_c2c_spread_summary *s)
{
	if (s->most_groups == 2)
		fprintf(out,
			"2 groups: %zu of %zu lines near %.1f ns, %zu near %.1f ns (x%.2f)\n",
			s->fast_lines, s->lines, s->fast_ns, s->slow_lines,
			s->slow_ns, s->slow_ns / s->fast_ns);
	else
		fprintf(out,
			"%u groups: the fastest %zu of %zu lines near %.1f ns, the slowest %zu near %.1f ns (x%.2f), %zu between\n",
			s->most_groups, s->fast_lines, s->lines, s->fast_ns,
			s->slow_lines, s->slow_ns, s->slow_ns / s->fast_ns,
			s->lines - s->fast_lines - s->slow_lines);
	fprintf(out,
		"         round trip (one-way %.1f and %.1f ns); a sample mixes %d lines, a one-line tool (c2clat) sees its line's group\n",
		s->fast_ns / 2, s->slow_ns / 2, CP_C2C_LINES_PER_SAMPLE);
}

static void print_split_pairs(FILE *out, const struct cp_c2c_spread_summary *s)
{
	char groups[32] = "2";

	if (s->most_groups > 2)
		snprintf(groups, sizeof(groups), "2 to %u", s->most_groups);
	fprintf(out,
		"%zu of %zu pairs in %s groups: the fastest near %.1f ns (%.0f %% of lines), the slowest near %.1f ns (%.0f %%, x%.2f)\n",
		s->split, s->pairs, groups, s->fast_ns,
		100 * s->fast_share, s->slow_ns, 100 * s->slow_share,
		s->slow_ns / s->fast_ns);
	fprintf(out,
		"         round trip, medians over those pairs (one-way half); %zu pairs one group, %zu undetermined\n",
		s->one_group, s->undetermined);
}

static void print_one_group(FILE *out, const struct cp_c2c_spread_summary *s)
{
	if (s->pairs == 1)
		fprintf(out,
			"one group: no gap between the %zu lines beyond their noise, 90 %% of them within %.1f %% (median %.1f ns round trip)\n",
			s->lines, 100 * s->widest_range, s->one_ns);
	else
		fprintf(out,
			"one group in %zu of %zu pairs: 90 %% of a pair's lines within %.1f %% at most (pairs near %.1f ns round trip); %zu undetermined\n",
			s->one_group, s->pairs, 100 * s->widest_range,
			s->one_ns, s->undetermined);
}

static void print_undetermined(FILE *out,
			       const struct cp_c2c_spread_summary *s)
{
	char times[32] = "once", rounds[32] = "";

	if (s->visits != 1)
		snprintf(times, sizeof(times), "%u times", s->visits);
	/* --samples spreads over --rounds, all of them (no share cuts). */
	if (s->rounds > 1)
		snprintf(rounds, sizeof(rounds), " --rounds %u", s->rounds);
	fprintf(out,
		"undetermined: each of %zu lines timed %s, %d needed (--samples %u%s)\n",
		s->lines, times, CP_C2C_SPREAD_MIN_VISITS,
		cp_c2c_spread_samples_needed(s->rounds), rounds);
}

void cp_c2c_spread_print(FILE *out, const char *variant, const char *mode,
			 const struct cp_c2c_spread_summary *s)
{
	if (!s->pairs)
		return;
	fprintf(out, "  %-6s %-6s per line:      ", variant, mode);
	if (s->split && s->pairs == 1)
		print_split_pair(out, s);
	else if (s->split)
		print_split_pairs(out, s);
	else if (s->one_group)
		print_one_group(out, s);
	else
		print_undetermined(out, s);
}
