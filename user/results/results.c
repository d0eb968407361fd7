// SPDX-License-Identifier: GPL-2.0
#include "results/results.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cp_results_init(struct cp_results *results)
{
	memset(results, 0, sizeof(*results));
	snprintf(results->schema, sizeof(results->schema), "%s",
		 CP_RESULTS_SCHEMA);
}

int cp_results_skip_area(struct cp_results *results, const char *name,
			 const char *reason)
{
	struct cp_skipped_area *skipped;

	if (results->nr_skipped_areas == CP_MAX_SKIPPED_AREAS)
		return -ENOSPC;
	skipped = &results->skipped_areas[results->nr_skipped_areas++];
	snprintf(skipped->name, sizeof(skipped->name), "%s", name);
	snprintf(skipped->reason, sizeof(skipped->reason), "%s", reason);
	return 0;
}

int cp_results_note(struct cp_results *results, const char *area,
		    const char *fmt, ...)
{
	struct cp_area_note note;
	va_list args;

	snprintf(note.area, sizeof(note.area), "%s", area);
	va_start(args, fmt);
	vsnprintf(note.text, sizeof(note.text), fmt, args);
	va_end(args);
	for (size_t i = 0; i < results->nr_area_notes; i++)
		if (!strcmp(results->area_notes[i].area, note.area) &&
		    !strcmp(results->area_notes[i].text, note.text))
			return 0;
	if (results->nr_area_notes == CP_MAX_AREA_NOTES)
		return -ENOSPC;
	results->area_notes[results->nr_area_notes++] = note;
	return 0;
}

void cp_results_free(struct cp_results *results)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		free(results->measurements[i].ticks);
		free(results->measurements[i].ns);
		free(results->measurements[i].warnings);
	}
	free(results->measurements);
	memset(results, 0, sizeof(*results));
}

struct cp_measurement *cp_results_add(struct cp_results *results)
{
	struct cp_measurement *measurement;

	if (results->nr_measurements == results->capacity) {
		size_t capacity = results->capacity ? 2 * results->capacity : 16;
		struct cp_measurement *grown =
			realloc(results->measurements,
				capacity * sizeof(*grown));

		if (!grown)
			return NULL;
		results->measurements = grown;
		results->capacity = capacity;
	}
	measurement = &results->measurements[results->nr_measurements++];
	memset(measurement, 0, sizeof(*measurement));
	snprintf(measurement->mode, sizeof(measurement->mode), "user");
	return measurement;
}

int cp_measurement_set_samples(struct cp_measurement *measurement,
			       double *ticks, size_t n, double tsc_hz)
{
	double *ns = malloc((n ? n : 1) * sizeof(*ns));

	if (!ns) {
		free(ticks);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		ns[i] = ticks[i] * 1e9 / tsc_hz;
	free(measurement->ticks);
	free(measurement->ns);
	measurement->ticks = ticks;
	measurement->ns = ns;
	measurement->nr_samples = n;
	return cp_stats_compute_rounds(ns, n, measurement->samples_per_round,
				       &measurement->stats_ns);
}

/* One timer step over @m's operations, in ns; 0 when unknown. */
static double timer_step_ns(const struct cp_measurement *m,
			    double granularity_ticks, double tsc_hz)
{
	double operations = (double)m->count * (double)m->scale;

	if (!(operations > 0 && granularity_ticks > 0 && tsc_hz > 0))
		return 0;
	return granularity_ticks / operations * 1e9 / tsc_hz;
}

void cp_results_cover_timer_step(struct cp_results *results)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		struct cp_measurement *m = &results->measurements[i];
		double step = timer_step_ns(m, results->timer_granularity_ticks,
					    results->environment.tsc_hz);

		/* NaN bounds stay NaN: no interval was computed. */
		m->stats_ns.median_ci_low -= step;
		m->stats_ns.median_ci_high += step;
	}
}

int cp_measurement_add_param(struct cp_measurement *measurement,
			     const char *name, int64_t value)
{
	struct cp_param *param;

	for (size_t i = 0; i < measurement->nr_params; i++)
		if (strcmp(measurement->params[i].name, name) == 0) {
			measurement->params[i].value = value;
			return 0;
		}
	if (measurement->nr_params == CP_MAX_PARAMS)
		return -ENOSPC;
	param = &measurement->params[measurement->nr_params++];
	snprintf(param->name, sizeof(param->name), "%s", name);
	param->value = value;
	return 0;
}

int64_t cp_measurement_param(const struct cp_measurement *measurement,
			     const char *name, int64_t fallback)
{
	for (size_t i = 0; i < measurement->nr_params; i++)
		if (strcmp(measurement->params[i].name, name) == 0)
			return measurement->params[i].value;
	return fallback;
}

/* Whether parameters @a and @b are both CPUs and not the same one. */
static bool two_cpus(const struct cp_measurement *m, const char *a,
		     const char *b)
{
	int64_t first = cp_measurement_param(m, a, -1);
	int64_t second = cp_measurement_param(m, b, -1);

	return first >= 0 && second >= 0 && first != second;
}

bool cp_measurement_spans_cpus(const struct cp_measurement *measurement)
{
	return cp_measurement_param(measurement, "threads", 1) >= 2 ||
	       two_cpus(measurement, "producer", "consumer") ||
	       two_cpus(measurement, "first", "second");
}

void cp_measurement_warn(struct cp_measurement *measurement,
			 const char *fmt, ...)
{
	va_list args;

	if (measurement->nr_warnings == CP_MAX_WARNINGS)
		return;
	if (!measurement->warnings)
		measurement->warnings = calloc(CP_MAX_WARNINGS,
					       sizeof(*measurement->warnings));
	/* Without memory for it the warning is lost, not the run. */
	if (!measurement->warnings)
		return;
	va_start(args, fmt);
	vsnprintf(measurement->warnings[measurement->nr_warnings++],
		  sizeof(measurement->warnings[0]), fmt, args);
	va_end(args);
}

const struct cp_measurement *
cp_results_find(const struct cp_results *results, const char *area,
		const char *name)
{
	return cp_results_find_mode(results, area, name, NULL);
}

const struct cp_measurement *
cp_results_find_mode(const struct cp_results *results, const char *area,
		     const char *name, const char *mode)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (strcmp(m->area, area) == 0 && strcmp(m->name, name) == 0 &&
		    (!mode || strcmp(m->mode, mode) == 0))
			return m;
	}
	return NULL;
}
