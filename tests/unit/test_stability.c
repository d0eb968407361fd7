// SPDX-License-Identifier: GPL-2.0
/* Which measurements are flagged as untrustworthy, and why. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "harness/harness_results.h"
#include "harness/stability.h"
#include "results_fixture.h"

/* Fresh @results holding one measurement "m" with @n samples in ns. */
static struct cp_measurement *fresh(struct cp_results *results,
				    const double *ns, size_t n)
{
	fixture_results(results);
	fixture_measurement(results, "m", ns, n);
	return &results->measurements[0];
}

/* A timer of 26-tick steps at 1 GHz; a harness that calibrates its count
 * and one given --count. */
static const struct cp_clock test_clock = {
	.tsc_hz = 1e9, .granularity_ticks = 26,
};
static const struct cp_harness calibrating = { .clock = &test_clock };
static const struct cp_harness fixed_count = {
	.clock = &test_clock, .config = { .fixed_count = 100 },
};

/* A measurement with @n samples in ns; its stability checked for samples
 * of @sample_ticks raw ticks and a timer step of 26 ticks. */
static struct cp_measurement *checked(struct cp_results *results,
				      const double *ns, size_t n,
				      double sample_ticks)
{
	struct cp_measurement *m = fresh(results, ns, n);

	cp_stability_check(m, sample_ticks, &calibrating);
	return m;
}

static bool warned(const struct cp_measurement *m, const char *text)
{
	for (size_t i = 0; i < m->nr_warnings; i++)
		if (strstr(m->warnings[i], text))
			return true;
	return false;
}

/*
 * Samples in rounds of 3: tight rounds whose medians differ by a
 * quarter differ, they are not unstable; rounds noisy inside are
 * unstable within a round; the same samples not in rounds are unstable.
 */
static void test_rounds_spread_and_noise(void **state)
{
	const double apart[] = { 10, 10.1, 9.9, 13, 13.1, 12.9, 11, 11.1, 10.9 };
	const double noisy[] = { 8, 10, 12, 8, 10, 12, 8, 10, 12 };
	struct cp_results results;
	struct cp_measurement *m;

	(void)state;
	m = fresh(&results, apart, 9);
	m->samples_per_round = 3;
	cp_stability_check(m, 1e6, &calibrating);
	assert_false(warned(m, "unstable"));
	assert_true(warned(m, "rounds differ: the 3 rounds' medians span 27 %"));
	cp_results_free(&results);
	m = fresh(&results, noisy, 9);
	m->samples_per_round = 3;
	cp_stability_check(m, 1e6, &calibrating);
	assert_true(warned(m, "unstable: CV 20.0 % within a round"));
	assert_false(warned(m, "rounds differ"));
	cp_results_free(&results);
	m = checked(&results, apart, 9, 1e6);
	assert_true(warned(m, "unstable: CV"));
	assert_false(warned(m, "within a round"));
	cp_results_free(&results);
}

static void test_steady_samples_pass(void **state)
{
	const double ns[] = { 10.0, 10.1, 9.9, 10.0, 10.05 };
	struct cp_results results;
	struct cp_measurement *m = checked(&results, ns, 5, 1e6);

	(void)state;
	assert_int_equal(m->nr_warnings, 0);
	cp_results_free(&results);
}

/* CV 0.2396 (Python: statistics.stdev / mean) and a mean 12 % above the
 * median. */
static void test_unstable_and_skewed(void **state)
{
	const double ns[] = { 10, 10, 10, 10, 16 };
	struct cp_results results;
	struct cp_measurement *m = checked(&results, ns, 5, 1e6);

	(void)state;
	assert_true(warned(m, "unstable: CV 24.0 % (above 10 %)"));
	assert_true(warned(m, "skewed: mean 11.2 ns is 12 % from median 10 ns"));
	cp_results_free(&results);
}

/* 1000 steps of 26 ticks are needed; 25000 ticks is short. */
static void test_too_short_for_the_timer(void **state)
{
	const double ns[] = { 10.0, 10.1, 9.9 };
	struct cp_results results;
	struct cp_measurement *m = checked(&results, ns, 3, 25000);

	(void)state;
	assert_int_equal(m->nr_warnings, 1);
	assert_true(warned(m, "samples too short for the timer: 25000 ticks is under 1000 steps of 26; raise --sample-time"));
	cp_results_free(&results);
}

/* With --count the sample time is not used: the advice is the count. */
static void test_too_short_with_fixed_count(void **state)
{
	const double ns[] = { 10.0, 10.1, 9.9 };
	struct cp_results results;
	struct cp_measurement *m = fresh(&results, ns, 3);

	(void)state;
	cp_stability_check(m, 25000, &fixed_count);
	assert_int_equal(m->nr_warnings, 1);
	assert_true(warned(m, "samples too short for the timer: 25000 ticks is under 1000 steps of 26; raise --count"));
	assert_false(warned(m, "--sample-time"));
	cp_results_free(&results);
	m = fresh(&results, ns, 3);
	cp_stability_check_ops(m, 2500, 0, &fixed_count);
	assert_true(warned(m, "; raise --count"));
	cp_results_free(&results);
	m = checked(&results, ns, 3, 26000);
	assert_int_equal(m->nr_warnings, 0);
	cp_results_free(&results);
}

static void test_busy_and_interrupted(void **state)
{
	const double ns[] = { 10.0, 10.1, 9.9 };
	struct cp_results results;
	struct cp_measurement *m;

	(void)state;
	m = fresh(&results, ns, 3);
	m->preempted_retaken = 3;
	m->interrupted = true;
	cp_stability_check(m, 1e6, &calibrating);
	assert_true(warned(m, "busy CPU: 3 samples were preempted"));
	assert_true(warned(m, "interrupted: 3 samples taken"));
	cp_results_free(&results);
}

/* Per-operation medians: 10 ns at 1 GHz is 10 ticks an operation, so
 * 2500 operations make a 25000-tick sample (short), 2600 do not; the
 * module's retries are named. */
static void test_per_operation_and_retries(void **state)
{
	const double ns[] = { 10.0, 10.1, 9.9 };
	struct cp_results results;
	struct cp_measurement *m;

	(void)state;
	m = fresh(&results, ns, 3);
	cp_stability_check_ops(m, 2500, 0, &calibrating);
	assert_int_equal(m->nr_warnings, 1);
	assert_true(warned(m, "samples too short for the timer: 25000 ticks"));
	cp_results_free(&results);

	m = fresh(&results, ns, 3);
	cp_stability_check_ops(m, 2600, 2, &calibrating);
	assert_int_equal(m->nr_warnings, 1);
	assert_true(warned(m, "2 samples overran the module's interrupt-off window"));
	cp_results_free(&results);
}

/* 5 % is the limit either way; unknown readings (0) say nothing. */
static void test_core_clock_drift(void **state)
{
	const double ns[] = { 10.0 };
	struct cp_results results;
	struct cp_measurement *m;

	(void)state;
	m = fresh(&results, ns, 1);
	cp_stability_check_core_clock(m, 1.50, 1.57);
	cp_stability_check_core_clock(m, 1.57, 1.50);
	cp_stability_check_core_clock(m, 0, 3.0);
	assert_int_equal(m->nr_warnings, 0);
	cp_stability_check_core_clock(m, 1.50, 1.58);
	assert_true(warned(m, "core clock moved during the measurement (1.500 then 1.580"));
	cp_stability_check_core_clock(m, 1.58, 1.50);
	assert_int_equal(m->nr_warnings, 2);
	cp_results_free(&results);
}

/* The module's missed rounds and disturbed windows: params always, a
 * warning only when not zero. */
static void test_kernel_run_notes(void **state)
{
	const double ns[] = { 10.0 };
	struct cp_results results;
	struct cp_measurement *m;

	(void)state;
	m = fresh(&results, ns, 1);
	cp_stability_note_kernel_run(m, 0, 0);
	assert_int_equal(cp_measurement_param(m, "missed_rounds", -1), 0);
	assert_int_equal(cp_measurement_param(m, "disturbed_windows", -1), 0);
	assert_int_equal(m->nr_warnings, 0);
	cp_results_free(&results);
	m = fresh(&results, ns, 1);
	cp_stability_note_kernel_run(m, 37, 2);
	assert_int_equal(cp_measurement_param(m, "missed_rounds", -1), 37);
	assert_int_equal(cp_measurement_param(m, "disturbed_windows", -1), 2);
	assert_true(warned(m, "kernel mode: 37 rounds missed (a partner CPU busy or descheduled)"));
	assert_true(warned(m, "kernel mode: 2 samples taken again"));
	cp_results_free(&results);
}

/* The harness's samples become the measurement's, values and flags. */
static void test_take_samples(void **state)
{
	struct cp_results results;
	struct cp_measurement *m;
	struct cp_samples samples = {
		.count = 500, .nr_samples = 3, .interrupted = true,
		.preempted_retaken = 2,
	};

	(void)state;
	samples.ticks_per_op = malloc(3 * sizeof(double));
	assert_non_null(samples.ticks_per_op);
	samples.ticks_per_op[0] = 30;
	samples.ticks_per_op[1] = 10;
	samples.ticks_per_op[2] = 20;
	fixture_results(&results);
	m = cp_results_add(&results);
	assert_non_null(m);
	assert_int_equal(cp_measurement_take_samples(m, &samples, 4, 2e9), 0);
	assert_null(samples.ticks_per_op);
	assert_int_equal(m->count, 500);
	assert_int_equal(m->scale, 4);
	assert_true(m->interrupted);
	assert_int_equal(m->preempted_retaken, 2);
	assert_int_equal(m->nr_samples, 3);
	assert_float_equal(m->stats_ns.median, 10.0, 1e-9);
	cp_samples_free(&samples);
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_samples_pass),
		cmocka_unit_test(test_rounds_spread_and_noise),
		cmocka_unit_test(test_unstable_and_skewed),
		cmocka_unit_test(test_too_short_for_the_timer),
		cmocka_unit_test(test_too_short_with_fixed_count),
		cmocka_unit_test(test_busy_and_interrupted),
		cmocka_unit_test(test_per_operation_and_retries),
		cmocka_unit_test(test_core_clock_drift),
		cmocka_unit_test(test_kernel_run_notes),
		cmocka_unit_test(test_take_samples),
	};

	return cmocka_run_group_tests_name("stability", tests, NULL, NULL);
}
