// SPDX-License-Identifier: GPL-2.0
/*
 * The coldcache results: per method and working set, an "evict"
 * measurement (the eviction's time per repetition) and a "first pass"
 * measurement (TSC ticks per access of the pass after it, floor
 * subtracted), the latter carrying the residual warmth as parameters in
 * parts per million of the working set's lines: the median share per
 * classifier level (-1 for a level merged into the next one), the median
 * and worst share served from any cache, and the verdict.
 */
#include "areas/coldcache/coldcache.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "areas/latency/latency_choices.h"
#include "stats/stats.h"

static const char *const verdict_names[] = {
	[COLD_VERDICT_REFERENCE] = "reference (no eviction)",
	[COLD_VERDICT_EVICTED] = "evicted",
	[COLD_VERDICT_AS_COLD_AS_CLFLUSH] = "evicted (as cold as clflush)",
	[COLD_VERDICT_PARTLY] = "partly evicted",
	[COLD_VERDICT_DID_NOT_EVICT] = "did not evict",
};

const char *cold_verdict_name(enum cold_verdict verdict)
{
	return verdict_names[verdict];
}

enum cold_verdict cold_judge(enum cp_coldcache_method method,
			     int64_t median_cached_ppm, int64_t worst_cached_ppm,
			     const struct cold_references *references)
{
	if (method == CP_COLD_WARM)
		return COLD_VERDICT_REFERENCE;
	if (worst_cached_ppm <= COLD_EVICTED_PPM)
		return COLD_VERDICT_EVICTED;
	if (method != CP_COLD_CLFLUSH && references->clflush_median_ppm >= 0 &&
	    median_cached_ppm <=
		    references->clflush_median_ppm + COLD_CLFLUSH_MARGIN_PPM &&
	    worst_cached_ppm <=
		    references->clflush_worst_ppm + COLD_CLFLUSH_MARGIN_PPM)
		return COLD_VERDICT_AS_COLD_AS_CLFLUSH;
	if (references->warm_median_ppm >= COLD_WARM_MIN_PPM &&
	    median_cached_ppm >=
		    references->warm_median_ppm - COLD_CLOSE_TO_WARM_PPM)
		return COLD_VERDICT_DID_NOT_EVICT;
	return COLD_VERDICT_PARTLY;
}

static double *copy_values(const double *values, size_t n)
{
	double *copy = malloc((n ? n : 1) * sizeof(*copy));

	if (copy)
		memcpy(copy, values, n * sizeof(*copy));
	return copy;
}

static int64_t median_of(const int64_t *values, size_t n)
{
	double as_double[n ? n : 1];

	for (size_t i = 0; i < n; i++)
		as_double[i] = (double)values[i];
	return n ? (int64_t)cp_stats_median(as_double, n) : 0;
}

static int64_t worst_of(const int64_t *values, size_t n)
{
	int64_t worst = 0;

	for (size_t i = 0; i < n; i++)
		if (values[i] > worst)
			worst = values[i];
	return worst;
}

static struct cp_measurement *add(struct cold_run *run, const char *label,
				  uint64_t size, const char *what)
{
	struct cp_measurement *m = cp_results_add(run->context->results);
	char size_text[32];

	if (!m)
		return NULL;
	cp_name_bytes(size, size_text, sizeof(size_text));
	snprintf(m->area, sizeof(m->area), "coldcache");
	snprintf(m->mode, sizeof(m->mode), "user");
	snprintf(m->name, sizeof(m->name), "%s %s %s", label, size_text, what);
	cp_measurement_add_param(m, "size_bytes", (int64_t)size);
	return m;
}

/*
 * Count and scale 1, so each interval reaches a whole timer step
 * (results.h, cp_results_cover_timer_step): an eviction is one reading;
 * a first pass is a mean over lines less the line timer floor, a median
 * of whole-step readings that a run may find a step higher or lower than
 * the last, moving every line with it.
 */
static int set_samples(struct cold_run *run, struct cp_measurement *m,
		       const double *values, size_t n, double core_ratio)
{
	double *ticks = copy_values(values, n);

	if (!ticks)
		return -ENOMEM;
	m->count = 1;
	m->scale = 1;
	m->core_cycles_per_tick = core_ratio;
	m->interrupted = n < run->repetitions;
	return cp_measurement_set_samples(m, ticks, n,
					  run->context->clock->tsc_hz);
}

static int record_evict(struct cold_run *run, const char *label,
			uint64_t size, const struct cold_outcome *outcome,
			double core_ratio)
{
	struct cp_measurement *m = add(run, label, size, "evict");

	if (!m)
		return -ENOMEM;
	cp_measurement_add_param(m, "bytes_read", (int64_t)outcome->bytes_read);
	cp_measurement_add_param(m, "cpu", run->cpu);
	/* The first pass's shares were taken of at least this many lines. */
	cp_measurement_add_param(m, "lines_classified_min",
				 (int64_t)outcome->min_classified);
	m->preempted_retaken = outcome->retaken;
	if (outcome->retaken >= run->repetitions)
		cp_measurement_warn(m,
				    "first passes kept although interrupted before %d lines: every retake was used",
				    COLD_MIN_CLASSIFIED);
	return set_samples(run, m, outcome->evict_ticks, outcome->nr,
			   core_ratio);
}

void cold_level_param(const char *level, char *out, size_t len)
{
	size_t j = 0;

	for (; level[j] && j + 5 < len; j++)
		out[j] = (char)tolower((unsigned char)level[j]);
	snprintf(out + j, len - j, "_ppm");
}

static void add_level_params(struct cold_run *run, struct cp_measurement *m,
			     const struct cold_outcome *outcome)
{
	for (size_t k = 0; k < run->levels.nr; k++) {
		char name[32];

		cold_level_param(run->levels.names[k], name, sizeof(name));
		cp_measurement_add_param(m, name,
					 run->levels.merged[k]
						 ? -1
						 : median_of(outcome->level_ppm[k],
							     outcome->nr));
	}
}

static void warn_hypervisor(struct cold_run *run, struct cp_measurement *m,
			    enum cp_coldcache_method method,
			    enum cold_verdict verdict)
{
	const char *hypervisor = run->context->results->environment.hypervisor;

	if ((method == CP_COLD_WBINVD || method == CP_COLD_WBNOINVD) &&
	    verdict == COLD_VERDICT_DID_NOT_EVICT &&
	    strcmp(hypervisor, "none") != 0)
		cp_measurement_warn(m,
				    "%s did not evict under the %s hypervisor, which usually skips it",
				    cp_coldcache_method_name(method), hypervisor);
}

/* The turn-by-turn comparison with naive (the sweep): turns with fewer
 * lines cached than naive, more, as many, and the sign test's p-value in
 * parts per million. */
static void add_paired_params(struct cp_measurement *m,
			      const struct cp_paired *paired)
{
	cp_measurement_add_param(m, "turns_less_cached_than_naive",
				 (int64_t)paired->lower);
	cp_measurement_add_param(m, "turns_more_cached_than_naive",
				 (int64_t)paired->higher);
	cp_measurement_add_param(m, "turns_tied_with_naive",
				 (int64_t)paired->tied);
	cp_measurement_add_param(m, "sign_test_p_millionths",
				 (int64_t)(paired->p_value * 1e6 + 0.5));
}

static int record_pass(struct cold_run *run, const char *label,
		       enum cp_coldcache_method method, size_t size_index,
		       uint64_t size, const struct cold_outcome *outcome,
		       double core_ratio)
{
	struct cp_measurement *m = add(run, label, size, "first pass");
	int64_t median = median_of(outcome->cached_ppm, outcome->nr);
	int64_t worst = worst_of(outcome->cached_ppm, outcome->nr);
	enum cold_verdict verdict;
	struct cold_references references = { -1, -1, -1 };

	if (size_index < COLD_MAX_SIZES) {
		if (method == CP_COLD_WARM)
			run->warm_cached_ppm[size_index] = median;
		if (method == CP_COLD_CLFLUSH) {
			run->clflush_median_ppm[size_index] = median;
			run->clflush_worst_ppm[size_index] = worst;
		}
		references = (struct cold_references){
			run->warm_cached_ppm[size_index],
			run->clflush_median_ppm[size_index],
			run->clflush_worst_ppm[size_index],
		};
	}
	if (!m)
		return -ENOMEM;
	verdict = cold_judge(method, median, worst, &references);
	add_level_params(run, m, outcome);
	cp_measurement_add_param(m, "cached_median_ppm", median);
	cp_measurement_add_param(m, "cached_worst_ppm", worst);
	cp_measurement_add_param(m, "verdict", verdict);
	cp_measurement_add_param(m, "line_stride_bytes",
				 (int64_t)cold_line_stride(size));
	if (outcome->paired_with_naive)
		add_paired_params(m, &outcome->against_naive);
	snprintf(m->note, sizeof(m->note), "%s", cold_verdict_name(verdict));
	warn_hypervisor(run, m, method, verdict);
	return set_samples(run, m, outcome->pass_ticks, outcome->nr,
			   core_ratio);
}

int cold_record(struct cold_run *run, const char *label,
		enum cp_coldcache_method method, size_t size_index,
		uint64_t size, struct cold_outcome *outcome)
{
	double core_ratio;
	int ret;

	/* Interrupted before its first repetition (an entry late in a
	 * rotation): there is nothing to record, and the others still are. */
	if (!outcome->nr)
		return 0;
	/* The clock read around the rounds the repetitions ran in; read now
	 * where none was (the first round cut short). */
	core_ratio = run->clock.rounds ? cp_round_clock_mean(&run->clock)
				       : cp_clock_core_cycles_per_tick();
	ret = record_evict(run, label, size, outcome, core_ratio);
	if (!ret)
		ret = record_pass(run, label, method, size_index, size, outcome,
				  core_ratio);
	return ret;
}

int cold_record_entries(struct cold_run *run, struct cold_entry *entries,
			size_t nr)
{
	for (size_t e = 0; e < nr; e++) {
		int ret = cold_record(run, entries[e].label, entries[e].method,
				      entries[e].size_index, entries[e].size,
				      &entries[e].outcome);

		if (ret)
			return ret;
	}
	return 0;
}

/* The per-line timer's floor, as the run's first measurement: its samples
 * are steps of the pass loop without loads (ticks per step), a round's
 * probes at a time, and it carries the run's notes: the classifier's
 * levels, merges, and methods that could not run. */
int cold_record_floor(struct cold_run *run)
{
	size_t n = run->floor_rounds * COLD_FLOOR_PROBES;
	struct cp_measurement *m;
	double *ticks;

	/* None probed: the area failed before its first round. */
	if (!n)
		return 0;
	/* The samples first: no measurement left without them. */
	ticks = malloc(sizeof(double) * n);
	m = ticks ? cp_results_add(run->context->results) : NULL;
	if (!m) {
		free(ticks);
		return -ENOMEM;
	}
	snprintf(m->area, sizeof(m->area), "coldcache");
	snprintf(m->mode, sizeof(m->mode), "user");
	snprintf(m->name, sizeof(m->name), "line timer floor");
	snprintf(m->note, sizeof(m->note), "per step, subtracted from each line");
	cp_measurement_add_param(m, "spread_ticks",
				 (int64_t)run->calibration_floor.spread);
	/* The working sets' pages, and so the calibration's (--pages). */
	cp_measurement_add_param(m, "page_bytes",
				 (int64_t)cp_page_size_bytes(run->pages));
	for (size_t i = 0; i < n; i++)
		ticks[i] = run->floor_steps[i];
	m->count = 1;
	m->scale = 1;
	/* A batch a round of the methods (once where none ran, and in
	 * kernel mode). */
	m->samples_per_round = run->floor_rounds > 1 ? COLD_FLOOR_PROBES : 0;
	m->interrupted = run->rounds_cut;
	return cp_measurement_set_samples(m, ticks, n,
					  run->context->clock->tsc_hz);
}

void cold_note(struct cold_run *run, const char *fmt, ...)
{
	char text[sizeof(run->context->results->area_notes[0].text)];
	va_list args;

	va_start(args, fmt);
	vsnprintf(text, sizeof(text), fmt, args);
	va_end(args);
	cp_results_note(run->context->results, "coldcache", "%s", text);
}

void cold_record_unavailable(struct cold_run *run,
			     enum cp_coldcache_method method, const char *why)
{
	cold_note(run, "%s unavailable: %s", cp_coldcache_method_name(method),
		  why);
}
