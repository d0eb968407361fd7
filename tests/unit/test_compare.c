// SPDX-License-Identifier: GPL-2.0
/* `cacheprobe-run compare` on crafted result files: a clear regression,
 * noise only, an improvement, a change under the threshold, kernel- and
 * user-mode measurements of one name, incompatible
 * and unreadable files, and misuse. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "cli/commands.h"
#include "cli/compare_output.h"
#include "results/results_index.h"
#include "results/results_pool.h"
#include "stats/comparison.h"
#include "results_fixture.h"

#define NR_SAMPLES 15

/* @center with a deterministic +-1 % spread; @phase shifts the pattern so
 * two sets from one distribution are not identical. */
static void samples(double center, int phase, double *out)
{
	for (int i = 0; i < NR_SAMPLES; i++)
		out[i] = center * (1 + 0.01 * (((i * 7 + phase) % 11) - 5) / 5.0);
}

/* The parameters @m's area gives a row on @cpus: "0:1", two CPUs, or
 * "0:0", one; in "xcore 0:0" a producer and consumer on CPU 0. */
static void on_cpus(struct cp_measurement *m, const char *cpus)
{
	int first = cpus[0] - '0', second = cpus[2] - '0';

	if (!strcmp(m->area, "bounce")) {
		cp_measurement_add_param(m, "threads", first == second ? 1 : 2);
	} else if (!strcmp(m->area, "xcore")) {
		cp_measurement_add_param(m, "producer", first);
		cp_measurement_add_param(m, "consumer", second);
	} else if (!strcmp(m->area, "c2c")) {
		cp_measurement_add_param(m, "first", first);
		cp_measurement_add_param(m, "second", second);
	}
}

/* A result file with "chase 4 KiB" at 1.7 ns and "chase 1 MiB" at
 * @slow_center ns, then a row "0:1" at @across_ns of @across (an area,
 * its row on CPUs 0 and 1, as the area's parameters say; "AREA 0:0" on
 * one CPU; NULL: none), its CPU placement @placement (NULL: not
 * measured). */
static char *placed_file_at(double slow_center, double across_ns, int phase,
			    const struct cp_placement_probe *placement,
			    const char *across, const char *name)
{
	struct cp_results results;
	double values[NR_SAMPLES];
	char *path;

	fixture_results(&results);
	if (placement)
		results.environment.placement = *placement;
	samples(1.7, phase, values);
	fixture_measurement(&results, "chase 4 KiB", values, NR_SAMPLES);
	samples(slow_center, phase, values);
	fixture_measurement(&results, "chase 1 MiB", values, NR_SAMPLES);
	if (across) {
		const char *cpus = strchr(across, ' ');
		struct cp_measurement *m;
		char area[32];

		snprintf(area, sizeof(area), "%.*s",
			 (int)strcspn(across, " "), across);
		samples(across_ns, phase, values);
		m = fixture_area_measurement(&results, area, "user", "0:1",
					     values, NR_SAMPLES);
		on_cpus(m, cpus ? cpus + 1 : "0:1");
	}
	path = fixture_write_json(&results, name);
	cp_results_free(&results);
	return path;
}

/* The same with the row "0:1" at 40 ns. */
static char *placed_file(double slow_center, int phase,
			 const struct cp_placement_probe *placement,
			 const char *across, const char *name)
{
	return placed_file_at(slow_center, 40.0, phase, placement, across,
			      name);
}

static char *result_file(double slow_center, int phase, const char *name)
{
	return placed_file(slow_center, phase, NULL, NULL, name);
}

/* What the last compare() printed on stdout. */
static char *printed;

/* Run compare with the words of @first.. (NULL-terminated), keeping its
 * standard output in printed. */
static int compare(const char *first, ...)
{
	char *argv[16] = { "compare" };
	int argc = 1, status;
	size_t printed_len = 0;
	va_list args;
	FILE *saved;

	va_start(args, first);
	for (const char *word = first; word && argc < 15;
	     word = va_arg(args, const char *))
		argv[argc++] = (char *)word;
	va_end(args);
	optind = 0;	/* glibc: start getopt afresh */
	fflush(stdout);
	saved = stdout;
	free(printed);
	printed = NULL;
	stdout = open_memstream(&printed, &printed_len);
	status = cmd_compare(argc, argv);
	fclose(stdout);
	stdout = saved;
	return status;
}

static void test_regression(void **state)
{
	char *base = result_file(10.0, 0, "base.json");
	char *slower = result_file(11.0, 3, "slower.json");

	(void)state;
	assert_int_equal(compare(base, slower, NULL), 1);
	assert_non_null(strstr(printed, "latency: chase 1 MiB"));
	assert_non_null(strstr(printed, "1.100"));
	assert_non_null(strstr(printed, "REGRESSION"));
	assert_non_null(strstr(printed,
			       "2 measurements: 1 regressions"));
	/* The other way round it is an improvement. */
	assert_int_equal(compare(slower, base, NULL), 0);
	assert_non_null(strstr(printed, "improvement"));
	/* A threshold above the change forgives it. */
	assert_int_equal(compare("--threshold=15", base, slower, NULL), 0);
	fixture_remove(base);
	fixture_remove(slower);
}

static void test_noise_only(void **state)
{
	char *base = result_file(10.0, 0, "base.json");
	char *again = result_file(10.0, 4, "again.json");

	(void)state;
	assert_int_equal(compare(base, again, NULL), 0);
	assert_null(strstr(printed, "REGRESSION"));
	assert_non_null(strstr(printed, "2 measurements: 0 regressions"));
	assert_int_equal(compare(base, base, NULL), 0);
	fixture_remove(base);
	fixture_remove(again);
}

/* 3 % slower: significant, but under the default 5 %. */
static void test_small_change(void **state)
{
	char *base = result_file(10.0, 0, "base.json");
	char *slightly = result_file(10.3, 0, "slightly.json");

	(void)state;
	assert_int_equal(compare(base, slightly, NULL), 0);
	assert_int_equal(compare("--threshold", "2", base, slightly, NULL), 1);
	/* At a level no test of 15 samples can reach, nothing counts. */
	assert_int_equal(compare("--threshold=2", "--alpha=1e-12", base,
				 slightly, NULL), 0);
	fixture_remove(base);
	fixture_remove(slightly);
}

/* Measurements in one file only are counted, the others compared. */
static void test_partly_common(void **state)
{
	struct cp_results fewer;
	double values[NR_SAMPLES];
	char *base = result_file(10.0, 0, "base.json");
	char *path;

	(void)state;
	fixture_results(&fewer);
	samples(1.7, 2, values);
	fixture_measurement(&fewer, "chase 4 KiB", values, NR_SAMPLES);
	path = fixture_write_json(&fewer, "fewer.json");
	assert_int_equal(compare(base, path, NULL), 0);
	assert_non_null(strstr(printed,
			       "not compared: 1 only in the baseline, 0 only in the new run"));
	assert_non_null(strstr(printed, "1 measurements: "));
	cp_results_free(&fewer);
	fixture_remove(base);
	fixture_remove(path);
}

/* A c2c file with "cas 0:1" in both modes, in the order @kernel_first
 * says: user at 40 ns, kernel at @kernel_center ns. */
static char *two_mode_file(double kernel_center, bool kernel_first,
			   int phase, const char *name)
{
	struct cp_results results;
	double user_values[NR_SAMPLES], kernel_values[NR_SAMPLES];
	char *path;

	fixture_results(&results);
	samples(40.0, phase, user_values);
	samples(kernel_center, phase, kernel_values);
	for (int i = 0; i < 2; i++) {
		bool kernel = (i == 0) == kernel_first;

		fixture_area_measurement(&results, "c2c",
					 kernel ? "kernel" : "user", "cas 0:1",
					 kernel ? kernel_values : user_values,
					 NR_SAMPLES);
	}
	path = fixture_write_json(&results, name);
	cp_results_free(&results);
	return path;
}

/* The line of printed that starts with @label (after the indent), in a
 * buffer that the next call reuses. */
static const char *row(const char *label)
{
	static char line[200];
	char key[80];
	const char *at;

	snprintf(key, sizeof(key), "\n  %s ", label);
	at = strstr(printed, key);
	assert_non_null(at);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(at + 1, "\n"),
		 at + 1);
	return line;
}

/* Kernel-mode rows share names with user-mode ones: a kernel-mode
 * slowdown is a regression, and each row says its mode. */
static void test_kernel_mode_regression(void **state)
{
	char *base = two_mode_file(40.0, false, 0, "base.json");
	char *slower = two_mode_file(60.0, false, 3, "slower.json");
	const char *kernel_row, *user_row;

	(void)state;
	assert_int_equal(compare(base, slower, NULL), 1);
	assert_non_null(strstr(printed,
			       "2 measurements: 1 regressions"));
	kernel_row = row("c2c: cas 0:1 [kernel]");
	assert_non_null(strstr(kernel_row, " 1.500 "));
	assert_non_null(strstr(kernel_row, "REGRESSION"));
	user_row = row("c2c: cas 0:1 [user]");
	assert_null(strstr(user_row, "REGRESSION"));
	fixture_remove(base);
	fixture_remove(slower);
}

/* Rows pair by mode, not by position: the files list the modes in
 * opposite orders and kernel-mode rounds are 2.5 times the user ones. */
static void test_pairs_by_mode(void **state)
{
	char *base = two_mode_file(100.0, false, 0, "base.json");
	char *reordered = two_mode_file(100.0, true, 4, "reordered.json");
	char *user_only, *kernel_only;
	struct cp_results one_mode;
	double values[NR_SAMPLES];

	(void)state;
	assert_int_equal(compare(base, reordered, NULL), 0);
	assert_non_null(strstr(printed,
			       "2 measurements: 0 regressions"));
	/* About 1 from the shifted spread; a pairing across modes gives
	 * 2.5 or 0.4. */
	assert_non_null(strstr(row("c2c: cas 0:1 [kernel]"), " 1.000 "));
	assert_non_null(strstr(row("c2c: cas 0:1 [user]"), " 1.000 "));
	/* The same name in different modes is not a measurement in common. */
	samples(40.0, 0, values);
	fixture_results(&one_mode);
	fixture_area_measurement(&one_mode, "c2c", "user", "cas 0:1", values,
				 NR_SAMPLES);
	user_only = fixture_write_json(&one_mode, "user.json");
	snprintf(one_mode.measurements[0].mode,
		 sizeof(one_mode.measurements[0].mode), "kernel");
	kernel_only = fixture_write_json(&one_mode, "kernel.json");
	assert_int_equal(compare(user_only, kernel_only, NULL), 2);
	/* One mode only: no mode in the label. */
	assert_int_equal(compare(user_only, user_only, NULL), 0);
	assert_non_null(row("c2c: cas 0:1"));
	assert_null(strstr(printed, "[user]"));
	cp_results_free(&one_mode);
	fixture_remove(base);
	fixture_remove(reordered);
	fixture_remove(user_only);
	fixture_remove(kernel_only);
}

static void test_incompatible_files(void **state)
{
	struct cp_results other;
	double values[NR_SAMPLES];
	char *base = result_file(10.0, 0, "base.json");
	char *disjoint, *wrong_schema;

	(void)state;
	fixture_results(&other);
	samples(5.0, 0, values);
	fixture_measurement(&other, "chase 3 KiB", values, NR_SAMPLES);
	disjoint = fixture_write_json(&other, "disjoint.json");
	snprintf(other.schema, sizeof(other.schema), "cacheprobe-results/0");
	wrong_schema = fixture_write_json(&other, "old.json");
	assert_int_equal(compare(base, disjoint, NULL), 2);
	assert_int_equal(compare(base, wrong_schema, NULL), 2);
	assert_int_equal(compare(wrong_schema, base, NULL), 2);
	assert_int_equal(compare(base, "no-such-file.json", NULL), 2);
	cp_results_free(&other);
	fixture_remove(base);
	fixture_remove(disjoint);
	fixture_remove(wrong_schema);
}

#define MANY 4000

/* MANY measurements "m NNNNN" in the order @reversed says, "m 01234"
 * @factor times the others. */
static char *many_file(bool reversed, double factor, int phase,
		       const char *name)
{
	struct cp_results results;
	double values[NR_SAMPLES];
	char label[32];
	char *path;

	fixture_results(&results);
	for (int i = 0; i < MANY; i++) {
		int number = reversed ? MANY - 1 - i : i;

		samples(number == 1234 ? 10.0 * factor : 10.0, phase, values);
		snprintf(label, sizeof(label), "m %05d", number);
		fixture_measurement(&results, label, values, NR_SAMPLES);
	}
	path = fixture_write_json(&results, name);
	cp_results_free(&results);
	return path;
}

/* Pairs found by identity among many, in any order: the one slower
 * measurement and nothing else. */
static void test_many_measurements(void **state)
{
	char *base = many_file(false, 1.0, 0, "base.json");
	char *slower = many_file(true, 1.10, 0, "slower.json");

	(void)state;
	assert_int_equal(compare(base, slower, NULL), 1);
	assert_non_null(strstr(printed,
			       "4000 measurements: 1 regressions"));
	assert_non_null(strstr(row("latency: m 01234"), "REGRESSION"));
	assert_null(strstr(printed, "[user]"));
	fixture_remove(base);
	fixture_remove(slower);
}

/* A time at the loop's floor, minus the floor, is near zero either way
 * (the harness's residue, a throughput hidden under the loop): the file
 * is read, and the measurement has no ratio rather than a verdict. */
static void test_samples_at_the_floor(void **state)
{
	const double residue[4] = { -0.02, 0.01, -0.01, 0.02 };
	struct cp_results results;
	double values[NR_SAMPLES];
	char *path;

	(void)state;
	fixture_results(&results);
	samples(1.7, 0, values);
	fixture_measurement(&results, "chase 4 KiB", values, NR_SAMPLES);
	fixture_area_measurement(&results, "harness", "user",
				 "NOTHING after subtraction", residue, 4);
	path = fixture_write_json(&results, "floor.json");
	assert_int_equal(compare(path, path, NULL), 0);
	assert_non_null(strstr(row("harness: NOTHING after subtraction"),
			       "no ratio"));
	assert_non_null(strstr(printed,
			       "2 measurements: 0 regressions, 0 improvements, 1 same, 0 unclear, 1 without a ratio"));
	cp_results_free(&results);
	fixture_remove(path);
}

static json_object *get(json_object *object, const char *key)
{
	json_object *value = NULL;

	if (!json_object_object_get_ex(object, key, &value))
		fail_msg("no \"%s\"", key);
	return value;
}

/* A path beside @near called @name, malloc'ed. */
static char *beside(const char *near, const char *name)
{
	char *path = malloc(strlen(near) + strlen(name) + 2);
	const char *slash = strrchr(near, '/');

	assert_non_null(path);
	sprintf(path, "%.*s/%s", (int)(slash - near), near, name);
	return path;
}

/* --json for CI: the verdict of each measurement and the totals, the
 * environments' differences; '-' takes standard output from the table. */
static void test_json_output(void **state)
{
	char *base = result_file(10.0, 0, "base.json");
	char *slower = result_file(11.0, 3, "slower.json");
	char *json = beside(base, "verdicts.json");
	json_object *root, *rows, *row;

	(void)state;
	assert_int_equal(compare("--json", json, base, slower, NULL), 1);
	assert_non_null(strstr(printed, "1 regressions"));
	root = json_object_from_file(json);
	assert_non_null(root);
	assert_string_equal(json_object_get_string(get(root, "schema")),
			    "cacheprobe-compare/1");
	assert_int_equal(json_object_get_int(get(get(root, "totals"),
						 "regression")), 1);
	assert_int_equal(json_object_get_int(get(get(root, "totals"),
						 "compared")), 2);
	rows = get(root, "measurements");
	assert_int_equal(json_object_array_length(rows), 2);
	row = json_object_array_get_idx(rows, 1);
	assert_string_equal(json_object_get_string(get(row, "name")),
			    "chase 1 MiB");
	assert_string_equal(json_object_get_string(get(row, "verdict")),
			    "regression");
	assert_true(json_object_get_double(json_object_array_get_idx(
			    get(row, "interval"), 0)) > 1.05);
	assert_true(json_object_get_double(get(row, "p_adjusted")) < 0.05);
	json_object_put(root);
	/* To standard output: the JSON alone. */
	assert_int_equal(compare("--json=-", base, slower, NULL), 1);
	assert_non_null(strstr(printed, "\"schema\":\"cacheprobe-compare/1\""));
	assert_null(strstr(printed, "measurements: "));
	unlink(json);
	free(json);
	fixture_remove(base);
	fixture_remove(slower);
}

/* --markdown for a pull request: the answer first, the changes, then
 * every measurement folded away; names cannot break the table. */
static void test_markdown_output(void **state)
{
	struct cp_results results;
	double values[NR_SAMPLES];
	char *base = result_file(10.0, 0, "base.json");
	char *other, *piped;
	const char *folded;

	(void)state;
	fixture_results(&results);
	snprintf(results.environment.kernel, sizeof(results.environment.kernel),
		 "6.12.0-test");
	/* 5 % slower, its interval across the threshold: unclear. */
	samples(1.7 * 1.05, 0, values);
	fixture_measurement(&results, "chase 4 KiB", values, NR_SAMPLES);
	samples(11.0, 3, values);
	fixture_measurement(&results, "chase 1 MiB", values, NR_SAMPLES);
	samples(5.0, 0, values);
	fixture_measurement(&results, "a|b", values, NR_SAMPLES);
	other = fixture_write_json(&results, "other.json");
	assert_int_equal(compare("--markdown=-", base, other, NULL), 1);
	assert_true(strncmp(printed,
			    "### cacheprobe compare: 1 regressions, 0 improvements, 0 same, 1 unclear",
			    72) == 0);
	/* Above the fold the changes only; every row in the details. */
	folded = strstr(printed, "<details>");
	assert_non_null(folded);
	assert_non_null(strstr(printed, "| latency: chase 1 MiB |"));
	assert_true(strstr(printed, "| latency: chase 1 MiB |") < folded);
	assert_non_null(strstr(printed, "| latency: chase 4 KiB |"));
	assert_true(strstr(printed, "| latency: chase 4 KiB |") > folded);
	assert_non_null(strstr(printed, "- different kernel: 6.1.0-test / 6.12.0-test"));
	assert_non_null(strstr(printed, "| latency: chase 1 MiB | 10 ns | 11 ns | 1.100 |"));
	assert_non_null(strstr(printed, "**REGRESSION**"));
	assert_non_null(strstr(printed, "<details><summary>All 2 measurements"));
	assert_null(strstr(printed, "measurements: "));
	/* The console says the same difference. */
	assert_int_equal(compare(base, other, NULL), 1);
	assert_non_null(strstr(printed, "note: different kernel: 6.1.0-test / 6.12.0-test"));
	/* Nothing changed: no table above the fold, one in the details. */
	assert_int_equal(compare("--markdown=-", base, base, NULL), 0);
	assert_non_null(strstr(printed, "| measurement |"));
	assert_null(strstr(strstr(printed, "| measurement |") + 1,
			   "| measurement |"));
	assert_true(strstr(printed, "| measurement |") >
		    strstr(printed, "<details>"));
	/* A name with '|' stays in its cell. */
	piped = fixture_write_json(&results, "piped.json");
	assert_int_equal(compare("--markdown=-", other, piped, NULL), 0);
	assert_non_null(strstr(printed, "| latency: a\\|b |"));
	cp_results_free(&results);
	fixture_remove(base);
	fixture_remove(other);
	fixture_remove(piped);
}

/* What compare printed says nothing of the CPU placement. */
static void assert_no_placement_notes(void)
{
	assert_null(strstr(printed, "CPU placement"));
	assert_null(strstr(printed, "rows across two CPUs"));
}

static const struct cp_placement_probe near = {
	.cpus = { 0, 1 }, .round_trip_ns = { 56, 57 },
};
static const struct cp_placement_probe far = {
	.cpus = { 0, 1 }, .round_trip_ns = { 212, 209 },
};

/* The line of printed that starts with @start, whole, in @out. */
static void printed_line(const char *start, char *out, size_t len)
{
	const char *line = strstr(printed, start);

	assert_non_null(line);
	snprintf(out, len, "%.*s", (int)strcspn(line, "\n"), line);
}

#define PLACEMENT_DIFFERENCE \
	"different CPU placement (round trip): 0:1 56 ns, then 57 ns / 0:1 212 ns, then 209 ns\n"
#define PLACEMENT_NOTE_TEXT \
	"rows across two CPUs (bounce, xcore, c2c) follow that placement (on a virtual machine, where the host runs the vCPUs): their changes between these runs may be the machine's, not the software's"
#define PLACEMENT_NOTE PLACEMENT_NOTE_TEXT "\n"

/*
 * Runs on two placements of the CPUs, with a bounce row: each output
 * names the difference with both runs' round trips, the console and
 * Markdown say what it means for the rows across two CPUs, and the
 * verdicts are those of the samples.
 */
static void test_placement_difference(void **state)
{
	char *base = placed_file(10.0, 0, &near, "bounce", "base.json");
	char *moved = placed_file(10.0, 3, &far, "bounce", "moved.json");
	char *slower = placed_file(11.0, 3, &far, "bounce", "slower.json");
	char *slower_across = placed_file_at(11.0, 44.0, 3, &far, "bounce",
					     "slower-across.json");
	char *plain_base = placed_file(10.0, 0, NULL, "bounce",
				       "plain-base.json");
	char *plain_moved = placed_file(10.0, 3, NULL, "bounce",
					"plain-moved.json");
	char plain_totals[160], totals[160];
	json_object *root, *differences, *item;

	(void)state;
	assert_int_equal(compare(plain_base, plain_moved, NULL), 0);
	printed_line("3 measurements: ", plain_totals, sizeof(plain_totals));
	assert_int_equal(compare(base, moved, NULL), 0);
	assert_non_null(strstr(printed, "note: " PLACEMENT_DIFFERENCE));
	assert_non_null(strstr(printed, "note: " PLACEMENT_NOTE));
	printed_line("3 measurements: ", totals, sizeof(totals));
	assert_string_equal(totals, plain_totals);
	/* The changes found, and how many of them follow the placement:
	 * a latency row's is not one, a bounce row's is. */
	assert_int_equal(compare(base, slower, NULL), 1);
	assert_non_null(strstr(printed, "1 regressions"));
	assert_non_null(strstr(printed, "note: " PLACEMENT_NOTE_TEXT
			       "; 0 of the 1 regressions and improvements are such rows\n"));
	assert_int_equal(compare(base, slower_across, NULL), 1);
	assert_non_null(strstr(printed, "2 regressions"));
	assert_non_null(strstr(printed, "note: " PLACEMENT_NOTE_TEXT
			       "; 1 of the 2 regressions and improvements are such rows\n"));
	assert_int_equal(compare("--markdown=-", base, moved, NULL), 0);
	assert_non_null(strstr(printed, "- " PLACEMENT_DIFFERENCE));
	assert_non_null(strstr(printed, "- " PLACEMENT_NOTE));
	assert_int_equal(compare("--json=-", base, moved, NULL), 0);
	root = json_tokener_parse(printed);
	assert_non_null(root);
	differences = get(root, "environment_differences");
	assert_int_equal(json_object_array_length(differences), 1);
	item = json_object_array_get_idx(differences, 0);
	assert_string_equal(json_object_get_string(get(item, "what")),
			    "CPU placement (round trip)");
	assert_string_equal(json_object_get_string(get(item, "baseline")),
			    "0:1 56 ns, then 57 ns");
	assert_string_equal(json_object_get_string(get(item, "new")),
			    "0:1 212 ns, then 209 ns");
	json_object_put(root);
	/* Against a run that did not measure it: nothing to say. */
	assert_int_equal(compare(base, plain_moved, NULL), 0);
	assert_no_placement_notes();
	fixture_remove(base);
	fixture_remove(moved);
	fixture_remove(slower);
	fixture_remove(slower_across);
	fixture_remove(plain_base);
	fixture_remove(plain_moved);
}

/*
 * Sides that pool several runs are judged by the round trips of all
 * their runs, not their first's: a side of a near and a far run holds
 * both placements, so against another such side, in either order, there
 * is no difference to note, but each side is said to hold more than one
 * placement, and rows across two CPUs to follow it; two near runs
 * against two far ones differ, and the note shows each side's span and
 * how many runs it pools.
 */
/*
 * A run whose placement moved during it (its round trip at the end more
 * than 1.5 times its start's) is on no other placement than a run on
 * either, but its rows across two CPUs mix both: the console, Markdown
 * and JSON say which side moved, and the rows are said to follow it.
 * Neither side moving, nothing is said.
 */
static void test_placement_moved_during_a_run(void **state)
{
	static const struct cp_placement_probe moving = {
		.cpus = { 0, 1 }, .round_trip_ns = { 56, 212 },
	};
	char *base = placed_file(10.0, 0, &near, "bounce", "base.json");
	char *moved = placed_file(10.0, 3, &moving, "bounce", "moved.json");
	char *still = placed_file(10.0, 3, &near, "bounce", "still.json");
	const char *moved_note =
		"the new run's CPU placement moved during it (round trip 0:1 56 ns, then 212 ns)\n";
	json_object *root;

	(void)state;
	assert_int_equal(compare(base, moved, NULL), 0);
	assert_null(strstr(printed, "different CPU placement"));
	assert_non_null(strstr(printed, "note: the new run's"));
	assert_non_null(strstr(printed, moved_note));
	assert_null(strstr(printed, "the baseline run's CPU placement"));
	assert_non_null(strstr(printed, "note: " PLACEMENT_NOTE));
	assert_int_equal(compare("--markdown=-", moved, base, NULL), 0);
	assert_non_null(strstr(printed,
			       "- the baseline run's CPU placement moved during it"));
	assert_non_null(strstr(printed, "- " PLACEMENT_NOTE));
	assert_int_equal(compare("--json=-", base, moved, NULL), 0);
	root = json_tokener_parse(printed);
	assert_non_null(root);
	assert_false(json_object_get_boolean(get(get(root, "baseline"),
						 "placement_moved")));
	assert_true(json_object_get_boolean(get(get(root, "new"),
						"placement_moved")));
	json_object_put(root);
	assert_int_equal(compare(base, still, NULL), 0);
	assert_no_placement_notes();
	fixture_remove(base);
	fixture_remove(moved);
	fixture_remove(still);
}

#define BOTH_PLACEMENTS(side) \
	"the " side " side's runs were not all on one CPU placement (round trip 0:1 56 to 212 ns over 2 runs)\n"

static void test_pooled_placement_difference(void **state)
{
	char *near1 = placed_file(10.0, 0, &near, "bounce", "near1.json");
	char *far1 = placed_file(10.0, 1, &far, "bounce", "far1.json");
	char *far2 = placed_file(10.0, 2, &far, "bounce", "far2.json");
	char *near2 = placed_file(10.0, 3, &near, "bounce", "near2.json");

	(void)state;
	assert_int_equal(compare(near1, far1, "--", far2, near2, NULL), 0);
	assert_non_null(strstr(printed, "note: the baseline side pools 2 runs"));
	assert_null(strstr(printed, "different CPU placement"));
	assert_non_null(strstr(printed, "note: " BOTH_PLACEMENTS("baseline")));
	assert_non_null(strstr(printed, "note: " BOTH_PLACEMENTS("new")));
	assert_non_null(strstr(printed, "note: " PLACEMENT_NOTE));
	assert_int_equal(compare(far1, near1, "--", far2, near2, NULL), 0);
	assert_null(strstr(printed, "different CPU placement"));
	assert_non_null(strstr(printed, "note: " BOTH_PLACEMENTS("baseline")));
	/* A side that held both against a single run of one of them. */
	assert_int_equal(compare(near1, far1, "--", far2, NULL), 0);
	assert_null(strstr(printed, "different CPU placement"));
	assert_non_null(strstr(printed, "note: " BOTH_PLACEMENTS("baseline")));
	assert_null(strstr(printed, "the new run's CPU placement"));
	assert_int_equal(compare(near1, near2, "--", far1, far2, NULL), 0);
	assert_null(strstr(printed, "not all on one CPU placement"));
	assert_non_null(strstr(printed,
			       "note: different CPU placement (round trip): 0:1 56 to 57 ns over 2 runs / 0:1 209 to 212 ns over 2 runs\n"));
	assert_non_null(strstr(printed, "note: " PLACEMENT_NOTE));
	fixture_remove(near1);
	fixture_remove(far1);
	fixture_remove(far2);
	fixture_remove(near2);
}

/*
 * The note on rows across two CPUs is for comparisons that have such
 * rows (bounce, xcore, c2c on two CPUs, as their parameters say), in
 * common to both runs: with latency rows only, another area's, or
 * bounce's thread alone and xcore's producer and consumer on one CPU,
 * the difference of placement is still named but nothing follows it.
 */
static void test_placement_note_needs_rows_across_cpus(void **state)
{
	static const struct {
		const char *base_area, *next_area;
		bool note;
	} cases[] = {
		{ NULL, NULL, false },
		{ "align", "align", false },
		{ "bounce", "bounce", true },
		{ "xcore", "xcore", true },
		{ "c2c", "c2c", true },
		{ "bounce 0:0", "bounce 0:0", false },
		{ "xcore 0:0", "xcore 0:0", false },
		/* In one run only: not a row of the comparison. */
		{ "bounce", NULL, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *base = placed_file(10.0, 0, &near, cases[i].base_area,
					 "base.json");
		char *moved = placed_file(10.0, 3, &far, cases[i].next_area,
					  "moved.json");

		assert_int_equal(compare(base, moved, NULL), 0);
		assert_non_null(strstr(printed,
				       "note: " PLACEMENT_DIFFERENCE));
		if ((strstr(printed, PLACEMENT_NOTE) != NULL) != cases[i].note)
			fail_msg("%s / %s: the note %s:\n%s",
				 cases[i].base_area, cases[i].next_area,
				 cases[i].note ? "missing" : "printed",
				 printed);
		assert_int_equal(compare("--markdown=-", base, moved, NULL),
				 0);
		assert_non_null(strstr(printed, "- " PLACEMENT_DIFFERENCE));
		assert_int_equal(strstr(printed, PLACEMENT_NOTE) != NULL,
				 cases[i].note);
		fixture_remove(base);
		fixture_remove(moved);
	}
}

#define TEXT(field) { offsetof(struct cp_environment, field), \
		      sizeof(((struct cp_environment *)0)->field) }

/* The environment's texts compare tells apart. */
static const struct {
	size_t offset, size;
} every_text[] = {
	TEXT(cpu_model), TEXT(microcode), TEXT(kernel), TEXT(module_version),
	TEXT(governors), TEXT(boost), TEXT(smt), TEXT(hypervisor),
	TEXT(isolated_cpus), TEXT(nohz_full_cpus), TEXT(huge_pages),
};

/* The placement as an environment difference: apart, within the probe's
 * noise, unmeasured; and every difference at once fits the table. */
static void test_placement_environment_difference(void **state)
{
	const struct cp_placement_probe noisy = {
		.cpus = { 0, 1 }, .round_trip_ns = { 61, 52 },
	};
	const struct cp_placement_probe other_cpus = {
		.cpus = { 0, 2 }, .round_trip_ns = { 56, 57 },
	};
	struct cp_environment_difference
		differences[CP_MAX_ENVIRONMENT_DIFFERENCES];
	struct cp_results base, next;

	(void)state;
	fixture_results(&base);
	fixture_results(&next);
	base.environment.placement = near;
	next.environment.placement = far;
	assert_int_equal(cp_environment_differences(&base, &next,
						    differences), 1);
	assert_string_equal(differences[0].what,
			    "CPU placement (round trip)");
	assert_string_equal(differences[0].base, "0:1 56 ns, then 57 ns");
	assert_string_equal(differences[0].next, "0:1 212 ns, then 209 ns");
	next.environment.placement = other_cpus;
	assert_int_equal(cp_environment_differences(&base, &next,
						    differences), 1);
	assert_string_equal(differences[0].next, "0:2 56 ns, then 57 ns");
	next.environment.placement = noisy;
	assert_int_equal(cp_environment_differences(&base, &next,
						    differences), 0);
	memset(&next.environment.placement, 0,
	       sizeof(next.environment.placement));
	assert_int_equal(cp_environment_differences(&base, &next,
						    differences), 0);
	/* Every field differs: the placement still has its place. */
	for (size_t i = 0; i < sizeof(every_text) / sizeof(every_text[0]);
	     i++)
		snprintf((char *)&next.environment + every_text[i].offset,
			 every_text[i].size, "other");
	next.environment.nr_online_cpus = 64;
	next.environment.placement = far;
	assert_int_equal(cp_environment_differences(&base, &next,
						    differences), 13);
	assert_string_equal(differences[12].what,
			    "CPU placement (round trip)");
	cp_results_free(&base);
	cp_results_free(&next);
}

/* Outputs never land on an input nor on each other; both to standard
 * output is refused. */
static void test_output_misuse(void **state)
{
	char *base = result_file(10.0, 0, "base.json");
	char *slower = result_file(11.0, 3, "slower.json");
	char *copy = beside(base, "copy.md");

	(void)state;
	assert_int_equal(compare("--json", base, base, slower, NULL), 2);
	assert_int_equal(compare("--markdown", slower, base, slower, NULL), 2);
	assert_int_equal(compare("--json=-", "--markdown=-", base, slower,
				 NULL), 2);
	assert_int_equal(compare("--json", copy, "--markdown", copy, base,
				 slower, NULL), 2);
	assert_int_equal(compare("--json=", base, slower, NULL), 2);
	/* A file that cannot be written is misuse, even beside a regression. */
	assert_int_equal(compare("--markdown", "/proc/cacheprobe-compare.md",
				 base, slower, NULL), 2);
	assert_int_equal(access(copy, F_OK), -1);
	/* The baseline still reads as a result file. */
	assert_int_equal(compare(base, base, NULL), 0);
	free(copy);
	fixture_remove(base);
	fixture_remove(slower);
}

/* A change inside the threshold whose interval crosses it is neither
 * "same" nor a regression: the samples cannot tell. */
static void test_unclear(void **state)
{
	struct cp_results results;
	double values[NR_SAMPLES];
	char *base = result_file(10.0, 0, "base.json");
	char *wide;

	(void)state;
	fixture_results(&results);
	samples(1.7, 0, values);
	fixture_measurement(&results, "chase 4 KiB", values, NR_SAMPLES);
	for (int i = 0; i < NR_SAMPLES; i++)
		values[i] = 10.4 * (1 + 0.1 * (((i * 7) % 11) - 5) / 5.0);
	fixture_measurement(&results, "chase 1 MiB", values, NR_SAMPLES);
	wide = fixture_write_json(&results, "wide.json");
	assert_int_equal(compare(base, wide, NULL), 0);
	assert_non_null(strstr(row("latency: chase 1 MiB"), "unclear"));
	assert_non_null(strstr(printed, "0 regressions, 0 improvements, 1 same, 1 unclear"));
	cp_results_free(&results);
	fixture_remove(base);
	fixture_remove(wide);
}

/* Runs that differ by 6 % from one to the next, as runs do when buffers
 * land elsewhere: one run against the next cries wolf; two runs a side,
 * pooled, carry that variation and do not.  Order of options, files and
 * '--' is free; a side needs a file, and a file counts once. */
static void test_several_runs(void **state)
{
	char *a1 = result_file(10.0, 0, "a1.json");
	char *a2 = result_file(10.6, 1, "a2.json");
	char *b1 = result_file(10.6, 2, "b1.json");
	char *b2 = result_file(10.0, 3, "b2.json");
	struct cp_results fewer;
	double values[NR_SAMPLES];
	char *partial;

	(void)state;
	assert_int_equal(compare(a1, b1, NULL), 1);
	assert_int_equal(compare(a1, a2, "--", b1, b2, NULL), 0);
	assert_non_null(strstr(printed, "note: the baseline side pools 2 runs"));
	assert_non_null(strstr(printed, "note: the new side pools 2 runs"));
	assert_null(strstr(printed, "REGRESSION"));
	assert_non_null(strstr(printed, "2 measurements: 0 regressions"));
	assert_int_equal(compare(a1, a2, "--", b1, b2, "--threshold=4", NULL),
			 0);
	assert_int_equal(compare("--", a1, "--", b1, NULL), 1);
	assert_int_equal(compare("--alpha", "0.05", a1, "--", b1, b2, NULL), 0);
	/* A measurement missing from one run of a side is left out. */
	fixture_results(&fewer);
	samples(1.7, 2, values);
	fixture_measurement(&fewer, "chase 4 KiB", values, NR_SAMPLES);
	partial = fixture_write_json(&fewer, "partial.json");
	assert_int_equal(compare(a1, partial, "--", b1, NULL), 0);
	assert_non_null(strstr(printed,
			       "pools 2 runs; 1 measurements not in every run left out"));
	assert_non_null(strstr(printed, "1 measurements: "));
	/* Misuse. */
	assert_int_equal(compare(a1, a2, b1, NULL), 2);
	assert_int_equal(compare(a1, "--", NULL), 2);
	assert_int_equal(compare(a1, a1, "--", b1, NULL), 2);
	cp_results_free(&fewer);
	fixture_remove(partial);
	fixture_remove(a1);
	fixture_remove(a2);
	fixture_remove(b1);
	fixture_remove(b2);
}

/* A file with "chase 1 MiB" taken in 5 rounds of 3 samples, the rounds
 * at @centers, +-0.1 % inside each (@per_round 0: the same samples, not
 * marked as rounds). */
static char *clocked_file(const double *centers, unsigned int per_round,
			  double clock, const char *name);

static char *rounds_file(const double *centers, unsigned int per_round,
			 const char *name)
{
	return clocked_file(centers, per_round, 1.5, name);
}

/* The same with the core clock at @clock cycles per tick (0: not
 * measured). */
static char *clocked_file(const double *centers, unsigned int per_round,
			  double clock, const char *name)
{
	struct cp_results results;
	double values[NR_SAMPLES], *ticks = malloc(sizeof(values));
	struct cp_measurement *m;
	char *path;

	assert_non_null(ticks);
	fixture_results(&results);
	for (int i = 0; i < NR_SAMPLES; i++)
		values[i] = centers[i / 3] * (1 + 0.001 * (i % 3 - 1));
	fixture_measurement(&results, "chase 1 MiB", values, NR_SAMPLES);
	m = &results.measurements[0];
	m->samples_per_round = per_round;
	m->core_cycles_per_tick = clock;
	for (int i = 0; i < NR_SAMPLES; i++)
		ticks[i] = values[i] * FIXTURE_TSC_HZ / 1e9;
	assert_int_equal(cp_measurement_set_samples(m, ticks, NR_SAMPLES,
						    FIXTURE_TSC_HZ), 0);
	path = fixture_write_json(&results, name);
	cp_results_free(&results);
	return path;
}

/*
 * Rounds whose arrangements differ (the new run's rounds 4 % to 25 %
 * slower than the baseline's fastest, each tight inside): the samples
 * taken one by one call it a regression; the rounds, the units that
 * vary as runs do, leave it unclear.  A shift every round shows is a
 * regression either way.
 */
static void test_rounds_are_the_units(void **state)
{
	const double base_centers[] = { 10, 10.2, 9.9, 10.1, 10.0 };
	const double next_centers[] = { 11.0, 11.2, 10.4, 12.5, 10.6 };
	const double slow_centers[] = { 12.0, 12.2, 11.9, 12.1, 12.0 };
	char *base = rounds_file(base_centers, 3, "base.json");
	char *next = rounds_file(next_centers, 3, "next.json");
	char *slow = rounds_file(slow_centers, 3, "slow.json");
	char *base_flat = rounds_file(base_centers, 0, "base-flat.json");
	char *next_flat = rounds_file(next_centers, 0, "next-flat.json");

	(void)state;
	assert_int_equal(compare(base_flat, next_flat, NULL), 1);
	assert_non_null(strstr(row("latency: chase 1 MiB"), "REGRESSION"));
	assert_int_equal(compare(base, next, NULL), 0);
	assert_non_null(strstr(row("latency: chase 1 MiB"), "unclear"));
	assert_int_equal(compare(base, slow, NULL), 1);
	assert_non_null(strstr(row("latency: chase 1 MiB"), "REGRESSION"));
	assert_non_null(strstr(row("latency: chase 1 MiB"), "1.199"));
	/* Rounds on one side only: the samples are the units. */
	assert_int_equal(compare(base_flat, next, NULL), 1);
	fixture_remove(base);
	fixture_remove(next);
	fixture_remove(slow);
	fixture_remove(base_flat);
	fixture_remove(next_flat);
}

/* A run of "chase 1 MiB": @n samples of @ns, @per_round a round. */
static void pool_run(struct cp_results *run, size_t n, double ns,
		     unsigned int per_round)
{
	double *values = malloc(n * sizeof(*values));
	struct cp_measurement *m;

	assert_non_null(values);
	for (size_t i = 0; i < n; i++)
		values[i] = ns + (double)i;
	fixture_results(run);
	fixture_measurement(run, "chase 1 MiB", values, n);
	m = &run->measurements[0];
	m->samples_per_round = per_round;
	free(values);
}

/*
 * Runs whose rounds differ in length (c2c's end at their share) pool as
 * rounds of the shortest: each round cut to it, a short round left out
 * except the pool's last; a run without rounds leaves none.
 */
static void test_pool_rounds_of_runs(void **state)
{
	struct cp_results runs[3], pooled;
	struct cp_results_index indexes[3];
	const struct cp_measurement *first, *second;
	size_t partial;

	(void)state;
	pool_run(&runs[0], 12, 100, 4);	/* 3 rounds of 4 */
	pool_run(&runs[1], 10, 200, 3);	/* 3 of 3, one short of 1 */
	pool_run(&runs[2], 7, 300, 3);	/* 2 of 3, a last of 1 */
	for (int r = 0; r < 3; r++)
		assert_int_equal(cp_results_index_build(&indexes[r], &runs[r],
							&first, &second), 0);
	assert_int_equal(cp_results_pool(runs, indexes, 3, &pooled, &partial),
			 0);
	assert_int_equal(pooled.measurements[0].samples_per_round, 3);
	/* 3 x 3 + 3 x 3 (its short round out) + 3 + 3 + 1. */
	assert_int_equal(pooled.measurements[0].nr_samples, 25);
	assert_true(pooled.measurements[0].ns[3] == 104);
	assert_true(pooled.measurements[0].ns[9] == 200);
	assert_true(pooled.measurements[0].ns[18] == 300);
	assert_true(pooled.measurements[0].ns[24] == 306);
	cp_results_free(&pooled);
	runs[1].measurements[0].samples_per_round = 0;
	assert_int_equal(cp_results_pool(runs, indexes, 3, &pooled, &partial),
			 0);
	assert_int_equal(pooled.measurements[0].samples_per_round, 0);
	assert_int_equal(pooled.measurements[0].nr_samples, 29);
	cp_results_free(&pooled);
	for (int r = 0; r < 3; r++) {
		cp_results_index_free(&indexes[r]);
		cp_results_free(&runs[r]);
	}
}

/*
 * The core clock 10 % faster in the new run and the loads 10 % quicker
 * in ns: as many cycles.  In ns a 10 % improvement; in cycles (--cycles)
 * the same.  Without a clock on one side the row stays in ns.
 */
static void test_cycles(void **state)
{
	const double base_centers[] = { 10, 10.1, 9.9, 10.05, 10.0 };
	const double next_centers[] = { 9.09, 9.18, 9.0, 9.14, 9.09 };
	char *base = clocked_file(base_centers, 3, 1.5, "base.json");
	char *next = clocked_file(next_centers, 3, 1.65, "next.json");
	char *unclocked = clocked_file(next_centers, 3, 0, "unclocked.json");

	(void)state;
	assert_int_equal(compare(base, next, NULL), 0);
	assert_non_null(strstr(row("latency: chase 1 MiB"), "improvement"));
	assert_int_equal(compare("--cycles", base, next, NULL), 0);
	assert_non_null(strstr(row("latency: chase 1 MiB"), "same"));
	assert_non_null(strstr(printed,
			       "ratios in core cycles for 1 of 1 measurements"));
	assert_int_equal(compare("--cycles", base, unclocked, NULL), 0);
	assert_non_null(strstr(row("latency: chase 1 MiB"), "improvement"));
	assert_non_null(strstr(printed, "core cycles for 0 of 1"));
	/* Pooled: each run's ticks in the first run's clock, so the two
	 * runs of one side, 10 % apart in ns, are as many cycles. */
	assert_int_equal(compare("--cycles", base, next, "--", next, NULL),
			 0);
	assert_non_null(strstr(row("latency: chase 1 MiB"), "same"));
	assert_non_null(strstr(printed, "core cycles for 1 of 1"));
	assert_int_equal(compare(base, next, "--", next, NULL), 0);
	assert_null(strstr(row("latency: chase 1 MiB"), "same"));
	fixture_remove(base);
	fixture_remove(next);
	fixture_remove(unclocked);
}

static void test_misuse(void **state)
{
	char *base = result_file(10.0, 0, "base.json");

	(void)state;
	assert_int_equal(compare(base, NULL), 2);
	assert_int_equal(compare(base, base, base, NULL), 2);
	assert_int_equal(compare("--threshold=abc", base, base, NULL), 2);
	assert_int_equal(compare("--threshold=-1", base, base, NULL), 2);
	assert_int_equal(compare("--alpha=1.5", base, base, NULL), 2);
	assert_int_equal(compare("--alpha=0", base, base, NULL), 2);
	assert_int_equal(compare("--frob", base, base, NULL), 2);
	fixture_remove(base);
}

/* Results on @placement with "chase 4 KiB" at 1.7 ns, a row with a
 * label too long for the console's column at @long_ns, bounce's "0:1"
 * at 40 ns, "chase 2 MiB" at @wide_ns and "chase 3 MiB" at 0. */
static void terminal_run(struct cp_results *results, double long_ns,
			 double wide_ns, int phase,
			 const struct cp_placement_probe *placement)
{
	double values[NR_SAMPLES];

	fixture_results(results);
	results->environment.placement = *placement;
	samples(1.7, phase, values);
	fixture_measurement(results, "chase 4 KiB", values, NR_SAMPLES);
	samples(long_ns, phase, values);
	fixture_measurement(results,
			    "chase 1 MiB, a name longer than its column",
			    values, NR_SAMPLES);
	samples(40, phase, values);
	on_cpus(fixture_area_measurement(results, "bounce", "user", "0:1",
					 values, NR_SAMPLES), "0:1");
	/* A ratio of 10 or more: an interval wider than its column. */
	samples(wide_ns, phase, values);
	fixture_measurement(results, "chase 2 MiB", values, NR_SAMPLES);
	/* At the floor: no ratio, and a longer totals line. */
	samples(0, phase, values);
	fixture_measurement(results, "chase 3 MiB", values, NR_SAMPLES);
}

/* The console as @form lays out @base against @next, in a malloc'ed
 * string. */
static char *console_of(struct cp_results *base, struct cp_results *next,
			const struct compare_console *form)
{
	const char *paths[2] = { "base.json", "next.json" };
	const char *const *one[2] = { &paths[0], &paths[1] };
	struct cp_results_index indexes[2];
	const struct cp_measurement *first, *second;
	struct cp_comparison comparison;
	struct compare_context context = {
		.paths = { one[0], one[1] }, .nr_paths = { 1, 1 },
		.runs = { base, next }, .comparison = &comparison,
	};
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(cp_results_index_build(&indexes[0], base, &first,
						&second), 0);
	assert_int_equal(cp_results_index_build(&indexes[1], next, &first,
						&second), 0);
	assert_int_equal(cp_comparison_build(base, &indexes[0], next,
					     &indexes[1], 0.05, 0.05, false,
					     &comparison), 0);
	assert_int_equal(compare_write_console(&context, form, out), 0);
	fclose(out);
	cp_comparison_free(&comparison);
	cp_results_index_free(&indexes[0]);
	cp_results_index_free(&indexes[1]);
	return text;
}

/* The longest line of @text. */
static size_t widest_line(const char *text)
{
	size_t widest = 0;

	while (*text) {
		size_t len = strcspn(text, "\n");

		widest = len > widest ? len : widest;
		text += len + (text[len] == '\n');
	}
	return widest;
}

/*
 * On a terminal a person reads the answer first: the totals first, the
 * totals and notes wrapped to 80 columns, and only the rows that
 * changed, a label too long for its column above its figures and
 * figures too wide for theirs on a line of their own; the rows left out
 * are counted, and --verbose shows them.  Piped, every row is
 * a line of its own (the other tests).
 */
static void test_console_on_a_terminal(void **state)
{
	struct compare_console terminal = { .terminal = true };
	struct compare_console every_row = { .terminal = true,
					     .every_row = true };
	struct compare_console piped = { .every_row = false };
	struct cp_results base, next;
	const char *label, *figures;
	char *text;

	(void)state;
	terminal_run(&base, 10.0, 1.0, 0, &near);
	terminal_run(&next, 11.0, 15.0, 3, &far);

	text = console_of(&base, &next, &terminal);
	assert_true(widest_line(text) <= 80);
	assert_int_equal(strncmp(text, "5 measurements: 2 regressions", 29),
			 0);
	/* The totals, one line too long, wrapped. */
	assert_non_null(strstr(text, " 1 without a\n  ratio\n"));
	/* Figures too wide for their columns: a line of their own. */
	figures = strstr(text, "\n  latency: chase 2 MiB\n    ");
	assert_non_null(figures);
	assert_non_null(strstr(figures, "15.000"));
	/* The placement note, wrapped under its own start. */
	assert_non_null(strstr(text, "note: rows across two CPUs"));
	assert_non_null(strstr(text, "\n      virtual machine"));
	label = strstr(text,
		       "\n  latency: chase 1 MiB, a name longer than its column\n");
	assert_non_null(label);
	figures = strchr(label + 1, '\n') + 1;
	assert_int_equal(strncmp(figures, "                              ",
				 30), 0);
	assert_non_null(strstr(figures, "1.100"));
	assert_non_null(strstr(figures, "REGRESSION"));
	assert_true(strstr(figures, "REGRESSION") < strchr(figures, '\n'));
	assert_null(strstr(text, "chase 4 KiB"));
	assert_null(strstr(text, "bounce: 0:1"));
	assert_null(strstr(text, "chase 3 MiB"));
	assert_non_null(strstr(text,
			       "\n3 rows same, unclear or without a ratio not shown (--verbose: every row)\n"));
	free(text);

	text = console_of(&base, &next, &every_row);
	assert_true(widest_line(text) <= 80);
	assert_non_null(strstr(text, "\n  latency: chase 4 KiB "));
	assert_non_null(strstr(text, "\n  bounce: 0:1 "));
	assert_null(strstr(text, "not shown"));
	free(text);

	/* Piped: a line each, however long. */
	text = console_of(&base, &next, &piped);
	assert_non_null(strstr(text, "\n  latency: chase 1 MiB, a name longer than its column "));
	assert_non_null(strstr(text, "\nnote: " PLACEMENT_NOTE_TEXT));
	assert_null(strstr(text, "not shown"));
	free(text);
	cp_results_free(&base);
	cp_results_free(&next);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regression),
		cmocka_unit_test(test_noise_only),
		cmocka_unit_test(test_small_change),
		cmocka_unit_test(test_partly_common),
		cmocka_unit_test(test_kernel_mode_regression),
		cmocka_unit_test(test_pairs_by_mode),
		cmocka_unit_test(test_incompatible_files),
		cmocka_unit_test(test_many_measurements),
		cmocka_unit_test(test_samples_at_the_floor),
		cmocka_unit_test(test_json_output),
		cmocka_unit_test(test_markdown_output),
		cmocka_unit_test(test_placement_difference),
		cmocka_unit_test(test_placement_environment_difference),
		cmocka_unit_test(test_pooled_placement_difference),
		cmocka_unit_test(test_placement_note_needs_rows_across_cpus),
		cmocka_unit_test(test_output_misuse),
		cmocka_unit_test(test_unclear),
		cmocka_unit_test(test_several_runs),
		cmocka_unit_test(test_pool_rounds_of_runs),
		cmocka_unit_test(test_rounds_are_the_units),
		cmocka_unit_test(test_cycles),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_console_on_a_terminal),
		cmocka_unit_test(test_placement_moved_during_a_run),
	};

	int failures = cmocka_run_group_tests_name("compare", tests, NULL, NULL);

	free(printed);
	return failures;
}
