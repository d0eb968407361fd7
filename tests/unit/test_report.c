// SPDX-License-Identifier: GPL-2.0
/* The HTML report made from a fixture result set: self-contained, escaped,
 * one section per area with charts, a table for areas without a renderer,
 * and the same from a saved JSON file. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "results/results_json.h"
#include "report/report.h"
#include "results_fixture.h"

static const double samples[] = { 10, 11, 12, 11, 10.5 };
#define NR_SAMPLES (sizeof(samples) / sizeof(samples[0]))

static struct cp_measurement *add(struct cp_results *results,
				  const char *area, const char *mode,
				  const char *name)
{
	struct cp_measurement *m;

	fixture_measurement(results, name, samples, NR_SAMPLES);
	m = &results->measurements[results->nr_measurements - 1];
	snprintf(m->area, sizeof(m->area), "%s", area);
	snprintf(m->mode, sizeof(m->mode), "%s", mode);
	if (strcmp(area, "latency") != 0)
		m->nr_params = 0;
	return m;
}

static void add_coldcache(struct cp_results *results, const char *method)
{
	char name[64];
	struct cp_measurement *m;

	snprintf(name, sizeof(name), "%s 1 MiB evict", method);
	add(results, "coldcache", "user", name);
	snprintf(name, sizeof(name), "%s 1 MiB first pass", method);
	m = add(results, "coldcache", "user", name);
	cp_measurement_add_param(m, "l1d_ppm", -1);
	cp_measurement_add_param(m, "l2_ppm", 900000);
	cp_measurement_add_param(m, "memory_ppm", 100000);
	cp_measurement_add_param(m, "cached_worst_ppm", 950000);
	snprintf(m->note, sizeof(m->note), "partly evicted");
}

static void add_bounce(struct cp_results *results, const char *mode, int d)
{
	char name[64];
	struct cp_measurement *m;

	snprintf(name, sizeof(name), "shared-l3 0,1 atomic 4B d=%d", d);
	m = add(results, "bounce", mode, name);
	cp_measurement_add_param(m, "distance_bytes", d);
	cp_measurement_add_param(m, "atomic", 1);
	cp_measurement_add_param(m, "slowdown_padded_milli", d < 64 ? 5000 : 1000);
	cp_measurement_add_param(m, "granularity_bytes", 64);
}

static void build(struct cp_results *results)
{
	struct cp_measurement *m;

	fixture_results(results);
	add(results, "latency", "user", "chase 4 KiB");
	m = add(results, "latency", "user", "chase 1 MiB");
	m->params[0].value = 1 << 20;
	add(results, "latency", "kernel", "chase 4 KiB");
	results->nr_levels = 1;
	snprintf(results->levels[0].name, sizeof(results->levels[0].name),
		 "L1d");
	results->levels[0].nominal_bytes = 48 << 10;
	results->levels[0].latency_ns = 1.5;
	add_coldcache(results, "warm");
	add_coldcache(results, "clflush");
	add_bounce(results, "user", 0);
	add_bounce(results, "user", 64);
	add_bounce(results, "kernel", 0);
	fixture_align(results, "user");
	fixture_xcore(results, "user");
	fixture_c2c(results, "user");
	m = add(results, "future<area>", "user", "sweep <1> & \"2\"");
	cp_measurement_warn(m, "odd <warning>");
}

static char *report_of(const struct cp_results *results)
{
	struct text_capture capture;

	capture_text_begin(&capture);
	assert_int_equal(cp_report_write(results, capture.stream), 0);
	capture_text_end(&capture);
	return capture.text;
}

static size_t count_of(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *at = strstr(text, what); at;
	     at = strstr(at + 1, what))
		n++;
	return n;
}

/* How often @what occurs in the section of @area. */
static size_t count_in(const char *html, const char *area, const char *what)
{
	char id[64];
	const char *start, *end;
	size_t n = 0;

	snprintf(id, sizeof(id), "<section id=\"area-%s\"", area);
	start = strstr(html, id);
	assert_non_null(start);
	end = strstr(start, "</section>");
	assert_non_null(end);
	for (const char *at = strstr(start, what); at && at < end;
	     at = strstr(at + 1, what))
		n++;
	return n;
}

/* The charts of the section of @area. */
static size_t charts_in(const char *html, const char *area)
{
	return count_in(html, area, "<svg ");
}

static void assert_self_contained(const char *html)
{
	assert_true(strncmp(html, "<!DOCTYPE html>", 15) == 0);
	assert_non_null(strstr(html, "</html>\n"));
	assert_null(strstr(html, "http"));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<link"));
	assert_null(strstr(html, "src="));
	assert_null(strstr(html, "url("));
	assert_null(strstr(html, "@import"));
	assert_null(strstr(html, "nan"));
}

static void test_report_has_every_area(void **state)
{
	struct cp_results results;
	char *html;

	(void)state;
	build(&results);
	html = report_of(&results);
	assert_self_contained(html);
	assert_non_null(strstr(html, "Test CPU &quot;quoted&quot;, v2"));
	assert_non_null(strstr(html, "user mode only"));
	/* The findings first, before the machine and every area. */
	assert_non_null(strstr(html, "<section id=\"summary\">"));
	assert_true(strstr(html, "<section id=\"summary\">") <
		    strstr(html, "id=\"machine\""));
	assert_non_null(strstr(html, "<th>coherence granularity</th><td>64 B"));
	/* Every table of measurements folded away behind its caption. */
	assert_true(count_of(html, "<div class=\"tablewrap\"><table>") > 0);
	assert_int_equal(count_of(html, "<details class=\"table\"><summary>"),
			 count_of(html, "<div class=\"tablewrap\"><table>"));
	/* latency: user and kernel side by side, cache size marked. */
	assert_int_equal(charts_in(html, "latency"), 2);
	assert_non_null(strstr(html, ">L1d 48 KiB<"));
	/* coldcache: eviction cost, warmth (stacked), first pass. */
	assert_int_equal(charts_in(html, "coldcache"), 3);
	assert_non_null(strstr(html, "merged into the next"));
	/* bounce: atomic increments in each mode, granularity marked. */
	assert_int_equal(charts_in(html, "bounce"), 2);
	assert_non_null(strstr(html, ">granularity 64 B<"));
	/* align: offsets, heatmap, page splits, classic; xcore: read and
	 * modify; c2c: CAS and flag heatmaps, the classes. */
	assert_int_equal(charts_in(html, "align"), 4);
	assert_int_equal(charts_in(html, "xcore"), 2);
	assert_int_equal(charts_in(html, "c2c"), 3);
	/* No renderer: a table, with the names escaped. */
	assert_int_equal(charts_in(html, "future&lt;area&gt;"), 0);
	assert_non_null(strstr(html, "sweep &lt;1&gt; &amp; &quot;2&quot;"));
	assert_non_null(strstr(html, "odd &lt;warning&gt;"));
	assert_null(strstr(html, "<area>"));
	free(html);
	cp_results_free(&results);
}

static void test_report_from_saved_json(void **state)
{
	struct cp_results results, read_back;
	struct cp_error error;
	char *path, *html;

	(void)state;
	build(&results);
	path = fixture_write_json(&results, "results.json");
	assert_int_equal(cp_results_read_json(path, &read_back, &error), 0);
	html = report_of(&read_back);
	assert_self_contained(html);
	assert_int_equal(charts_in(html, "latency"), 2);
	assert_int_equal(charts_in(html, "coldcache"), 3);
	assert_int_equal(charts_in(html, "bounce"), 2);
	assert_int_equal(charts_in(html, "align"), 4);
	assert_int_equal(charts_in(html, "xcore"), 2);
	assert_int_equal(charts_in(html, "c2c"), 3);
	free(html);
	fixture_remove(path);
	cp_results_free(&read_back);
	cp_results_free(&results);
}

static void test_report_without_measurements(void **state)
{
	struct cp_results results;
	char *html;

	(void)state;
	fixture_results(&results);
	results.interrupted = true;
	snprintf(results.environment.module_version,
		 sizeof(results.environment.module_version), "0.1.0");
	results.environment.abi_version = 2;
	html = report_of(&results);
	assert_self_contained(html);
	assert_non_null(strstr(html, "cacheprobe.ko 0.1.0, ABI 2"));
	assert_non_null(strstr(html, "interrupted"));
	assert_non_null(strstr(html, "no measurements"));
	/* The summary, each finding "not measured", and the machine. */
	assert_int_equal(count_of(html, "<section"), 2);
	assert_int_equal(count_of(html, "<tr class=\"unmeasured\""), 7);
	free(html);
	cp_results_free(&results);
}

/* The machine table has the vCPUs' round trip when the run measured it,
 * and the environment's warnings say when it moved during the run. */
static void test_report_placement(void **state)
{
	struct cp_results results;
	char *html;

	(void)state;
	fixture_results(&results);
	html = report_of(&results);
	assert_null(strstr(html, "CPU round trip"));
	free(html);
	results.environment.placement.cpus[1] = 1;
	results.environment.placement.round_trip_ns[0] = 56.2;
	results.environment.placement.round_trip_ns[1] = 57.1;
	html = report_of(&results);
	assert_non_null(strstr(html,
			       "<tr><th>CPU round trip</th><td>0:1 56 ns, then 57 ns</td></tr>"));
	assert_null(strstr(html, "the host moved the vCPUs"));
	free(html);
	results.environment.placement.round_trip_ns[1] = 212.4;
	html = report_of(&results);
	assert_non_null(strstr(html, "<td>0:1 56 ns, then 212 ns</td>"));
	assert_non_null(strstr(html,
			       "<li>the round trip between CPUs 0 and 1 went from 56 ns at the start to 212 ns at the end, so the run&#39;s figures across two CPUs (bounce, xcore, c2c) mix two placements (on a virtual machine, the host moved the vCPUs); run again</li>"));
	free(html);
	cp_results_free(&results);
}

/* Both modes of one area: a column each, user first. */
static void assert_modes_side_by_side(const char *html, const char *area)
{
	assert_int_equal(count_in(html, area, "<div class=\"mode\">"), 2);
	assert_true(strstr(html, "<h3>user mode</h3>") <
		    strstr(html, "<h3>kernel mode</h3>"));
}

static void test_report_align(void **state)
{
	struct cp_results results;
	char *html;

	(void)state;
	fixture_results(&results);
	fixture_align(&results, "user");
	fixture_align(&results, "kernel");
	snprintf(results.measurements[9].note,
		 sizeof(results.measurements[9].note), "odd <note> & \"x\"");
	html = report_of(&results);
	assert_self_contained(html);
	assert_modes_side_by_side(html, "align");
	/* user: penalty by offset (the 8-byte sweep of 4 offsets), the line
	 * ends (the 1-byte pair, a step: bars, not a line through two
	 * points), page splits, classic; kernel mode has no classic
	 * pattern.  One width swept: no heat map of mostly empty cells. */
	assert_int_equal(charts_in(html, "align"), 7);
	assert_int_equal(count_in(html, "align", "<title>load-latency: penalty by offset and width"), 0);
	assert_int_equal(count_in(html, "align", "<rect class=\"cell\""), 0);
	assert_int_equal(count_in(html, "align", ">line boundary 64 B<"), 2);
	assert_int_equal(count_in(html, "align", "</title>8-byte</text>"), 2);
	assert_int_equal(count_in(html, "align", "</title>1-byte</text>"), 0);
	assert_int_equal(count_in(html, "align", "<title>Line ends: penalty"), 2);
	/* The line split (5 against 2 ns) and the page split (8 against 2). */
	assert_int_equal(count_in(html, "align", ">x2.50 ["), 2);
	assert_int_equal(count_in(html, "align", ">x4.00 ["), 2);
	assert_int_equal(count_in(html, "align", "<td>agree</td>"), 2);
	assert_int_equal(count_in(html, "align", "touches twice the lines"), 1);
	assert_int_equal(count_in(html, "align", "<title>Classic pattern"), 1);
	assert_non_null(strstr(html, "odd &lt;note&gt; &amp; &quot;x&quot;"));
	assert_null(strstr(html, "<note>"));
	free(html);
	/* A second width swept: a heat map of both, 2 rows by the 5
	 * offsets either took (0, 32, 60, 62, 64), 3 of them empty. */
	fixture_align_sweep(&results, "user", 4);
	html = report_of(&results);
	assert_int_equal(count_in(html, "align", "<title>load-latency: penalty by offset and width"), 1);
	assert_int_equal(count_in(html, "align", "<rect class=\"cell\""), 10);
	assert_int_equal(count_in(html, "align", ": no value</title>"), 3);
	free(html);
	cp_results_free(&results);
}

static void test_report_xcore(void **state)
{
	struct cp_results results;
	char *html;

	(void)state;
	fixture_results(&results);
	fixture_xcore(&results, "user");
	fixture_xcore(&results, "kernel");
	snprintf(results.measurements[0].note,
		 sizeof(results.measurements[0].note), "fits L1d (48 KiB) <b>");
	html = report_of(&results);
	assert_self_contained(html);
	assert_modes_side_by_side(html, "xcore");
	assert_int_equal(charts_in(html, "xcore"), 4);
	assert_int_equal(count_in(html, "xcore", "<title>Producer read the block"), 2);
	assert_int_equal(count_in(html, "xcore", "<title>Producer modified the block"), 2);
	/* The pair and both baselines in every chart, the L1d marked (the
	 * L2 lies beyond the largest block). */
	assert_int_equal(count_in(html, "xcore", "</title>shared-l3 0&gt;1</text>"), 4);
	assert_int_equal(count_in(html, "xcore", "</title>same CPU 0&gt;0</text>"), 4);
	assert_int_equal(count_in(html, "xcore", "</title>memory, cpu 1</text>"), 4);
	assert_int_equal(count_in(html, "xcore", ">L1d 48 KiB<"), 4);
	/* The penalty against the same CPU: 60 and 70 ns against 2. */
	assert_int_equal(count_in(html, "xcore", ">x30.00 ["), 4);
	assert_int_equal(count_in(html, "xcore", ">x35.00 ["), 4);
	assert_non_null(strstr(html, "fits L1d (48 KiB) &lt;b&gt;"));
	assert_null(strstr(html, "<b>"));
	free(html);
	cp_results_free(&results);
}

static void test_report_c2c(void **state)
{
	struct cp_results results;
	char *html;

	(void)state;
	fixture_results(&results);
	fixture_c2c(&results, "user");
	fixture_c2c(&results, "kernel");
	html = report_of(&results);
	assert_self_contained(html);
	assert_modes_side_by_side(html, "c2c");
	assert_int_equal(charts_in(html, "c2c"), 6);
	assert_int_equal(count_in(html, "c2c", "<title>CAS (LOCK CMPXCHG) round trip"), 2);
	assert_int_equal(count_in(html, "c2c", "<title>flag (load, then store) round trip"), 2);
	/* 3 x 3 cells per heatmap, each with a colour scale. */
	assert_int_equal(count_in(html, "c2c", "<rect class=\"cell\""), 36);
	assert_int_equal(count_in(html, "c2c", ">round trip (ns, median)<"), 4);
	/* Per class, both variants, both modes: smt (one pair) and
	 * shared-l3 (two pairs, 100 and 120 ns). */
	assert_int_equal(count_in(html, "c2c", "<td>smt</td><td>1</td>"), 4);
	assert_int_equal(count_in(html, "c2c", "<td>shared-l3</td><td>2</td>"), 4);
	free(html);
	cp_results_free(&results);
}

/* Kernel mode classifies warm's lines but not clflush's: the table's
 * level columns come from warm, though clflush comes first, and every
 * row has a cell under each heading. */
static void test_report_coldcache_kernel_columns(void **state)
{
	struct cp_results results;
	struct cp_measurement *m;
	const char *table, *end, *row;
	char *html;
	size_t headings;

	(void)state;
	fixture_results(&results);
	add(&results, "coldcache", "kernel", "clflush 1 MiB first pass");
	m = add(&results, "coldcache", "kernel", "warm 1 MiB first pass");
	cp_measurement_add_param(m, "l1d_ppm", -1);
	cp_measurement_add_param(m, "l2_ppm", 990000);
	cp_measurement_add_param(m, "memory_ppm", 10000);
	cp_measurement_add_param(m, "cached_ppm", 990000);
	html = report_of(&results);
	table = strstr(html, "coldcache, kernel mode: eviction cost");
	assert_non_null(table);
	end = strstr(table, "</table>");
	assert_non_null(end);
	row = strstr(table, "</thead>");
	assert_non_null(row);
	headings = 0;
	for (const char *at = strstr(table, "<th"); at && at < row;
	     at = strstr(at + 1, "<th"))
		headings += at[3] == '>' || at[3] == ' ';
	assert_int_equal(headings, 5 + 3 + 2);
	for (row = strstr(row, "<tr>"); row && row < end;
	     row = strstr(row + 1, "<tr>")) {
		const char *row_end = strstr(row, "</tr>");
		size_t cells = 0;

		for (const char *at = strstr(row, "<td"); at && at < row_end;
		     at = strstr(at + 1, "<td"))
			cells++;
		assert_int_equal(cells, headings);
	}
	assert_non_null(strstr(table, "<td>-</td>"));
	free(html);
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_has_every_area),
		cmocka_unit_test(test_report_from_saved_json),
		cmocka_unit_test(test_report_without_measurements),
		cmocka_unit_test(test_report_placement),
		cmocka_unit_test(test_report_align),
		cmocka_unit_test(test_report_xcore),
		cmocka_unit_test(test_report_c2c),
		cmocka_unit_test(test_report_coldcache_kernel_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
