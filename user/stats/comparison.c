// SPDX-License-Identifier: GPL-2.0
#include "stats/comparison.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/placement.h"
#include "stats/fdr.h"
#include "stats/mann_whitney.h"
#include "stats/ratio_interval.h"
#include "harness/rounds.h"
#include "stats/stats.h"
#include "stats/welch.h"

static const char *const verdict_names[] = {
	[CP_VERDICT_REGRESSION] = "REGRESSION",
	[CP_VERDICT_IMPROVEMENT] = "improvement",
	[CP_VERDICT_SAME] = "same",
	[CP_VERDICT_UNCLEAR] = "unclear",
	[CP_VERDICT_NO_RATIO] = "no ratio",
};

static const char *const verdict_keys[] = {
	[CP_VERDICT_REGRESSION] = "regression",
	[CP_VERDICT_IMPROVEMENT] = "improvement",
	[CP_VERDICT_SAME] = "same",
	[CP_VERDICT_UNCLEAR] = "unclear",
	[CP_VERDICT_NO_RATIO] = "no_ratio",
};

const char *cp_verdict_name(enum cp_verdict verdict)
{
	return verdict_names[verdict];
}

const char *cp_verdict_key(enum cp_verdict verdict)
{
	return verdict_keys[verdict];
}

/* The medians of @m's rounds of @values, malloc'ed into *@medians; how
 * many (0 when @m took no rounds, or on no memory). */
static size_t round_medians(const struct cp_measurement *m,
			    const double *values, double **medians)
{
	size_t rounds = cp_rounds_count(m->nr_samples, m->samples_per_round);

	*medians = rounds >= 2 ? malloc(rounds * sizeof(**medians)) : NULL;
	if (!*medians)
		return 0;
	return cp_rounds_medians(values, m->nr_samples, m->samples_per_round,
				 *medians);
}

/* @m's samples in core cycles (ticks times its core clock), malloc'ed;
 * NULL on no memory. */
static double *cycles_of(const struct cp_measurement *m)
{
	double *cycles = malloc((m->nr_samples ? m->nr_samples : 1) *
				sizeof(*cycles));

	for (size_t i = 0; cycles && i < m->nr_samples; i++)
		cycles[i] = m->ticks[i] * m->core_cycles_per_tick;
	return cycles;
}

/* The row's values: the samples in ns, or in cycles when asked and both
 * sides measured the core clock. */
static int row_values(struct cp_comparison_row *row, bool cycles)
{
	row->in_cycles = cycles && row->base->core_cycles_per_tick > 0 &&
			 row->next->core_cycles_per_tick > 0;
	row->base_values = row->base->ns;
	row->next_values = row->next->ns;
	if (!row->in_cycles)
		return 0;
	row->cycles[0] = cycles_of(row->base);
	row->cycles[1] = cycles_of(row->next);
	row->base_values = row->cycles[0];
	row->next_values = row->cycles[1];
	return row->cycles[0] && row->cycles[1] ? 0 : -ENOMEM;
}

/*
 * Both sides in rounds: the rounds are the units, their spread what the
 * next run will show.  Fills the row's test and interval; false when
 * a side has fewer than two rounds (the samples are the units then).
 */
static bool test_by_rounds(struct cp_comparison_row *row, double alpha)
{
	double *base = NULL, *next = NULL;
	size_t n = round_medians(row->base, row->base_values, &base);
	size_t m = n ? round_medians(row->next, row->next_values, &next) : 0;
	struct cp_welch welch;

	row->by_rounds = m && !cp_welch_log_ratio(base, n, next, m,
						   1 - alpha, &welch);
	if (row->by_rounds) {
		row->base_rounds = n;
		row->next_rounds = m;
		row->ratio = welch.ratio;
		row->low = welch.low;
		row->high = welch.high;
		row->p_value = welch.p_value;
	}
	free(base);
	free(next);
	return row->by_rounds;
}

/* Pair the runs and test each pair: rows without intervals yet. */
static int pair_rows(const struct cp_results *base,
		     const struct cp_results_index *base_index,
		     const struct cp_results *next,
		     const struct cp_results_index *next_index,
		     struct cp_comparison *out)
{
	out->rows = malloc((next->nr_measurements ? next->nr_measurements : 1) *
			   sizeof(*out->rows));
	if (!out->rows)
		return -ENOMEM;
	for (size_t i = 0; i < next->nr_measurements; i++) {
		const struct cp_measurement *m = &next->measurements[i];
		const struct cp_measurement *b =
			cp_results_index_find(base_index, m);
		struct cp_comparison_row *row = &out->rows[out->nr_rows];
		struct cp_mann_whitney test;

		if (!b)
			continue;
		*row = (struct cp_comparison_row){
			.base = b, .next = m,
			.show_mode =
				cp_results_index_name_repeats(next_index, m) ||
				cp_results_index_name_repeats(base_index, b),
			.ratio_of_medians = m->stats_ns.median /
					    b->stats_ns.median,
		};
		out->nr_rows++;
		if (row_values(row, out->cycles))
			return -ENOMEM;
		out->in_cycles += row->in_cycles;
		if (row->in_cycles)
			row->ratio_of_medians =
				cp_stats_median(row->next_values,
						m->nr_samples) /
				cp_stats_median(row->base_values,
						b->nr_samples);
		if (test_by_rounds(row, out->alpha))
			continue;
		if (cp_mann_whitney(row->base_values, b->nr_samples,
				    row->next_values, m->nr_samples, &test))
			return -ENOMEM;
		row->p_value = test.p_value;
	}
	out->only_base = base->nr_measurements - out->nr_rows;
	out->only_next = next->nr_measurements - out->nr_rows;
	return 0;
}

static int adjust(struct cp_comparison *out)
{
	double *p = malloc((out->nr_rows ? out->nr_rows : 1) * sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < out->nr_rows; i++)
		p[i] = out->rows[i].p_value;
	ret = cp_fdr_adjust(p, out->nr_rows, p);
	for (size_t i = 0; !ret && i < out->nr_rows; i++)
		out->rows[i].p_adjusted = p[i];
	free(p);
	return ret;
}

static enum cp_verdict judge(const struct cp_comparison_row *row,
			     bool selected, double threshold)
{
	if (selected && row->low > 1 + threshold)
		return CP_VERDICT_REGRESSION;
	if (selected && row->high < 1 - threshold)
		return CP_VERDICT_IMPROVEMENT;
	if (row->low >= 1 - threshold && row->high <= 1 + threshold)
		return CP_VERDICT_SAME;
	return CP_VERDICT_UNCLEAR;
}

static int judge_rows(struct cp_comparison *out)
{
	double z = cp_normal_quantile_two_sided(1 - out->alpha);

	for (size_t i = 0; i < out->nr_rows; i++) {
		struct cp_comparison_row *row = &out->rows[i];
		struct cp_ratio_interval interval;
		int ret;

		if (row->by_rounds) {
			row->confidence = 1 - out->alpha;
			row->verdict = judge(row,
					     row->p_adjusted <= out->alpha,
					     out->threshold);
			out->totals[row->verdict]++;
			continue;
		}
		ret = cp_ratio_interval(row->base_values,
					    row->base->nr_samples,
					    row->next_values,
					    row->next->nr_samples, z,
					    &interval);

		row->confidence = 1 - out->alpha;
		if (ret == -EDOM) {
			row->ratio = row->ratio_of_medians;
			row->verdict = CP_VERDICT_NO_RATIO;
		} else if (ret) {
			return ret;
		} else {
			row->ratio = interval.estimate;
			row->low = interval.low;
			row->high = interval.high;
			row->verdict = judge(row,
					     row->p_adjusted <= out->alpha,
					     out->threshold);
		}
		out->totals[row->verdict]++;
	}
	return 0;
}

int cp_comparison_build(const struct cp_results *base,
			const struct cp_results_index *base_index,
			const struct cp_results *next,
			const struct cp_results_index *next_index,
			double threshold, double alpha, bool cycles,
			struct cp_comparison *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	out->threshold = threshold;
	out->alpha = alpha;
	out->cycles = cycles;
	ret = pair_rows(base, base_index, next, next_index, out);
	if (!ret)
		ret = adjust(out);
	if (!ret)
		ret = judge_rows(out);
	if (ret)
		cp_comparison_free(out);
	return ret;
}

void cp_comparison_free(struct cp_comparison *comparison)
{
	for (size_t i = 0; comparison->rows && i < comparison->nr_rows; i++) {
		free(comparison->rows[i].cycles[0]);
		free(comparison->rows[i].cycles[1]);
	}
	free(comparison->rows);
	comparison->rows = NULL;
	comparison->nr_rows = 0;
}

#define TEXT_FIELD(label, field) \
	{ label, offsetof(struct cp_environment, field) }

static const struct {
	const char *what;
	size_t offset;
} environment_texts[] = {
	TEXT_FIELD("CPU", cpu_model), TEXT_FIELD("microcode", microcode),
	TEXT_FIELD("kernel", kernel), TEXT_FIELD("module", module_version),
	TEXT_FIELD("governor", governors), TEXT_FIELD("boost", boost),
	TEXT_FIELD("SMT", smt), TEXT_FIELD("hypervisor", hypervisor),
	TEXT_FIELD("isolated CPUs", isolated_cpus),
	TEXT_FIELD("nohz_full CPUs", nohz_full_cpus),
	TEXT_FIELD("huge pages", huge_pages),
};

#define NR_ENVIRONMENT_TEXTS \
	(sizeof(environment_texts) / sizeof(environment_texts[0]))

/* The texts, the online CPUs and the placement. */
_Static_assert(NR_ENVIRONMENT_TEXTS + 2 <= CP_MAX_ENVIRONMENT_DIFFERENCES,
	       "CP_MAX_ENVIRONMENT_DIFFERENCES holds every difference");

/*
 * The vCPUs' placement, when both runs measured it and it differs: the
 * host's choice, not the software's, and every figure across two CPUs
 * follows it.  Round trips within CP_PLACEMENT_FACTOR are the probe's
 * noise, not a difference.  Whether there was one.
 */
static bool placement_difference(const struct cp_environment *base,
				 const struct cp_environment *next,
				 struct cp_environment_difference *out)
{
	if (!cp_placements_differ(&base->placement, &next->placement))
		return false;
	out->what = "CPU placement (round trip)";
	cp_placement_format(&base->placement, out->base, sizeof(out->base));
	cp_placement_format(&next->placement, out->next, sizeof(out->next));
	return true;
}

size_t cp_environment_differences(const struct cp_results *base,
				  const struct cp_results *next,
				  struct cp_environment_difference *out)
{
	const char *a = (const char *)&base->environment;
	const char *b = (const char *)&next->environment;
	size_t n = 0;

	for (size_t i = 0; i < NR_ENVIRONMENT_TEXTS; i++) {
		const char *left = a + environment_texts[i].offset;
		const char *right = b + environment_texts[i].offset;

		if (!strcmp(left, right))
			continue;
		out[n].what = environment_texts[i].what;
		snprintf(out[n].base, sizeof(out[n].base), "%s", left);
		snprintf(out[n].next, sizeof(out[n].next), "%s", right);
		n++;
	}
	if (base->environment.nr_online_cpus !=
	    next->environment.nr_online_cpus) {
		out[n].what = "online CPUs";
		snprintf(out[n].base, sizeof(out[n].base), "%u",
			 base->environment.nr_online_cpus);
		snprintf(out[n].next, sizeof(out[n].next), "%u",
			 next->environment.nr_online_cpus);
		n++;
	}
	n += placement_difference(&base->environment, &next->environment,
				  &out[n]);
	return n;
}
