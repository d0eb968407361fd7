// SPDX-License-Identifier: GPL-2.0
/*
 * The run's findings (results/summary.h) from results built by hand: each
 * area's answer with its figure, "not measured" for every area that did
 * not run, user mode preferred, the doubts of the run, and the console's
 * lines within 80 columns.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/summary_table.h"
#include "results/summary.h"
#include "results_fixture.h"

static const struct cp_finding *find(const struct cp_summary *s,
				      const char *topic)
{
	for (size_t i = 0; i < s->nr_findings; i++)
		if (strcmp(s->findings[i].topic, topic) == 0)
			return &s->findings[i];
	fail_msg("no finding \"%s\"", topic);
	return &s->findings[0];
}

static void assert_contains(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("\"%s\" lacks \"%s\"", text, part);
}

/* Nothing ran: every finding says so, none invents a figure. */
static void test_nothing_measured(void **state)
{
	struct cp_results results;
	struct cp_summary s;

	(void)state;
	fixture_results(&results);
	cp_summary_build(&results, &s);
	assert_int_equal(s.nr_findings, 7);
	for (size_t i = 0; i < s.nr_findings; i++) {
		assert_true(s.findings[i].area[0]);
		assert_false(s.findings[i].measured);
		assert_true(isnan(s.findings[i].value));
		assert_contains(s.findings[i].answer, "not measured");
	}
	assert_contains(find(&s, "cache levels")->answer,
			"latency did not run");
	assert_contains(find(&s, "core to core")->answer,
			"c2c did not run");
	assert_string_equal(find(&s, "core to core")->area, "c2c");
	assert_contains(find(&s, "cache transfer")->answer,
			"xcore did not run");
	cp_results_free(&results);
}

/* A latency curve with two levels: each with the figure and interval of
 * the size nearest its plateau, the figure inside its interval even when
 * the curve's plateau lies outside it. */
static void test_levels(void **state)
{
	const double l1[] = { 1.40, 1.41, 1.39, 1.42, 1.40 };
	const double mem[] = { 90, 92, 91, 89, 90 };
	struct cp_results results;
	struct cp_measurement *m;
	struct cp_summary s;
	const struct cp_finding *f;

	(void)state;
	fixture_results(&results);
	m = fixture_area_measurement(&results, "latency", "user",
				     "chase 16 KiB", l1, 5);
	cp_measurement_add_param(m, "size_bytes", 16384);
	m = fixture_area_measurement(&results, "latency", "user",
				     "chase 64 MiB", mem, 5);
	cp_measurement_add_param(m, "size_bytes", 64 << 20);
	results.nr_levels = 2;
	results.levels[0] = (struct cp_level_estimate){
		.name = "L1d", .nominal_bytes = 32768,
		.effective_bytes = 32768, .latency_ns = 1.4,
	};
	results.levels[1] = (struct cp_level_estimate){
		.name = "memory", .latency_ns = 95,
	};
	cp_summary_build(&results, &s);
	f = find(&s, "L1d");
	assert_true(f->measured);
	assert_true(fabs(f->value - 1.40) < 1e-9);
	assert_true(f->low <= 1.40 && f->high >= 1.40 && f->high < 2);
	assert_contains(f->answer, "1.4 ns per dependent load (the 16 KiB chase)");
	assert_contains(f->answer, "effective 32 KiB of 32 KiB nominal");
	f = find(&s, "memory");
	assert_true(fabs(f->value - 90) < 1e-9);
	assert_true(f->low <= f->value && f->value <= f->high);
	assert_contains(f->answer, "90 ns per dependent load beyond the caches");
	cp_results_free(&results);
}

/* Align and c2c as their fixtures make them; kernel mode alone is used
 * when user mode did not run. */
static void test_split_load_and_c2c(void **state)
{
	struct cp_results results;
	struct cp_summary s;
	const struct cp_finding *f;

	(void)state;
	fixture_results(&results);
	fixture_align(&results, "user");
	fixture_c2c(&results, "kernel");
	cp_summary_build(&results, &s);
	f = find(&s, "split load");
	assert_true(f->measured);
	assert_true(fabs(f->value - 2.5) < 1e-9);
	assert_contains(f->answer, "8-byte load-latency access");
	assert_contains(f->answer, "the line at 64 B");
	f = find(&s, "fastest pairs");
	assert_contains(f->answer, "smt");
	assert_true(fabs(f->value - 40) < 1);
	f = find(&s, "slowest pairs");
	assert_contains(f->answer, "shared-l3");
	assert_contains(f->answer, "2 pairs");
	cp_results_free(&results);
}

/* xcore: the smallest block read from another CPU, with the same block
 * from the reader's own cache and from memory beside it. */
static void test_transfer(void **state)
{
	const double ns[] = { 150, 151, 149 };
	struct cp_measurement *m;
	struct cp_results results;
	struct cp_summary s;
	const struct cp_finding *f;

	(void)state;
	fixture_results(&results);
	fixture_xcore(&results, "user");
	cp_summary_build(&results, &s);
	f = find(&s, "cache transfer shared-l3");
	assert_non_null(f);
	assert_string_equal(f->area, "xcore");
	assert_true(f->measured);
	assert_true(f->value > 50 && f->value < 70);
	assert_true(f->low <= f->value && f->value <= f->high);
	assert_contains(f->answer, "CPU 1 read a block of 8 KiB that CPU 0 wrote (shared-l3)");
	assert_contains(f->answer, "from its own cache 2 ns, from memory 100 ns");
	cp_results_free(&results);
	/* A second class on other CPUs: xcore's baselines are on the first
	 * pair's CPUs, and serve every class. */
	fixture_results(&results);
	fixture_xcore(&results, "user");
	m = fixture_area_measurement(&results, "xcore", "user",
				     "read cross-package 2>3 8 KiB", ns, 3);
	cp_measurement_add_param(m, "size_bytes", 8192);
	cp_measurement_add_param(m, "producer", 2);
	cp_measurement_add_param(m, "consumer", 3);
	cp_measurement_add_param(m, "modify", 0);
	cp_measurement_add_param(m, "delay", 0);
	cp_measurement_add_param(m, "pair_class", 4);
	cp_summary_build(&results, &s);
	f = find(&s, "cache transfer cross-package");
	assert_contains(f->answer, "CPU 3 read a block of 8 KiB that CPU 2 wrote");
	assert_contains(f->answer, "from its own cache 2 ns, from memory 100 ns");
	cp_results_free(&results);
}

/* A class of 300 pairs (a lab machine has thousands): the median of
 * them all. */
static void test_many_pairs(void **state)
{
	struct cp_results results;
	struct cp_summary s;

	(void)state;
	fixture_results(&results);
	for (int i = 1; i <= 300; i++) {
		const double ns[] = { i, i, i };
		struct cp_measurement *m = fixture_area_measurement(
			&results, "c2c", "user", "cas pair", ns, 3);

		cp_measurement_add_param(m, "cas", 1);
		cp_measurement_add_param(m, "pair_class", 2);
	}
	cp_summary_build(&results, &s);
	assert_true(fabs(find(&s, "core to core")->value - 150.5) < 1e-9);
	assert_contains(find(&s, "core to core")->answer, "300 pairs");
	cp_results_free(&results);
}

/* Bounce's classic ratio with the atomic case beside it, the granularity,
 * and the run's doubts. */
static void test_bounce_and_doubts(void **state)
{
	const double ns[] = { 20, 21, 19, 20, 20 };
	struct cp_results results;
	struct cp_measurement *m;
	struct cp_summary s;
	const struct cp_finding *f;

	(void)state;
	fixture_results(&results);
	m = fixture_area_measurement(&results, "bounce", "user",
				     "shared-l3 0,1 plain 4B d=4", ns, 5);
	cp_measurement_add_param(m, "classic_milli", 5200);
	cp_measurement_add_param(m, "classic_low_milli", 4900);
	cp_measurement_add_param(m, "classic_high_milli", 5600);
	cp_measurement_add_param(m, "granularity_bytes", 128);
	m = fixture_area_measurement(&results, "bounce", "user",
				     "shared-l3 0,1 atomic 4B d=4", ns, 5);
	cp_measurement_add_param(m, "atomic", 1);
	cp_measurement_add_param(m, "width_bytes", 4);
	cp_measurement_add_param(m, "distance_bytes", 4);
	cp_measurement_add_param(m, "slowdown_padded_milli", 7980);
	snprintf(results.environment.hypervisor,
		 sizeof(results.environment.hypervisor), "KVM");
	results.environment.nr_online_cpus = 2;
	results.environment.load_average[0] = 1.5;
	cp_summary_build(&results, &s);
	f = find(&s, "false sharing");
	assert_true(fabs(f->value - 5.2) < 1e-9);
	assert_true(fabs(f->low - 4.9) < 1e-9);
	assert_contains(f->answer, "x5.20");
	assert_contains(f->answer, "; atomic increments x7.98 against padded counters");
	f = find(&s, "coherence granularity");
	assert_true(f->value == 128);
	assert_int_equal(s.nr_doubts, 2);
	assert_contains(s.doubts[0], "KVM");
	assert_contains(s.doubts[1], "load average 1.50 on 2 CPUs");
	cp_results_free(&results);
}

/* The console's summary: a heading, no line past 80 columns, and the
 * longest doubt (a placement that moved during the run) whole, to its
 * last words. */
static void test_console_width(void **state)
{
	struct cp_results results;
	char *text = NULL, *line;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_non_null(out);
	fixture_results(&results);
	fixture_align(&results, "user");
	fixture_c2c(&results, "user");
	snprintf(results.environment.hypervisor,
		 sizeof(results.environment.hypervisor), "KVM");
	results.environment.placement = (struct cp_placement_probe){
		.cpus = { 0, 1 }, .round_trip_ns = { 61, 215 },
	};
	cli_print_summary(out, &results);
	fclose(out);
	assert_contains(text, "summary");
	assert_contains(text, "split load: x2.50");
	assert_contains(text, "moved the vCPUs); run again\n");
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (strlen(line) > 80)
			fail_msg("%zu columns: %s", strlen(line), line);
	free(text);
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_split_load_and_c2c),
		cmocka_unit_test(test_many_pairs),
		cmocka_unit_test(test_transfer),
		cmocka_unit_test(test_bounce_and_doubts),
		cmocka_unit_test(test_console_width),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
