// SPDX-License-Identifier: GPL-2.0
/* The bounce area's granularity rule on slowdowns as sweeps record them:
 * a verdict only where the same-line slowdown clears the run's noise;
 * then how the verdicts are stored, and shown on the console and in the
 * report, also from a saved file. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "areas/bounce/bounce_area.h"
#include "capture.h"
#include "areas/bounce/bounce_table.h"
#include "areas/bounce/bounce_granularity.h"
#include "results/results_json.h"
#include "report/report.h"
#include "results_fixture.h"

#define N(array) (sizeof(array) / sizeof((array)[0]))

/* The default sweep of a 64-byte-line machine, padded reference last. */
static const uint32_t distances[] = {
	0, 4, 8, 16, 32, 48, 56, 60, 64, 96, 128, 256,
};

/* Slowdowns of @values with intervals 2 % either side: tight, as atomic
 * rows have them. */
static void tight(const double *values, size_t n,
		  struct cp_ratio *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (struct cp_ratio){ .value = values[i],
						   .low = values[i] * 0.98,
						   .high = values[i] * 1.02 };
}

static void decide(const uint32_t *at, const struct cp_ratio *ratios,
		   size_t n, struct cp_bounce_decision *out)
{
	/* Whatever was there before must not leak into the verdict. */
	memset(out, 0x5a, sizeof(*out));
	cp_bounce_decide(at, ratios, n, out);
}

static void test_atomic(void **state)
{
	/* About 9x in a line, tight; free from 64 on. */
	struct cp_ratio atomic[] = {
		{ 12.1, 11.7, 12.6 },
		{ 9.02, 8.71, 9.30 }, { 8.95, 8.60, 9.31 },
		{ 9.10, 8.80, 9.38 }, { 8.88, 8.52, 9.20 },
		{ 9.05, 8.77, 9.33 }, { 8.97, 8.66, 9.27 },
		{ 9.01, 8.70, 9.29 },
		{ 1.02, 0.98, 1.06 }, { 0.99, 0.95, 1.03 },
		{ 1.01, 0.97, 1.05 }, { 1.00, 0.96, 1.04 },
	};
	struct cp_bounce_decision decision;

	(void)state;
	decide(distances, atomic, N(atomic), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_FOUND);
	assert_int_equal(decision.granularity, 64);
	assert_int_equal(decision.in_line, 4);
	assert_float_equal(decision.noise, 1.06, 1e-12);
	/* A disturbed round at 128, wide and 30 % up, is not bouncing. */
	atomic[10] = (struct cp_ratio){ 1.30, 0.90, 2.50 };
	decide(distances, atomic, N(atomic), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_FOUND);
	assert_int_equal(decision.granularity, 64);
	assert_float_equal(decision.noise, 2.50, 1e-12);
}

static void test_plain_in_noise(void **state)
{
	/* Recorded on a 2-vCPU guest: 1.07-1.11 below 64, the intervals
	 * overlapping those of the padded reference; a fixed 1.10 cut-off
	 * made 4, 56, 60 or 64 of such sweeps. */
	const struct cp_ratio plain[] = {
		{ 1.52, 1.41, 1.60 },
		{ 1.08, 1.02, 1.13 }, { 1.09, 1.03, 1.15 },
		{ 1.11, 1.04, 1.17 }, { 1.07, 1.01, 1.12 },
		{ 1.10, 1.04, 1.16 }, { 1.09, 1.02, 1.14 },
		{ 1.08, 1.02, 1.15 },
		{ 1.01, 0.96, 1.05 }, { 1.00, 0.96, 1.04 },
		{ 0.99, 0.95, 1.04 }, { 1.00, 0.96, 1.05 },
	};
	struct cp_ratio dip[N(plain)];
	struct cp_bounce_decision decision;

	(void)state;
	decide(distances, plain, N(plain), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_UNDETERMINED);
	assert_int_equal(decision.granularity, 0);
	assert_float_equal(decision.noise, 1.05, 1e-12);
	assert_string_equal(decision.reason,
			    "slowdown 1.08 [1.02, 1.13] at 4 B within the padded noise (<= 1.05)");
	/* A dip at 56 counts as free, and its interval as noise. */
	memcpy(dip, plain, sizeof(dip));
	dip[6] = (struct cp_ratio){ 1.03, 0.99, 1.08 };
	decide(distances, dip, N(dip), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_UNDETERMINED);
	assert_float_equal(decision.noise, 1.08, 1e-12);
	/* The low end must clear the noise, not merely reach it. */
	memcpy(dip, plain, sizeof(dip));
	dip[1].low = 1.05;
	decide(distances, dip, N(dip), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_UNDETERMINED);
	dip[1].low = 1.051;
	decide(distances, dip, N(dip), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_FOUND);
	assert_int_equal(decision.granularity, 64);
}

static void test_small_but_clear(void **state)
{
	/* 1.25 with tight intervals: well above noise of +-3 %. */
	const struct cp_ratio plain[] = {
		{ 1.60, 1.52, 1.66 },
		{ 1.25, 1.22, 1.28 }, { 1.24, 1.21, 1.27 },
		{ 1.26, 1.23, 1.29 }, { 1.25, 1.22, 1.28 },
		{ 1.23, 1.20, 1.26 }, { 1.25, 1.21, 1.28 },
		{ 1.24, 1.21, 1.27 },
		{ 1.01, 0.98, 1.03 }, { 1.00, 0.97, 1.03 },
		{ 0.99, 0.97, 1.02 }, { 1.00, 0.97, 1.03 },
	};
	struct cp_bounce_decision decision;

	(void)state;
	decide(distances, plain, N(plain), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_FOUND);
	assert_int_equal(decision.granularity, 64);
	assert_float_equal(decision.noise, 1.03, 1e-12);
}

static void test_never_free(void **state)
{
	const double values[] = { 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4.6 };
	struct cp_ratio ratios[N(values)];
	struct cp_bounce_decision decision;

	(void)state;
	tight(values, N(values), ratios);
	decide(distances, ratios, N(ratios), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_NEVER_FREE);
	assert_int_equal(decision.granularity, 0);
	/* Nothing is free, so the noise is 1 alone. */
	assert_float_equal(decision.noise, 1, 0);
}

static void test_nothing_measured(void **state)
{
	/* No padded reference: no ratio anywhere (all left at 0). */
	struct cp_ratio none[N(distances)] = { 0 };
	/* Only the shared counter measured. */
	struct cp_ratio shared[N(distances)] = { { 3, 2.9, 3.1 } };
	struct cp_bounce_decision decision;

	(void)state;
	decide(distances, none, N(none), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_UNDETERMINED);
	assert_int_equal(decision.in_line, 0);
	assert_string_equal(decision.reason,
			    "no slowdown against padded counters above 0 B");
	decide(distances, shared, N(shared), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_UNDETERMINED);
	decide(distances, none, 0, &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_UNDETERMINED);
}

static void test_faster_in_line(void **state)
{
	/* Sharing a line cannot make the counters faster: that is noise. */
	const double values[] = { 1, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9,
				  1, 1, 1, 1 };
	struct cp_ratio ratios[N(values)];
	struct cp_bounce_decision decision;

	(void)state;
	tight(values, N(values), ratios);
	decide(distances, ratios, N(ratios), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_UNDETERMINED);
}

static void test_recorded(void **state)
{
	/* A 2-vCPU guest whose plain increments bounce clearly (2.9x): atomic
	 * 4-byte and plain 8-byte sweeps as cacheprobe-run bounce measured
	 * them, 256 the padded reference.  Wide intervals among the free
	 * distances (up to 1.48) are still far below the same-line ones. */
	static const uint32_t at4[] = {
		0, 4, 8, 16, 32, 48, 56, 60, 64, 96, 128, 192, 256,
	};
	static const uint32_t at8[] = {
		0, 8, 16, 32, 48, 56, 64, 96, 128, 192, 256,
	};
	const struct cp_ratio atomic[] = {
		{ 3.59, 3.48, 3.64 }, { 3.96, 3.79, 4.07 },
		{ 3.83, 3.72, 3.92 }, { 3.80, 3.67, 3.89 },
		{ 3.84, 3.72, 3.95 }, { 3.94, 3.75, 4.02 },
		{ 3.71, 3.61, 3.80 }, { 3.74, 3.62, 3.84 },
		{ 0.97, 0.95, 1.08 }, { 0.95, 0.92, 0.97 },
		{ 0.99, 0.96, 1.08 }, { 0.99, 0.96, 1.02 },
		{ 1.00, 0.97, 1.03 },
	};
	const struct cp_ratio plain[] = {
		{ 4.79, 3.53, 5.04 }, { 4.89, 3.62, 5.09 },
		{ 4.53, 3.31, 4.73 }, { 4.28, 3.17, 4.50 },
		{ 4.82, 3.57, 5.12 }, { 4.80, 3.56, 5.10 },
		{ 1.25, 0.93, 1.34 }, { 1.39, 1.04, 1.48 },
		{ 1.24, 0.89, 1.40 }, { 1.05, 0.77, 1.18 },
		{ 1.00, 0.74, 1.36 },
	};
	struct cp_bounce_decision decision;

	(void)state;
	decide(at4, atomic, N(atomic), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_FOUND);
	assert_int_equal(decision.granularity, 64);
	decide(at8, plain, N(plain), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_FOUND);
	assert_int_equal(decision.granularity, 64);
	assert_int_equal(decision.in_line, 8);
	assert_float_equal(decision.noise, 1.48, 1e-12);
}

/* The curve read at a threshold, as before intervals were judged. */
static void test_granularity(void **state)
{
	const uint32_t at[] = { 0, 4, 60, 64, 96, 128, 256 };
	/* Adjacent-line pairing: bouncing up to 96, gone from 128. */
	const double paired[] = { 5, 5, 5, 3, 3, 1.0, 1.0 };
	/* One line: gone from 64. */
	const double single[] = { 5, 5, 5, 1.02, 0.99, 1.0, 1.0 };
	/* A dip that comes back is not the end of bouncing. */
	const double dip[] = { 5, 5, 1.0, 3, 1.0, 1.0, 1.0 };
	const double never[] = { 5, 5, 5, 5, 5, 5, 2 };
	const double flat[] = { 1, 1, 1, 1, 1, 1, 1 };
	struct cp_ratio r[N(at)];

	(void)state;
	tight(paired, N(at), r);
	assert_int_equal(cp_bounce_granularity(at, r, N(at), 1.10), 128);
	tight(single, N(at), r);
	assert_int_equal(cp_bounce_granularity(at, r, N(at), 1.10), 64);
	tight(dip, N(at), r);
	assert_int_equal(cp_bounce_granularity(at, r, N(at), 1.10), 96);
	tight(never, N(at), r);
	assert_int_equal(cp_bounce_granularity(at, r, N(at), 1.10), 0);
	/* The shared counter (0) is never the answer. */
	tight(flat, N(at), r);
	assert_int_equal(cp_bounce_granularity(at, r, N(at), 1.10), 4);
	/* A distance not measured is neither free nor slowed: 64 missing,
	 * the answer is the next one measured. */
	tight(single, N(at), r);
	r[3] = (struct cp_ratio){ 0 };
	assert_int_equal(cp_bounce_granularity(at, r, N(at), 1.10), 96);
}

static void test_threshold(void **state)
{
	/* Any order; the smallest distance above 0 decides. */
	const uint32_t at[] = { 0, 128, 4, 64 };
	/* Atomic-like: 5x in a line, half-way is 3x. */
	const double atomic[] = { 6, 1.14, 5, 1.0 };
	/* Plain-like: 1.2x in a line, half-way is 1.1x. */
	const double plain[] = { 1.2, 1.0, 1.2, 1.0 };
	struct cp_ratio r[N(at)];
	struct cp_bounce_decision decision;

	(void)state;
	tight(atomic, N(at), r);
	assert_float_equal(cp_bounce_threshold(at, r, N(at)), 3.0, 1e-12);
	/* A 14 % disturbance at 128 does not pass for bouncing. */
	decide(at, r, N(at), &decision);
	assert_int_equal(decision.verdict, CP_BOUNCE_FOUND);
	assert_int_equal(decision.granularity, 64);
	tight(plain, N(at), r);
	assert_float_equal(cp_bounce_threshold(at, r, N(at)), 1.1, 1e-12);
	/* With nothing measured above 0, nothing counts as slowed. */
	assert_float_equal(cp_bounce_threshold(at, r, 1), 1, 0);
}

/* Samples of one run scattering +-10 %, as a loaded guest gives them. */
static const double scatter[] = {
	9.0, 9.5, 10.0, 10.5, 11.0, 9.2, 10.8, 9.7,
	10.3, 9.9, 10.1, 9.4, 10.6, 9.8, 10.2,
};

/* A sweep measured at @at (@n distances, the padded one 256), its times
 * @factors[i] times the scatter, derived as the area does. */
static void add_sweep(struct cp_results *results, const char *stem,
		      const uint32_t *at, const double *factors, size_t n)
{
	struct cp_measurement *sweep[8];
	const struct cp_measurement *padded = NULL;
	size_t first = results->nr_measurements;

	for (size_t i = 0; i < n; i++) {
		double ns[N(scatter)];
		char name[64];

		/* Rotated: each measurement scatters in its own order. */
		for (size_t k = 0; k < N(scatter); k++)
			ns[k] = scatter[(k + i) % N(scatter)] * factors[i];
		snprintf(name, sizeof(name), "%s d=%u", stem, at[i]);
		cp_measurement_add_param(
			fixture_area_measurement(results, "bounce", "user",
						 name, ns, N(ns)),
			"distance_bytes", at[i]);
	}
	/* Pointers only now: adding measurements moves them. */
	for (size_t i = 0; i < n; i++) {
		sweep[i] = &results->measurements[first + i];
		if (at[i] == 256)
			padded = sweep[i];
	}
	bounce_derive_sweep(sweep, at, n, padded, NULL);
}

static void build(struct cp_results *results)
{
	static const uint32_t at[] = { 4, 64, 256 };
	static const uint32_t far[] = { 4, 64, 256, 512 };

	fixture_results(results);
	add_sweep(results, "g 0,1 atomic 4B", at,
		  (const double[]){ 9, 1, 1 }, 3);
	add_sweep(results, "g 0,1 plain 4B", at,
		  (const double[]){ 1.05, 1, 1 }, 3);
	add_sweep(results, "g 0,1 atomic 8B", far,
		  (const double[]){ 5, 5, 1, 5 }, 4);
}

static const struct cp_measurement *row(const struct cp_results *results,
					const char *name)
{
	const struct cp_measurement *m =
		cp_results_find(results, "bounce", name);

	assert_non_null(m);
	return m;
}

static void test_stored(void **state)
{
	struct cp_results results;
	const struct cp_measurement *judged;

	(void)state;
	build(&results);
	assert_int_equal(cp_measurement_param(row(&results,
						  "g 0,1 atomic 4B d=256"),
					      "granularity_bytes", -1), 64);
	assert_string_equal(row(&results, "g 0,1 atomic 4B d=64")->note,
			    "x1.00 padded: granularity");
	/* Undetermined: a flag and no size on every row, the reason on the
	 * row judged alone. */
	for (size_t i = 0; i < 3; i++) {
		static const char *const names[] = { "g 0,1 plain 4B d=4",
						     "g 0,1 plain 4B d=64",
						     "g 0,1 plain 4B d=256" };
		const struct cp_measurement *m = row(&results, names[i]);

		assert_int_equal(cp_measurement_param(
			m, "granularity_undetermined", 0), 1);
		assert_int_equal(cp_measurement_param(
			m, "granularity_bytes", -1), -1);
		assert_int_equal(m->nr_warnings, i == 0);
	}
	judged = row(&results, "g 0,1 plain 4B d=4");
	assert_non_null(strstr(judged->warnings[0],
			       "granularity undetermined: slowdown 1.05 ["));
	assert_non_null(strstr(judged->warnings[0],
			       "at 4 B within the padded noise (<= "));
	/* Never free: neither a size nor the flag. */
	judged = row(&results, "g 0,1 atomic 8B d=4");
	assert_int_equal(cp_measurement_param(judged, "granularity_bytes", -1),
			 -1);
	assert_int_equal(cp_measurement_param(judged,
					      "granularity_undetermined", 0),
			 0);
	assert_int_equal(judged->nr_warnings, 0);
	cp_results_free(&results);
}

/* @text found after @from and before @to. */
static void assert_between(const char *from, const char *text,
			   const char *to)
{
	const char *at = strstr(from, text);

	assert_non_null(at);
	assert_true(at < to);
}

/* The console table's verdicts, in sweep order; an undetermined one's
 * reason is in the measurement's warning, which the results table lists
 * beneath (a row has no room for it). */
static void assert_console(const struct cp_results *results)
{
	struct text_capture capture;
	const char *atomic, *plain, *never;

	capture_text_begin(&capture);
	cli_print_bounce(capture.stream, results);
	capture_text_end(&capture);
	atomic = strstr(capture.text, "g 0,1 atomic 4B");
	plain = strstr(capture.text, "g 0,1 plain 4B");
	never = strstr(capture.text, "g 0,1 atomic 8B");
	assert_non_null(atomic);
	assert_non_null(plain);
	assert_non_null(never);
	assert_between(atomic, "  64 B\n", plain);
	assert_between(plain, "  undetermined\n", never);
	assert_non_null(strstr(never, "  none\n"));
	free(capture.text);
}

static void assert_report(const struct cp_results *results)
{
	struct text_capture capture;

	capture_text_begin(&capture);
	assert_int_equal(cp_report_write(results, capture.stream), 0);
	capture_text_end(&capture);
	assert_non_null(strstr(capture.text, "<td>64 B</td>"));
	assert_non_null(strstr(capture.text,
			       "<td>undetermined: slowdown 1.05 ["));
	assert_non_null(strstr(capture.text, "<td>none</td>"));
	/* Only the answer found is marked on the chart. */
	assert_non_null(strstr(capture.text, ">granularity 64 B<"));
	free(capture.text);
}

static void test_shown(void **state)
{
	struct cp_results results, read_back;
	struct cp_error error;
	char *path;

	(void)state;
	build(&results);
	assert_console(&results);
	assert_report(&results);
	path = fixture_write_json(&results, "bounce.json");
	assert_int_equal(cp_results_read_json(path, &read_back, &error), 0);
	assert_console(&read_back);
	assert_report(&read_back);
	fixture_remove(path);
	cp_results_free(&read_back);
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atomic),
		cmocka_unit_test(test_plain_in_noise),
		cmocka_unit_test(test_small_but_clear),
		cmocka_unit_test(test_never_free),
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_faster_in_line),
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_granularity),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_stored),
		cmocka_unit_test(test_shown),
	};

	return cmocka_run_group_tests_name("bounce_granularity", tests, NULL,
					   NULL);
}
