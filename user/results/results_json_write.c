// SPDX-License-Identifier: GPL-2.0
/* The JSON writer; results_json_read.c reads the same layout. */
#include "results/results_json.h"

#include <errno.h>
#include <json-c/json.h>

#include "areas/c2c/c2c_matrix.h"
#include "machine/placement.h"
#include "results/summary.h"
#include "results/json_print.h"

static void add(json_object *object, const char *key, json_object *value)
{
	json_object_object_add(object, key, value);
}

static json_object *doubles(const double *values, size_t n)
{
	json_object *array = json_object_new_array_ext((int)n);

	for (size_t i = 0; i < n; i++)
		json_object_array_add(array, json_object_new_double(values[i]));
	return array;
}

static json_object *placement_json(const struct cp_placement_probe *probe)
{
	json_object *object = json_object_new_object();
	json_object *cpus = json_object_new_array_ext(2);

	for (size_t i = 0; i < 2; i++)
		json_object_array_add(cpus,
				      json_object_new_int64(probe->cpus[i]));
	add(object, "cpus", cpus);
	add(object, "round_trip_ns", doubles(probe->round_trip_ns, 2));
	return object;
}

static json_object *environment_json(const struct cp_environment *env)
{
	json_object *object = json_object_new_object();
	json_object *load = doubles(env->load_average, 3);

	add(object, "cpu_model", json_object_new_string(env->cpu_model));
	add(object, "microcode", json_object_new_string(env->microcode));
	add(object, "kernel", json_object_new_string(env->kernel));
	add(object, "hostname", json_object_new_string(env->hostname));
	add(object, "date", json_object_new_string(env->date));
	add(object, "module_version",
	    json_object_new_string(env->module_version));
	add(object, "abi_version", json_object_new_int64(env->abi_version));
	add(object, "governors", json_object_new_string(env->governors));
	add(object, "boost", json_object_new_string(env->boost));
	add(object, "smt", json_object_new_string(env->smt));
	add(object, "hypervisor", json_object_new_string(env->hypervisor));
	add(object, "isolated_cpus",
	    json_object_new_string(env->isolated_cpus));
	add(object, "nohz_full_cpus",
	    json_object_new_string(env->nohz_full_cpus));
	add(object, "huge_pages", json_object_new_string(env->huge_pages));
	add(object, "load_average", load);
	add(object, "online_cpus", json_object_new_int64(env->nr_online_cpus));
	/* Absent when not measured, as in files from before the probe: a
	 * reader takes either for "not measured". */
	if (cp_placement_measured(&env->placement))
		add(object, "placement", placement_json(&env->placement));
	return object;
}

static json_object *clock_json(const struct cp_results *results)
{
	const struct cp_environment *env = &results->environment;
	json_object *object = json_object_new_object();

	add(object, "tsc_hz", json_object_new_double(env->tsc_hz));
	add(object, "tsc_source", json_object_new_string(env->tsc_source));
	add(object, "tsc_invariant",
	    json_object_new_boolean(env->tsc_invariant));
	add(object, "timer_overhead_ticks",
	    json_object_new_double(results->timer_overhead_ticks));
	add(object, "timer_granularity_ticks",
	    json_object_new_double(results->timer_granularity_ticks));
	return object;
}

static json_object *harness_json(const struct cp_results *results)
{
	json_object *object = json_object_new_object();

	add(object, "samples_requested",
	    json_object_new_int64(results->samples_requested));
	add(object, "target_sample_ns",
	    json_object_new_double(results->target_sample_ns));
	add(object, "nothing_ticks_per_iteration",
	    json_object_new_double(results->nothing_ticks_per_iteration));
	return object;
}

static json_object *stats_json(const struct cp_stats *stats)
{
	json_object *object = json_object_new_object();
	json_object *outliers = json_object_new_object();
	double interval[2] = { stats->median_ci_low, stats->median_ci_high };

	add(object, "median", json_object_new_double(stats->median));
	add(object, "mean", json_object_new_double(stats->mean));
	add(object, "stddev", json_object_new_double(stats->stddev));
	add(object, "min", json_object_new_double(stats->min));
	add(object, "max", json_object_new_double(stats->max));
	add(object, "p5", json_object_new_double(stats->p5));
	add(object, "p25", json_object_new_double(stats->p25));
	add(object, "p75", json_object_new_double(stats->p75));
	add(object, "p95", json_object_new_double(stats->p95));
	add(object, "cv", json_object_new_double(stats->cv));
	add(object, "median_ci95", doubles(interval, 2));
	add(outliers, "mild", json_object_new_int64((int64_t)stats->mild_outliers));
	add(outliers, "extreme",
	    json_object_new_int64((int64_t)stats->extreme_outliers));
	add(object, "outliers", outliers);
	return object;
}

static json_object *outlier_classes(const struct cp_measurement *m)
{
	json_object *array = json_object_new_array_ext((int)m->nr_samples);

	for (size_t i = 0; i < m->nr_samples; i++)
		json_object_array_add(array, json_object_new_string(
			cp_outlier_name(cp_stats_classify(m->ns[i],
							  m->stats_ns.p25,
							  m->stats_ns.p75))));
	return array;
}

static json_object *measurement_json(const struct cp_measurement *m)
{
	json_object *object = json_object_new_object();
	json_object *params = json_object_new_object();
	json_object *warnings = json_object_new_array();

	add(object, "area", json_object_new_string(m->area));
	add(object, "name", json_object_new_string(m->name));
	add(object, "mode", json_object_new_string(m->mode));
	add(object, "note", json_object_new_string(m->note));
	for (size_t i = 0; i < m->nr_params; i++)
		add(params, m->params[i].name,
		    json_object_new_int64(m->params[i].value));
	add(object, "params", params);
	add(object, "count", json_object_new_int64((int64_t)m->count));
	add(object, "scale", json_object_new_int64((int64_t)m->scale));
	add(object, "core_cycles_per_tick",
	    m->core_cycles_per_tick > 0
		    ? json_object_new_double(m->core_cycles_per_tick)
		    : NULL);
	add(object, "interrupted", json_object_new_boolean(m->interrupted));
	add(object, "preempted_retaken",
	    json_object_new_int64(m->preempted_retaken));
	if (m->samples_per_round)
		add(object, "samples_per_round",
		    json_object_new_int64(m->samples_per_round));
	add(object, "samples_ticks", doubles(m->ticks, m->nr_samples));
	add(object, "samples_ns", doubles(m->ns, m->nr_samples));
	add(object, "sample_outliers", outlier_classes(m));
	add(object, "stats_ns", stats_json(&m->stats_ns));
	for (size_t i = 0; i < m->nr_warnings; i++)
		json_object_array_add(warnings,
				      json_object_new_string(m->warnings[i]));
	add(object, "warnings", warnings);
	return object;
}

static json_object *level_json(const struct cp_level_estimate *level)
{
	json_object *object = json_object_new_object();

	add(object, "name", json_object_new_string(level->name));
	add(object, "nominal_bytes",
	    json_object_new_int64((int64_t)level->nominal_bytes));
	add(object, "effective_bytes",
	    json_object_new_int64((int64_t)level->effective_bytes));
	add(object, "latency_ns", json_object_new_double(level->latency_ns));
	add(object, "latency_ticks",
	    json_object_new_double(level->latency_ticks));
	add(object, "latency_cycles",
	    level->latency_cycles > 0
		    ? json_object_new_double(level->latency_cycles)
		    : NULL);
	add(object, "threshold_ns",
	    level->threshold_ns > 0 ? json_object_new_double(level->threshold_ns)
				    : NULL);
	return object;
}

static json_object *skipped_json(const struct cp_results *results)
{
	json_object *list = json_object_new_array();

	for (size_t i = 0; i < results->nr_skipped_areas; i++) {
		const struct cp_skipped_area *skipped =
			&results->skipped_areas[i];
		json_object *item = json_object_new_object();

		add(item, "name", json_object_new_string(skipped->name));
		add(item, "reason", json_object_new_string(skipped->reason));
		json_object_array_add(list, item);
	}
	return list;
}

static json_object *area_notes_json(const struct cp_results *results)
{
	json_object *list = json_object_new_array();

	for (size_t i = 0; i < results->nr_area_notes; i++) {
		const struct cp_area_note *note = &results->area_notes[i];
		json_object *item = json_object_new_object();

		add(item, "area", json_object_new_string(note->area));
		add(item, "note", json_object_new_string(note->text));
		json_object_array_add(list, item);
	}
	return list;
}

static json_object *results_json(const struct cp_results *results)
{
	json_object *root = json_object_new_object();
	json_object *tool = json_object_new_object();
	json_object *measurements = json_object_new_array();
	json_object *levels = json_object_new_array();
	json_object *pairs;

	add(root, "schema", json_object_new_string(results->schema));
	add(tool, "name", json_object_new_string("cacheprobe-run"));
	add(tool, "version", json_object_new_string(results->tool_version));
	add(root, "tool", tool);
	add(root, "summary", cp_summary_json(results));
	add(root, "interrupted", json_object_new_boolean(results->interrupted));
	if (results->interrupted && results->interrupted_reason[0])
		add(root, "interrupted_reason",
		    json_object_new_string(results->interrupted_reason));
	add(root, "skipped_areas", skipped_json(results));
	add(root, "area_notes", area_notes_json(results));
	add(root, "environment", environment_json(&results->environment));
	add(root, "clock", clock_json(results));
	add(root, "harness", harness_json(results));
	for (size_t i = 0; i < results->nr_measurements; i++)
		json_object_array_add(measurements,
				      measurement_json(&results->measurements[i]));
	add(root, "measurements", measurements);
	for (size_t i = 0; i < results->nr_levels; i++)
		json_object_array_add(levels, level_json(&results->levels[i]));
	add(root, "latency_levels", levels);
	pairs = cp_c2c_pairs_json(results);
	if (pairs)
		add(root, "c2c_pairs", pairs);
	return root;
}

int cp_results_write_json(const struct cp_results *results, FILE *out)
{
	return cp_json_print(results_json(results), out);
}
