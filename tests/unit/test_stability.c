// SPDX-License-Identifier: GPL-2.0
/* Which measurements are flagged as untrustworthy, and why. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/stability.h"
#include "results_fixture.h"

/* A measurement with @n samples in ns; its stability checked for samples
 * of @sample_ticks raw ticks and a timer step of 26 ticks. */
static struct cp_measurement *checked(struct cp_results *results,
				      const double *ns, size_t n,
				      double sample_ticks)
{
	struct cp_measurement *m;

	fixture_results(results);
	fixture_measurement(results, "m", ns, n);
	m = &results->measurements[0];
	cp_stability_check(m, sample_ticks, 26);
	return m;
}

static bool warned(const struct cp_measurement *m, const char *text)
{
	for (size_t i = 0; i < m->nr_warnings; i++)
		if (strstr(m->warnings[i], text))
			return true;
	return false;
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
	assert_true(warned(m, "samples too short for the timer: 25000 ticks is under 1000 steps of 26"));
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
	fixture_results(&results);
	fixture_measurement(&results, "m", ns, 3);
	m = &results.measurements[0];
	m->preempted_retaken = 3;
	m->interrupted = true;
	cp_stability_check(m, 1e6, 26);
	assert_true(warned(m, "busy CPU: 3 samples were preempted"));
	assert_true(warned(m, "interrupted: 3 samples taken"));
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_samples_pass),
		cmocka_unit_test(test_unstable_and_skewed),
		cmocka_unit_test(test_too_short_for_the_timer),
		cmocka_unit_test(test_busy_and_interrupted),
	};

	return cmocka_run_group_tests_name("stability", tests, NULL, NULL);
}
