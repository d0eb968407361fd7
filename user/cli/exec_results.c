// SPDX-License-Identifier: GPL-2.0
#include "cli/exec_results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/mann_whitney.h"

void exec_command_text(char *const argv[], char *buf, size_t len)
{
	size_t used = 0;
	static const char cut[] = "...";

	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; argv[i] && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? " " : "",
				 argv[i]);

		used += n > 0 ? (size_t)n : 0;
	}
	if (used >= len && len > sizeof(cut))
		memcpy(buf + len - sizeof(cut), cut, sizeof(cut));
}

int exec_contrast_compute(const struct exec_series *series,
			  struct exec_contrast *out)
{
	const struct exec_samples *cold = &series->samples[EXEC_KIND_COLD];
	const struct exec_samples *warm = &series->samples[EXEC_KIND_WARM];
	struct cp_mann_whitney test;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!cold->nr || !warm->nr)
		return 0;
	/* Wall times are above zero: no -EDOM. */
	ret = cp_ratio_interval(warm->wall_ns, warm->nr, cold->wall_ns,
				cold->nr,
				cp_normal_quantile_two_sided(EXEC_CONFIDENCE),
				&out->ratio);
	if (!ret)
		ret = cp_mann_whitney(cold->wall_ns, cold->nr, warm->wall_ns,
				      warm->nr, &test);
	if (ret)
		return ret;
	out->p_value = test.p_value;
	out->exact = test.exact;
	out->valid = true;
	return 0;
}

/* A copy of @values (@n) as the measurement's ns, with ticks beside
 * them, and their statistics. */
static int take_samples(struct cp_measurement *m, const double *values,
			size_t n, double tsc_hz)
{
	m->ns = malloc(n * sizeof(*m->ns));
	m->ticks = malloc(n * sizeof(*m->ticks));
	if (!m->ns || !m->ticks)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		m->ns[i] = values[i];
		m->ticks[i] = values[i] * tsc_hz / 1e9;
	}
	m->nr_samples = n;
	return cp_stats_compute(m->ns, n, &m->stats_ns);
}

/* Where in the series the samples of @kind were taken: sample i is run
 * run_first + i * run_step (from 1). */
static void add_positions(struct cp_measurement *m,
			  const struct exec_series *series,
			  enum exec_kind kind)
{
	bool both = series->kinds == EXEC_BOTH;

	cp_measurement_add_param(m, "runs", (int64_t)series->runs);
	cp_measurement_add_param(m, "run_first",
				 both && kind == EXEC_KIND_WARM ? 2 : 1);
	cp_measurement_add_param(m, "run_step", both ? 2 : 1);
}

static void add_contrast(struct cp_measurement *m,
			 const struct exec_contrast *contrast)
{
	const struct cp_ratio_interval *ratio = &contrast->ratio;

	if (!contrast->valid)
		return;
	cp_measurement_add_param(m, "cold_warm_milli",
				 llround(ratio->estimate * 1000));
	/* Too few runs leave the interval unbounded: no figures. */
	if (ratio->low > 0 && isfinite(ratio->high)) {
		cp_measurement_add_param(m, "cold_warm_low_milli",
					 llround(ratio->low * 1000));
		cp_measurement_add_param(m, "cold_warm_high_milli",
					 llround(ratio->high * 1000));
	}
	cp_measurement_add_param(m, "mann_whitney_p_millionths",
				 llround(contrast->p_value * 1e6));
	cp_measurement_add_param(m, "mann_whitney_exact", contrast->exact);
}

struct exec_measure {
	struct cp_results *results;
	const struct exec_series *series;
	const char *command;
	double tsc_hz;
};

/* The measurement @name of @values (@n of them), or NULL. */
static struct cp_measurement *add(const struct exec_measure *measure,
				  const char *name, const double *values,
				  size_t n)
{
	struct cp_measurement *m = cp_results_add(measure->results);

	if (!m)
		return NULL;
	snprintf(m->area, sizeof(m->area), "%s", EXEC_AREA);
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->note, sizeof(m->note), "%s", measure->command);
	m->count = 1;
	m->scale = 1;
	m->interrupted = n < measure->series->runs;
	if (take_samples(m, values, n, measure->tsc_hz))
		return NULL;
	return m;
}

static int add_kind(const struct exec_measure *measure, enum exec_kind kind,
		    const struct exec_eviction *eviction,
		    const struct exec_contrast *contrast)
{
	const struct exec_samples *samples = &measure->series->samples[kind];
	const double *const values[] = { samples->wall_ns, samples->user_ns,
					 samples->sys_ns };
	static const char *const what[] = { "wall", "user", "sys" };

	for (size_t i = 0; i < 3; i++) {
		char name[32];
		struct cp_measurement *m;

		snprintf(name, sizeof(name), "%s %s", exec_kind_name(kind),
			 what[i]);
		m = add(measure, name, values[i], samples->nr);
		if (!m)
			return -ENOMEM;
		add_positions(m, measure->series, kind);
		if (kind == EXEC_KIND_COLD)
			cp_measurement_add_param(m, "method", eviction->method);
		if (kind == EXEC_KIND_COLD && i == 0)
			add_contrast(m, contrast);
	}
	return 0;
}

static int add_evictions(const struct exec_measure *measure,
			 const struct exec_eviction *eviction)
{
	const struct exec_samples *cold =
		&measure->series->samples[EXEC_KIND_COLD];
	struct cp_measurement *m = add(measure, "evict", cold->evict_ns,
				       cold->nr);

	if (!m)
		return -ENOMEM;
	add_positions(m, measure->series, EXEC_KIND_COLD);
	cp_measurement_add_param(m, "method", eviction->method);
	cp_measurement_add_param(m, "garbage_bytes",
				 (int64_t)eviction->garbage_bytes);
	if (eviction->reason && eviction->reason[0])
		cp_measurement_warn(m, "%s: %s", eviction->name,
				    eviction->reason);
	return 0;
}

int exec_results_add(struct cp_results *results,
		     const struct exec_series *series, const char *command,
		     const struct exec_eviction *eviction,
		     const struct exec_contrast *contrast, double tsc_hz,
		     const char *stop_reason)
{
	const struct exec_measure measure = {
		.results = results, .series = series, .command = command,
		.tsc_hz = tsc_hz,
	};
	int ret = 0;

	results->samples_requested = (unsigned int)series->runs;
	if (series->stop != EXEC_STOP_NONE) {
		results->interrupted = true;
		snprintf(results->interrupted_reason,
			 sizeof(results->interrupted_reason), "%s",
			 stop_reason);
	}
	/* A measurement without samples would be refused by every reader. */
	for (int k = 0; k < EXEC_NR_KINDS && !ret; k++)
		if (series->samples[k].nr)
			ret = add_kind(&measure, k, eviction, contrast);
	if (!ret && series->samples[EXEC_KIND_COLD].nr)
		ret = add_evictions(&measure, eviction);
	return ret;
}
