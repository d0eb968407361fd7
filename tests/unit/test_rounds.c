// SPDX-License-Identifier: GPL-2.0
/*
 * Rounds (harness/rounds.h), the interval over rounds (stats/stats.h) and
 * Welch's test on them (stats/welch.h).  The t distribution is checked
 * against closed forms: two-sided p = 1 - 2 atan(t) / pi with one degree
 * of freedom, 1 - t / sqrt(2 + t^2) with two, and the polynomial form of
 * the CDF with four; quantiles against the published table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include "harness/rounds.h"
#include "stats/stats.h"
#include "stats/welch.h"

#define TOLERANCE 1e-9

static void assert_close(double actual, double expected, double tolerance)
{
	if (fabs(actual - expected) > tolerance)
		fail_msg("%.12g is not %.12g (+-%g)", actual, expected,
			 tolerance);
}

static void test_samples_per_round(void **state)
{
	(void)state;
	assert_int_equal(cp_rounds_samples_per_round(15, 5), 3);
	assert_int_equal(cp_rounds_samples_per_round(15, 4), 4);
	assert_int_equal(cp_rounds_samples_per_round(7, 3), 3);
	/* More rounds than samples: one sample a round. */
	assert_int_equal(cp_rounds_samples_per_round(3, 10), 1);
	assert_int_equal(cp_rounds_samples_per_round(15, 1), 15);
	assert_int_equal(cp_rounds_count(15, 4), 4);
	assert_int_equal(cp_rounds_count(7, 3), 3);
	assert_int_equal(cp_rounds_count(15, 0), 0);
}

/* A plan: 7 samples over 3 rounds take 3, 3, 1; one round is not
 * marked; past the last round none. */
static void test_plan(void **state)
{
	struct cp_rounds plan = cp_rounds_plan(7, 3);
	struct cp_rounds one = cp_rounds_plan(7, 1);

	(void)state;
	assert_int_equal(plan.rounds, 3);
	assert_int_equal(cp_rounds_samples_in(&plan, 0), 3);
	assert_int_equal(cp_rounds_samples_in(&plan, 2), 1);
	assert_int_equal(cp_rounds_samples_in(&plan, 3), 0);
	assert_int_equal(cp_rounds_marked(&plan), 3);
	assert_int_equal(one.rounds, 1);
	assert_int_equal(cp_rounds_samples_in(&one, 0), 7);
	assert_int_equal(cp_rounds_marked(&one), 0);
	/* More rounds than samples: one sample each. */
	plan = cp_rounds_plan(2, 5);
	assert_int_equal(plan.rounds, 2);
	assert_int_equal(cp_rounds_marked(&plan), 1);
}

/* The last round is shorter; its median is its own. */
static void test_round_medians(void **state)
{
	const double values[] = { 3, 1, 2, 10, 30, 20, 7 };
	double medians[3];

	(void)state;
	assert_int_equal(cp_rounds_medians(values, 7, 3, medians), 3);
	assert_close(medians[0], 2, 0);
	assert_close(medians[1], 20, 0);
	assert_close(medians[2], 7, 0);
}

/* A permutation, the same for a seed, another for the next seed. */
static void test_order(void **state)
{
	size_t order[40], again[40], other[40];
	bool seen[40] = { false }, differs = false;

	(void)state;
	cp_rounds_order(order, 40, 7);
	cp_rounds_order(again, 40, 7);
	cp_rounds_order(other, 40, 8);
	for (size_t i = 0; i < 40; i++) {
		assert_true(order[i] < 40);
		assert_false(seen[order[i]]);
		seen[order[i]] = true;
		assert_int_equal(order[i], again[i]);
		differs |= order[i] != other[i];
	}
	assert_true(differs);
}

/*
 * Five rounds, tight inside, apart from each other: the interval over
 * rounds spans the rounds' medians; the one over samples, taking all 15
 * for independent, is narrower than their spread.
 */
static void test_interval_over_rounds(void **state)
{
	const double centers[] = { 10, 12, 9, 11, 10.5 };
	double values[15];
	struct cp_stats by_rounds, by_samples;

	(void)state;
	for (int r = 0; r < 5; r++)
		for (int i = 0; i < 3; i++)
			values[r * 3 + i] = centers[r] * (1 + 0.001 * (i - 1));
	assert_int_equal(cp_stats_compute_rounds(values, 15, 3, &by_rounds), 0);
	assert_int_equal(cp_stats_compute(values, 15, &by_samples), 0);
	assert_close(by_rounds.median, by_samples.median, 0);
	assert_true(by_rounds.median_ci_low <= 9.5);
	assert_true(by_rounds.median_ci_high >= 11.5);
	assert_true(by_rounds.median_ci_high - by_rounds.median_ci_low >
		    by_samples.median_ci_high - by_samples.median_ci_low);
	/* Not in rounds, or one round only: the samples' interval. */
	assert_int_equal(cp_stats_compute_rounds(values, 15, 0, &by_rounds), 0);
	assert_close(by_rounds.median_ci_low, by_samples.median_ci_low, 0);
	assert_int_equal(cp_stats_compute_rounds(values, 15, 15, &by_rounds),
			 0);
	assert_close(by_rounds.median_ci_high, by_samples.median_ci_high, 0);
}

static void test_student_t(void **state)
{
	(void)state;
	assert_close(cp_student_t_two_sided(2, 1), 0.2951672353008665,
		     TOLERANCE);
	assert_close(cp_student_t_two_sided(2, 2), 0.18350341907227385,
		     TOLERANCE);
	assert_close(cp_student_t_two_sided(2, 4), 0.11611652351681556,
		     TOLERANCE);
	assert_close(cp_student_t_two_sided(0, 4), 1, TOLERANCE);
	assert_close(cp_student_t_two_sided(1.959963984540054, INFINITY),
		     0.05, TOLERANCE);
	assert_close(cp_student_t_quantile_two_sided(0.05, 1), 12.7062047,
		     1e-6);
	assert_close(cp_student_t_quantile_two_sided(0.05, 4), 2.7764451,
		     1e-6);
	assert_close(cp_student_t_quantile_two_sided(0.05, 10), 2.2281389,
		     1e-6);
	assert_close(cp_student_t_quantile_two_sided(0.01, 30), 2.7499957,
		     1e-6);
}

/* Logs 0, +-0.1 against 0.5, +-0.1: equal spreads, so df = 4 exactly. */
static void test_welch(void **state)
{
	const double base[] = { 1, exp(0.1), exp(-0.1) };
	const double next[] = { exp(0.5), exp(0.6), exp(0.4) };
	const double flat[] = { 2, 2, 2 };
	const double bad[] = { 1, 0 };
	struct cp_welch welch;

	(void)state;
	assert_int_equal(cp_welch_log_ratio(base, 3, next, 3, 0.95, &welch),
			 0);
	assert_close(welch.df, 4, TOLERANCE);
	assert_close(welch.ratio, 1.6487212707001282, TOLERANCE);
	assert_close(welch.p_value, 0.0036022326091040835, TOLERANCE);
	assert_close(welch.low, 1.3143000025516112, 1e-7);
	assert_close(welch.high, 2.0682354281227364, 1e-7);
	/* No spread on either side: the ratio is exact. */
	assert_int_equal(cp_welch_log_ratio(flat, 3, flat, 3, 0.95, &welch),
			 0);
	assert_close(welch.p_value, 1, 0);
	assert_close(welch.low, 1, 0);
	assert_int_equal(cp_welch_log_ratio(base, 1, next, 3, 0.95, &welch),
			 -EINVAL);
	assert_int_equal(cp_welch_log_ratio(bad, 2, next, 3, 0.95, &welch),
			 -EDOM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_per_round),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_round_medians),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_interval_over_rounds),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_welch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
