// SPDX-License-Identifier: GPL-2.0
/* The result model in its file forms: JSON round trip and refusals, CSV. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "client/client.h"
#include "harness/clock.h"
#include "machine/environment.h"
#include "results/results_csv.h"
#include "results/results_json.h"
#include "results_fixture.h"

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const double first_ns[] = { 1.7, 1.68, 1.75, 1.71, 3.2 };
static const double second_ns[] = { 140.5, 138.25, 142.125 };

static void build(struct cp_results *results)
{
	struct cp_level_estimate *level = &results->levels[0];

	fixture_results(results);
	fixture_measurement(results, "chase 4 KiB", first_ns, 5);
	fixture_measurement(results, "chase 256 MiB", second_ns, 3);
	cp_measurement_warn(&results->measurements[0], "unstable: \"test\"");
	snprintf(results->measurements[1].note,
		 sizeof(results->measurements[1].note), "exceeds L3 (32 MiB)");
	results->measurements[1].interrupted = true;
	results->interrupted = true;
	snprintf(results->interrupted_reason,
		 sizeof(results->interrupted_reason), "SIGTERM");
	results->nr_levels = 1;
	snprintf(level->name, sizeof(level->name), "L1d");
	level->nominal_bytes = 49152;
	level->effective_bytes = 40960;
	level->latency_ns = 1.7;
	level->latency_ticks = 3.4;
	level->latency_cycles = 5.1;
	level->threshold_ns = 3.07;
}

static void assert_same_measurement(const struct cp_measurement *a,
				    const struct cp_measurement *b)
{
	assert_string_equal(a->area, b->area);
	assert_string_equal(a->name, b->name);
	assert_string_equal(a->mode, b->mode);
	assert_string_equal(a->note, b->note);
	assert_int_equal(a->nr_samples, b->nr_samples);
	for (size_t i = 0; i < a->nr_samples; i++) {
		assert_true(a->ns[i] == b->ns[i]);
		assert_true(a->ticks[i] == b->ticks[i]);
	}
	assert_true(a->stats_ns.median == b->stats_ns.median);
	assert_true(a->stats_ns.median_ci_low == b->stats_ns.median_ci_low);
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->scale, b->scale);
	assert_true(a->core_cycles_per_tick == b->core_cycles_per_tick);
	assert_int_equal(a->interrupted, b->interrupted);
	assert_int_equal(cp_measurement_param(b, "size_bytes", -1), 4096);
	assert_int_equal(a->nr_warnings, b->nr_warnings);
}

/*
 * Rounds that all land on the same whole number of timer steps have a
 * bootstrap interval of no width; the median is known to a step only, so
 * the interval reaches one step (granularity over count times scale) past
 * it on each side, at run time and when read back.  Without a count, a
 * granularity or a computed interval, nothing moves.
 */
static void test_interval_covers_timer_step(void **state)
{
	const double ns[] = { 4, 4, 4, 4, 4, 4 };
	/* 26 ticks over 1000 iterations of 16 operations, at 2 ticks/ns */
	const double step = 26.0 / (1000 * 16) / 2;
	struct cp_results written, read, samples_only;
	struct cp_measurement *m, *uncounted;
	struct cp_error error;
	char *path;

	(void)state;
	fixture_results(&written);
	fixture_measurement(&written, "chase 4 KiB", ns, 6);
	fixture_measurement(&written, "chase 8 KiB", ns, 6);
	m = &written.measurements[0];
	uncounted = &written.measurements[1];
	uncounted->count = 0;
	assert_true(m->stats_ns.median_ci_low == 4);
	assert_true(m->stats_ns.median_ci_high == 4);
	cp_results_cover_timer_step(&written);
	assert_true(fabs(m->stats_ns.median_ci_low - (4 - step)) < 1e-12);
	assert_true(fabs(m->stats_ns.median_ci_high - (4 + step)) < 1e-12);
	assert_true(uncounted->stats_ns.median_ci_low == 4);
	assert_true(uncounted->stats_ns.median_ci_high == 4);

	path = fixture_write_json(&written, "step.json");
	if (cp_results_read_json(path, &read, &error))
		fail_msg("cannot read back: %s", error.msg);
	assert_true(read.measurements[0].stats_ns.median_ci_low ==
		    m->stats_ns.median_ci_low);
	assert_true(read.measurements[0].stats_ns.median_ci_high ==
		    m->stats_ns.median_ci_high);
	/* No interval computed: none made up. */
	if (cp_results_read_json_samples(path, &samples_only, &error))
		fail_msg("cannot read back: %s", error.msg);
	assert_true(isnan(samples_only.measurements[0].stats_ns.median_ci_low));
	cp_results_cover_timer_step(&samples_only);
	assert_true(isnan(samples_only.measurements[0].stats_ns.median_ci_low));
	assert_true(isnan(samples_only.measurements[0].stats_ns.median_ci_high));

	/* Without a granularity (a file of an older tool), as computed. */
	read.timer_granularity_ticks = 0;
	read.measurements[0].stats_ns.median_ci_low = 4;
	cp_results_cover_timer_step(&read);
	assert_true(read.measurements[0].stats_ns.median_ci_low == 4);
	cp_results_free(&samples_only);
	cp_results_free(&read);
	cp_results_free(&written);
	fixture_remove(path);
}

/* Setting a parameter again replaces it; a full table refuses a new one. */
static void test_param_set_replaces(void **state)
{
	struct cp_measurement m = { 0 };
	char name[32];

	(void)state;
	assert_int_equal(cp_measurement_add_param(&m, "ratio_milli", 1200), 0);
	assert_int_equal(cp_measurement_add_param(&m, "ratio_milli", 1180), 0);
	assert_int_equal(m.nr_params, 1);
	assert_int_equal(cp_measurement_param(&m, "ratio_milli", -1), 1180);
	for (int i = 1; i < CP_MAX_PARAMS; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		assert_int_equal(cp_measurement_add_param(&m, name, i), 0);
	}
	assert_int_equal(cp_measurement_add_param(&m, "one_more", 1), -ENOSPC);
	assert_int_equal(cp_measurement_add_param(&m, "p3", 30), 0);
	assert_int_equal(cp_measurement_param(&m, "p3", -1), 30);
}

static void test_json_round_trip(void **state)
{
	struct cp_results written, read;
	struct cp_error error;
	char *path;

	(void)state;
	build(&written);
	assert_int_equal(cp_results_skip_area(&written, "c2c",
					      "it needs two CPUs"), 0);
	assert_int_equal(cp_results_note(&written, "coldcache",
					 "wbinvd unavailable: %s", "no module"),
			 0);
	/* The same note again is kept once. */
	assert_int_equal(cp_results_note(&written, "coldcache",
					 "wbinvd unavailable: no module"), 0);
	assert_int_equal(cp_results_note(&written, "latency", "a \"note\""),
			 0);
	/* As a run does before it writes: the reader does the same. */
	cp_results_cover_timer_step(&written);
	path = fixture_write_json(&written, "run.json");
	if (cp_results_read_json(path, &read, &error))
		fail_msg("cannot read back: %s", error.msg);
	assert_string_equal(read.schema, CP_RESULTS_SCHEMA);
	assert_string_equal(read.tool_version, "9.9.9");
	assert_string_equal(read.environment.cpu_model, "Test CPU \"quoted\", v2");
	assert_string_equal(read.environment.kernel, "6.1.0-test");
	assert_string_equal(read.environment.governors, "performance");
	assert_string_equal(read.environment.boost, "off");
	assert_string_equal(read.environment.hypervisor, "none");
	assert_true(read.environment.load_average[0] == 0.25);
	assert_int_equal(read.environment.nr_online_cpus, 2);
	assert_true(read.environment.tsc_hz == FIXTURE_TSC_HZ);
	assert_true(read.environment.tsc_invariant);
	assert_true(read.timer_granularity_ticks == 26);
	assert_true(read.nothing_ticks_per_iteration == 1.25);
	assert_true(read.interrupted);
	assert_string_equal(read.interrupted_reason, "SIGTERM");
	assert_int_equal(read.nr_skipped_areas, 1);
	assert_string_equal(read.skipped_areas[0].name, "c2c");
	assert_string_equal(read.skipped_areas[0].reason, "it needs two CPUs");
	assert_int_equal(read.nr_area_notes, 2);
	assert_string_equal(read.area_notes[0].area, "coldcache");
	assert_string_equal(read.area_notes[0].text,
			    "wbinvd unavailable: no module");
	assert_string_equal(read.area_notes[1].area, "latency");
	assert_string_equal(read.area_notes[1].text, "a \"note\"");
	assert_int_equal(read.nr_measurements, 2);
	for (size_t i = 0; i < 2; i++)
		assert_same_measurement(&written.measurements[i],
					&read.measurements[i]);
	assert_string_equal(read.measurements[0].warnings[0],
			    "unstable: \"test\"");
	assert_int_equal(read.nr_levels, 1);
	assert_string_equal(read.levels[0].name, "L1d");
	assert_int_equal(read.levels[0].effective_bytes, 40960);
	assert_true(read.levels[0].threshold_ns == 3.07);
	cp_results_free(&read);
	cp_results_free(&written);
	fixture_remove(path);
}

/* @text in a new file @name of a fresh temporary directory, its path in
 * @path. */
static void write_text(const char *name, const char *text, char *path,
		       size_t len)
{
	char directory[512];
	FILE *file;

	fixture_temporary_directory(directory, sizeof(directory));
	snprintf(path, len, "%s/%s", directory, name);
	file = fopen(path, "w");
	assert_non_null(file);
	fputs(text, file);
	fclose(file);
}

/* Remove what write_text() made: the file at @path and its directory. */
static void remove_text(char *path)
{
	unlink(path);
	rmdir(dirname(path));
}

/* Write @text to a file and expect the reader to refuse it with @reason. */
static void assert_refused(const char *text, const char *reason)
{
	struct cp_results read;
	struct cp_error error;
	char path[600];

	write_text("bad.json", text, path, sizeof(path));
	assert_int_equal(cp_results_read_json(path, &read, &error), -EINVAL);
	if (!strstr(error.msg, reason))
		fail_msg("\"%s\" lacks \"%s\"", error.msg, reason);
	assert_non_null(strstr(error.msg, "bad.json"));
	remove_text(path);
}

static void test_json_refusals(void **state)
{
	(void)state;
	assert_refused("{ \"schema\": \"cacheprobe-results/2\", \"measurements\": [] }",
		       "schema \"cacheprobe-results/2\" is not cacheprobe-results/1");
	assert_refused("{ \"measurements\": [] }", "no \"schema\"");
	assert_refused("{ \"schema\": ",
		       "not valid JSON: the file ends in the middle of the document");
	assert_refused("", "the file is empty");
	assert_refused("{ \"schema\": \"cacheprobe-results/1\", \"measurements\": [] } x",
		       "not valid JSON: text after the end of the document at byte 57");
	assert_refused("{ \"schema\" \"cacheprobe-results/1\" }",
		       "not valid JSON: object property name separator ':' expected at byte 11");
	assert_refused("{ \"schema\": \"cacheprobe-results/1\" }",
		       "lacks \"measurements\"");
	assert_refused("{ \"schema\": \"cacheprobe-results/1\", \"measurements\": [ { \"area\": \"latency\", \"name\": \"x\", \"samples_ticks\": [1] } ] }",
		       "measurement 0 (latency: x [user]) lacks \"samples_ns\"");
	assert_refused("{ \"schema\": \"cacheprobe-results/1\", \"measurements\": [ { \"area\": \"latency\", \"name\": \"x\", \"samples_ns\": [1, \"a\"], \"samples_ticks\": [1, 2] } ] }",
		       "\"samples_ns\"[1] is not a number");
	assert_refused("{ \"schema\": \"cacheprobe-results/1\", \"measurements\": [ { \"name\": \"x\" } ] }",
		       "measurement 0 lacks \"area\"");
	assert_refused("null", "not a cacheprobe results file (the document is null)");
	assert_refused("{ \"schema\": \"pyperf/1\" }",
		       "not a cacheprobe results file (its schema is \"pyperf/1\")");
	assert_refused("{ \"schema\": \"cacheprobe-results/1\", \"measurements\": [ { \"area\": \"latency\", \"name\": \"x\", \"samples_ns\": [1, -Infinity], \"samples_ticks\": [1, 2] } ] }",
		       "\"samples_ns\"[1] is infinite");
}

/* Samples in rounds come back in rounds, their interval over rounds. */
static void test_json_rounds(void **state)
{
	const double ns[] = { 10, 10.1, 12, 12.1, 9, 9.1 };
	struct cp_results written, read;
	struct cp_error error;
	struct cp_measurement *m;
	double *ticks = malloc(sizeof(ns));
	char *path;

	(void)state;
	assert_non_null(ticks);
	fixture_results(&written);
	fixture_measurement(&written, "chase 1 MiB", ns, 6);
	m = &written.measurements[0];
	m->samples_per_round = 2;
	for (size_t i = 0; i < 6; i++)
		ticks[i] = ns[i] * FIXTURE_TSC_HZ / 1e9;
	assert_int_equal(cp_measurement_set_samples(m, ticks, 6,
						    FIXTURE_TSC_HZ), 0);
	cp_results_cover_timer_step(&written);
	path = fixture_write_json(&written, "rounds.json");
	if (cp_results_read_json(path, &read, &error))
		fail_msg("cannot read back: %s", error.msg);
	assert_int_equal(read.measurements[0].samples_per_round, 2);
	assert_true(read.measurements[0].stats_ns.median_ci_low ==
		    m->stats_ns.median_ci_low);
	assert_true(read.measurements[0].stats_ns.median_ci_high ==
		    m->stats_ns.median_ci_high);
	/* The rounds' medians are 10.05, 12.05 and 9.05. */
	assert_true(m->stats_ns.median_ci_high > 12);
	cp_results_free(&read);
	cp_results_free(&written);
	fixture_remove(path);
	assert_refused("{ \"schema\": \"cacheprobe-results/1\", \"measurements\": [ { \"area\": \"latency\", \"name\": \"x\", \"samples_per_round\": 0, \"samples_ns\": [1], \"samples_ticks\": [1] } ] }",
		       "measurement 0 (latency: x [user]): samples_per_round must be a whole number from 1 on");
	assert_refused("{ \"schema\": \"cacheprobe-results/1\", \"measurements\": [ { \"area\": \"latency\", \"name\": \"x\", \"samples_per_round\": 1.5, \"samples_ns\": [1], \"samples_ticks\": [1] } ] }",
		       "samples_per_round must be a whole number");
}

/* The keys of @object, sorted, comma-separated. */
static void keys_of(json_object *object, char *out, size_t len)
{
	const char *keys[64];
	size_t n = 0, used = 0;

	json_object_object_foreach(object, key, value) {
		(void)value;
		if (n < 64)
			keys[n++] = key;
	}
	qsort(keys, n, sizeof(keys[0]), compare_strings);
	out[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s",
					 i ? "," : "", keys[i]);
}

static void assert_keys(json_object *object, const char *expected)
{
	char actual[1024];

	keys_of(object, actual, sizeof(actual));
	assert_string_equal(actual, expected);
}

static json_object *get(json_object *object, const char *key)
{
	json_object *value = NULL;

	assert_true(json_object_object_get_ex(object, key, &value));
	return value;
}

static void test_area_notes_are_bounded(void **state)
{
	struct cp_results results;

	(void)state;
	cp_results_init(&results);
	for (int i = 0; i < CP_MAX_AREA_NOTES; i++)
		assert_int_equal(cp_results_note(&results, "coldcache",
						 "note %d", i), 0);
	assert_int_equal(cp_results_note(&results, "coldcache", "one more"),
			 -ENOSPC);
	/* A note already there is not an error when full. */
	assert_int_equal(cp_results_note(&results, "coldcache", "note 3"), 0);
	assert_int_equal(results.nr_area_notes, CP_MAX_AREA_NOTES);
	cp_results_free(&results);
}

/* Exactly the fields user/doc/results-schema.md documents. */
static void test_json_fields_match_the_schema_document(void **state)
{
	struct cp_results results;
	json_object *root, *measurement;
	char *path;

	(void)state;
	build(&results);
	path = fixture_write_json(&results, "run.json");
	root = json_object_from_file(path);
	assert_non_null(root);
	assert_keys(root, "area_notes,clock,environment,harness,interrupted,interrupted_reason,latency_levels,measurements,schema,skipped_areas,summary,tool");
	assert_keys(get(root, "summary"), "doubts,findings");
	assert_keys(json_object_array_get_idx(get(get(root, "summary"), "findings"), 0),
		    "answer,area,high,low,measured,topic,unit,value");
	assert_keys(get(root, "tool"), "name,version");
	assert_keys(get(root, "environment"),
		    "abi_version,boost,cpu_model,date,governors,hostname,huge_pages,hypervisor,isolated_cpus,kernel,load_average,microcode,module_version,nohz_full_cpus,online_cpus,smt");
	assert_keys(get(root, "clock"),
		    "timer_granularity_ticks,timer_overhead_ticks,tsc_hz,tsc_invariant,tsc_source");
	assert_keys(get(root, "harness"),
		    "nothing_ticks_per_iteration,samples_requested,target_sample_ns");
	measurement = json_object_array_get_idx(get(root, "measurements"), 0);
	assert_keys(measurement,
		    "area,core_cycles_per_tick,count,interrupted,mode,name,note,params,preempted_retaken,sample_outliers,samples_ns,samples_ticks,scale,stats_ns,warnings");
	assert_keys(get(measurement, "stats_ns"),
		    "cv,max,mean,median,median_ci95,min,outliers,p25,p5,p75,p95,stddev");
	assert_keys(get(get(measurement, "stats_ns"), "outliers"), "extreme,mild");
	assert_int_equal(json_object_array_length(get(measurement, "sample_outliers")), 5);
	/* 3.2 ns among 1.68..1.75 lies beyond 3 IQR. */
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
				    get(measurement, "sample_outliers"), 4)),
			    "extreme");
	assert_keys(json_object_array_get_idx(get(root, "latency_levels"), 0),
		    "effective_bytes,latency_cycles,latency_ns,latency_ticks,name,nominal_bytes,threshold_ns");
	json_object_put(root);
	cp_results_free(&results);
	fixture_remove(path);
}

/* Whole, pooled_runs too: a file holds one run, which reads as no pool
 * (a count there would hide a move during the run). */
static bool same_placement(const struct cp_placement_probe *a,
			   const struct cp_placement_probe *b)
{
	return a->cpus[0] == b->cpus[0] && a->cpus[1] == b->cpus[1] &&
	       a->round_trip_ns[0] == b->round_trip_ns[0] &&
	       a->round_trip_ns[1] == b->round_trip_ns[1] &&
	       a->pooled_runs == b->pooled_runs;
}

static void assert_same_placement(const struct cp_placement_probe *a,
				  const struct cp_placement_probe *b)
{
	if (!same_placement(a, b))
		fail_msg("placement %u:%u %g, %g ns (pool of %u), not %u:%u %g, %g ns (pool of %u)",
			 a->cpus[0], a->cpus[1], a->round_trip_ns[0],
			 a->round_trip_ns[1], a->pooled_runs, b->cpus[0],
			 b->cpus[1], b->round_trip_ns[0],
			 b->round_trip_ns[1], b->pooled_runs);
}

/* The placement probe is written as "placement" in "environment" when it
 * measured, and read back as written; without it, no key. */
static void test_json_placement_round_trip(void **state)
{
	const struct cp_placement_probe moved = {
		.cpus = { 2, 5 }, .round_trip_ns = { 56.25, 212.5 },
	};
	const struct cp_placement_probe start_only = {
		.cpus = { 0, 1 }, .round_trip_ns = { 57.125, 0 },
	};
	const struct cp_placement_probe *probes[] = { &moved, &start_only };
	struct cp_results written, read;
	struct cp_error error;
	json_object *root, *placement;
	char *path;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		build(&written);
		written.environment.placement = *probes[i];
		path = fixture_write_json(&written, "placement.json");
		root = json_object_from_file(path);
		assert_non_null(root);
		placement = get(get(root, "environment"), "placement");
		assert_keys(placement, "cpus,round_trip_ns");
		assert_int_equal(json_object_get_int(json_object_array_get_idx(
					 get(placement, "cpus"), 1)),
				 probes[i]->cpus[1]);
		assert_true(json_object_get_double(json_object_array_get_idx(
				    get(placement, "round_trip_ns"), 0)) ==
			    probes[i]->round_trip_ns[0]);
		json_object_put(root);
		if (cp_results_read_json(path, &read, &error))
			fail_msg("cannot read back: %s", error.msg);
		assert_same_placement(&read.environment.placement, probes[i]);
		cp_results_free(&read);
		cp_results_free(&written);
		fixture_remove(path);
	}
	/* Not measured: not written, and read back as not measured. */
	build(&written);
	path = fixture_write_json(&written, "unmeasured.json");
	root = json_object_from_file(path);
	assert_false(json_object_object_get_ex(get(root, "environment"),
					       "placement", NULL));
	json_object_put(root);
	assert_int_equal(cp_results_read_json(path, &read, &error), 0);
	assert_same_placement(&read.environment.placement,
			      &written.environment.placement);
	assert_true(read.environment.placement.round_trip_ns[0] == 0);
	cp_results_free(&read);
	cp_results_free(&written);
	fixture_remove(path);
}

/* A document whose "environment" holds "placement": @placement (or none
 * when NULL), read: the file must load; its probe in *@out. */
static void read_placement_text(const char *placement,
				struct cp_placement_probe *out)
{
	struct cp_results read;
	struct cp_error error;
	char text[1024], path[600];

	snprintf(text, sizeof(text),
		 "{ \"schema\": \"cacheprobe-results/1\", \"environment\": { \"online_cpus\": 2%s%s }, \"measurements\": [] }",
		 placement ? ", \"placement\": " : "",
		 placement ? placement : "");
	write_text("placement.json", text, path, sizeof(path));
	if (cp_results_read_json(path, &read, &error))
		fail_msg("\"placement\": %s refused the file: %s", placement,
			 error.msg);
	assert_int_equal(read.environment.nr_online_cpus, 2);
	*out = read.environment.placement;
	cp_results_free(&read);
	remove_text(path);
}

/*
 * The reader is lenient about "environment" (descriptive, not what the
 * verdicts rest on): a malformed placement does not refuse the file but
 * reads as not measured, whole, never in part.
 */
static void test_json_placement_malformed(void **state)
{
	static const char *const malformed[] = {
		"{ \"cpus\": [3, -1], \"round_trip_ns\": [56.5, 57] }",
		"{ \"cpus\": [3, 4.5], \"round_trip_ns\": [56.5, 57] }",
		"{ \"cpus\": [3, 4294967296], \"round_trip_ns\": [56.5, 57] }",
		"{ \"cpus\": [3], \"round_trip_ns\": [56.5, 57] }",
		"{ \"cpus\": [3, 4, 5], \"round_trip_ns\": [56.5, 57] }",
		"{ \"cpus\": \"3,4\", \"round_trip_ns\": [56.5, 57] }",
		"{ \"cpus\": [3, \"4\"], \"round_trip_ns\": [56.5, 57] }",
		"{ \"round_trip_ns\": [56.5, 57] }",
		"{ \"cpus\": [3, 4], \"round_trip_ns\": [56.5, NaN] }",
		"{ \"cpus\": [3, 4], \"round_trip_ns\": [Infinity, 57] }",
		"{ \"cpus\": [3, 4], \"round_trip_ns\": [56.5, -Infinity] }",
		"{ \"cpus\": [3, 4], \"round_trip_ns\": [-56.5, 57] }",
		"{ \"cpus\": [3, 4], \"round_trip_ns\": [56.5] }",
		"{ \"cpus\": [3, 4], \"round_trip_ns\": [56.5, 57, 58] }",
		"{ \"cpus\": [3, 4], \"round_trip_ns\": [56.5, null] }",
		"{ \"cpus\": [3, 4], \"round_trip_ns\": 56.5 }",
		"{ \"cpus\": [3, 4] }",
		"[3, 4, 56.5, 57]",
		"null",
	};
	const struct cp_placement_probe none = { .cpus = { 0 } };
	const struct cp_placement_probe whole = {
		.cpus = { 3, 4 }, .round_trip_ns = { 56.5, 57 },
	};
	struct cp_placement_probe probe;

	(void)state;
	/* Well formed, it is read: what the malformed ones fall short of. */
	read_placement_text("{ \"cpus\": [3, 4], \"round_trip_ns\": [56.5, 57] }",
			    &probe);
	assert_same_placement(&probe, &whole);
	read_placement_text("{ \"cpus\": [3, 4], \"round_trip_ns\": [56.5, 0] }",
			    &probe);
	assert_true(probe.round_trip_ns[0] == 56.5);
	assert_int_equal(probe.cpus[1], 4);
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		read_placement_text(malformed[i], &probe);
		if (!same_placement(&probe, &none))
			fail_msg("\"placement\": %s read as %u:%u %g, %g ns",
				 malformed[i], probe.cpus[0], probe.cpus[1],
				 probe.round_trip_ns[0],
				 probe.round_trip_ns[1]);
	}
	/* Absent, as in files from before the probe. */
	read_placement_text(NULL, &probe);
	assert_same_placement(&probe, &none);
}

static void test_json_missing_file(void **state)
{
	struct cp_results read;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_results_read_json("no-such-results.json", &read,
					      &error), -ENOENT);
	assert_non_null(strstr(error.msg, "no-such-results.json"));
	assert_int_equal(cp_results_read_json("/", &read, &error), -EISDIR);
	assert_string_equal(error.msg, "cannot read /: Is a directory");
}

static size_t count_fields(const char *line)
{
	size_t fields = 1;
	bool quoted = false;

	for (const char *c = line; *c && *c != '\n'; c++) {
		if (*c == '"')
			quoted = !quoted;
		else if (*c == ',' && !quoted)
			fields++;
	}
	return fields;
}

/*
 * A run with the module loaded: the environment takes the module's
 * version and ABI version from its info, the clock its rate (the kernel's
 * 2.4 GHz), and the file says so and reads back the same.
 */
static void test_json_round_trip_module_loaded(void **state)
{
	struct cp_module_info info = {
		.module_version = "0.7.1", .abi_version = 2,
		.tsc_khz = 2400000,
	};
	struct cp_results written, read;
	struct cp_clock clock;
	struct cp_error error;
	char *path;

	(void)state;
	build(&written);
	cp_environment_note_module(&written.environment, &info);
	cp_clock_init(&clock, info.tsc_khz);
	cp_environment_note_clock(&written.environment, &clock);
	assert_string_equal(written.environment.tsc_source, "module");
	path = fixture_write_json(&written, "module.json");
	if (cp_results_read_json(path, &read, &error))
		fail_msg("cannot read back: %s", error.msg);
	assert_string_equal(read.environment.module_version, "0.7.1");
	assert_int_equal(read.environment.abi_version, 2);
	assert_string_equal(read.environment.tsc_source, "module");
	assert_true(read.environment.tsc_hz == 2.4e9);
	assert_int_equal(read.environment.tsc_invariant, clock.tsc_invariant);
	/* Without the module the rate is calibrated, and the file says so. */
	clock.source = CP_TSC_CALIBRATED;
	cp_environment_note_clock(&written.environment, &clock);
	assert_string_equal(written.environment.tsc_source, "calibrated");
	cp_results_free(&read);
	cp_results_free(&written);
	fixture_remove(path);
}

static void test_csv(void **state)
{
	struct cp_results results;
	char *text = NULL, *line;
	size_t len = 0, header_fields;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	build(&results);
	snprintf(results.measurements[1].name,
		 sizeof(results.measurements[1].name), "size, \"big\"");
	assert_int_equal(cp_results_write_csv(&results, out), 0);
	fclose(out);
	header_fields = count_fields(text);
	assert_int_equal(header_fields, 24);
	assert_non_null(strstr(text, ",interrupted,warnings,run_interrupted\n"));
	line = strchr(text, '\n') + 1;
	assert_non_null(strstr(line, "latency,chase 4 KiB,user,size_bytes=4096,5,1000,16,1.71,"));
	assert_int_equal(count_fields(line), header_fields);
	/* A complete measurement of an interrupted run: its own flag false,
	 * the run's true. */
	assert_non_null(strstr(line, ",false,\"unstable: \"\"test\"\"\",true\n"));
	line = strchr(line, '\n') + 1;
	assert_non_null(strstr(line, "latency,\"size, \"\"big\"\"\",user,"));
	assert_non_null(strstr(line, ",true,,true\n"));
	assert_int_equal(count_fields(line), header_fields);
	free(text);
	cp_results_free(&results);
}

/* A run that finished says so on every row. */
static void test_csv_run_complete(void **state)
{
	struct cp_results results;
	char *text = NULL, *line;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	build(&results);
	results.interrupted = false;
	results.measurements[1].interrupted = false;
	assert_int_equal(cp_results_write_csv(&results, out), 0);
	fclose(out);
	line = strchr(text, '\n') + 1;
	assert_non_null(strstr(line, "\",false\n"));
	line = strchr(line, '\n') + 1;
	assert_non_null(strstr(line, ",false,,false\n"));
	assert_null(strstr(line, "true"));
	free(text);
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_param_set_replaces),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_area_notes_are_bounded),
		cmocka_unit_test(test_json_fields_match_the_schema_document),
		cmocka_unit_test(test_json_refusals),
		cmocka_unit_test(test_json_placement_round_trip),
		cmocka_unit_test(test_json_placement_malformed),
		cmocka_unit_test(test_json_rounds),
		cmocka_unit_test(test_interval_covers_timer_step),
		cmocka_unit_test(test_json_missing_file),
		cmocka_unit_test(test_json_round_trip_module_loaded),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_csv_run_complete),
	};

	return cmocka_run_group_tests_name("results_files", tests, NULL, NULL);
}
