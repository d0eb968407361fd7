// SPDX-License-Identifier: GPL-2.0
#include "results/results_pool.h"

#include "harness/rounds.h"
#include "machine/placement.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The samples of @m as found in every run, or 0 when a run lacks it. */
static size_t pooled_count(const struct cp_measurement *m,
			   const struct cp_results_index *indexes,
			   size_t nr_runs, const struct cp_measurement **found)
{
	size_t total = 0;

	for (size_t r = 0; r < nr_runs; r++) {
		found[r] = cp_results_index_find(&indexes[r], m);
		if (!found[r])
			return 0;
		total += found[r]->nr_samples;
	}
	return total;
}

/*
 * The runs' rounds stay rounds when every run took rounds: each cut to
 * the fewest samples a round of any run has (c2c's rounds end at their
 * share, so their length differs from run to run), so that every round
 * weighs the same.  0 when a run's samples are not in rounds.
 */
static unsigned int pooled_rounds(const struct cp_measurement **found,
				  size_t nr_runs)
{
	unsigned int per_round = 0;

	for (size_t r = 0; r < nr_runs; r++) {
		unsigned int run_per_round = found[r]->samples_per_round;

		if (!run_per_round)
			return 0;
		if (!per_round || run_per_round < per_round)
			per_round = run_per_round;
	}
	return per_round;
}

/*
 * Run @m's samples, each of its rounds cut to @per_round (0: all of
 * them, not in rounds), into @ns and @ticks times @scale from @at (NULL:
 * only counted); a round shorter than @per_round is left out unless it
 * ends the pool (@last), where harness/rounds.h allows one.  How many.
 */
static size_t take_run(const struct cp_measurement *m, unsigned int per_round,
		       bool last, double scale, double *ns, double *ticks)
{
	unsigned int run_per_round = per_round ? m->samples_per_round : 0;
	size_t rounds = cp_rounds_count(m->nr_samples, run_per_round);
	size_t taken = 0;

	if (!per_round)
		rounds = 1;
	for (size_t k = 0; k < rounds; k++) {
		size_t from = k * run_per_round;
		size_t n = per_round ? m->nr_samples - from : m->nr_samples;

		if (per_round && n > per_round)
			n = per_round;
		if (per_round && n < per_round && !(last && k + 1 == rounds))
			continue;
		for (size_t i = 0; ns && i < n; i++) {
			ns[taken + i] = m->ns[from + i];
			ticks[taken + i] = m->ticks[from + i] * scale;
		}
		taken += n;
	}
	return taken;
}

/* The first run's core clock when every run measured it, else 0. */
static double pooled_clock(const struct cp_measurement **found,
			   size_t nr_runs)
{
	for (size_t r = 0; r < nr_runs; r++)
		if (!(found[r]->core_cycles_per_tick > 0))
			return 0;
	return found[0]->core_cycles_per_tick;
}

static int pool_one(struct cp_results *out,
		    const struct cp_measurement **found, size_t nr_runs)
{
	struct cp_measurement *m = cp_results_add(out);
	unsigned int per_round = pooled_rounds(found, nr_runs);
	size_t at = 0, total = 0;

	if (!m)
		return -ENOMEM;
	for (size_t r = 0; r < nr_runs; r++)
		total += take_run(found[r], per_round, r + 1 == nr_runs, 1,
				  NULL, NULL);
	memcpy(m->area, found[0]->area, sizeof(m->area));
	memcpy(m->name, found[0]->name, sizeof(m->name));
	memcpy(m->mode, found[0]->mode, sizeof(m->mode));
	memcpy(m->note, found[0]->note, sizeof(m->note));
	m->nr_params = found[0]->nr_params;
	memcpy(m->params, found[0]->params, sizeof(m->params));
	m->ns = malloc((total ? total : 1) * sizeof(*m->ns));
	m->ticks = malloc((total ? total : 1) * sizeof(*m->ticks));
	if (!m->ns || !m->ticks)
		return -ENOMEM;
	m->core_cycles_per_tick = pooled_clock(found, nr_runs);
	for (size_t r = 0; r < nr_runs; r++) {
		/* Ticks in the first run's core clock: ticks times the
		 * pooled core_cycles_per_tick are each run's cycles. */
		double scale = m->core_cycles_per_tick > 0
			? found[r]->core_cycles_per_tick /
				  m->core_cycles_per_tick
			: 1;

		at += take_run(found[r], per_round, r + 1 == nr_runs, scale,
			       m->ns + at, m->ticks + at);
		m->interrupted |= found[r]->interrupted;
	}
	m->nr_samples = total;
	m->samples_per_round = per_round;
	return cp_stats_summarize(m->ns, total, &m->stats_ns);
}

/* Every area some run left out, once. */
static void pool_skipped(struct cp_results *out, const struct cp_results *run)
{
	for (size_t i = 0; i < run->nr_skipped_areas; i++) {
		const struct cp_skipped_area *skipped = &run->skipped_areas[i];
		bool known = false;

		for (size_t j = 0; j < out->nr_skipped_areas; j++)
			known |= !strcmp(out->skipped_areas[j].name,
					 skipped->name);
		if (!known)
			cp_results_skip_area(out, skipped->name,
					     skipped->reason);
	}
}

int cp_results_pool(const struct cp_results *runs,
		    const struct cp_results_index *indexes, size_t nr_runs,
		    struct cp_results *out, size_t *nr_partial)
{
	const struct cp_measurement **found =
		malloc(nr_runs * sizeof(*found));
	int ret = 0;

	cp_results_init(out);
	*nr_partial = 0;
	if (!found)
		return -ENOMEM;
	memcpy(out->schema, runs[0].schema, sizeof(out->schema));
	out->environment = runs[0].environment;
	for (size_t r = 1; r < nr_runs; r++)
		cp_placement_pool_add(&out->environment.placement,
				      &runs[r].environment.placement);
	for (size_t r = 0; r < nr_runs; r++)
		out->interrupted |= runs[r].interrupted;
	for (size_t r = 0; r < nr_runs; r++)
		pool_skipped(out, &runs[r]);
	for (size_t i = 0; !ret && i < runs[0].nr_measurements; i++) {
		size_t total = pooled_count(&runs[0].measurements[i], indexes,
					    nr_runs, found);

		if (total)
			ret = pool_one(out, found, nr_runs);
		else
			(*nr_partial)++;
	}
	free(found);
	if (ret)
		cp_results_free(out);
	return ret;
}
