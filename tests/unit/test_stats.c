// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics against reference values computed independently in Python
 * (statistics.median/mean/stdev, statistics.quantiles(method='inclusive')
 * for the percentiles, a Python SplitMix64 drawing indices into the
 * sorted values by Lemire's multiply-and-shift for the bootstrap), written
 * here as constants.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>

#include "harness/rng.h"
#include "stats/stats.h"

#define TOLERANCE 1e-9

/* Eleven timings with a slow and a fast outlier. */
static const double timings[] = {
	12.1, 11.8, 12.4, 30.5, 12.0, 11.9, 12.2, 12.3, 11.7, 12.6, 5.0,
};
#define NR_TIMINGS (sizeof(timings) / sizeof(timings[0]))

static void assert_close(double actual, double expected)
{
	if (actual < expected - TOLERANCE || actual > expected + TOLERANCE)
		fail_msg("%.17g is not %.17g", actual, expected);
}

static void test_summary_matches_reference(void **state)
{
	struct cp_stats stats;

	(void)state;
	assert_int_equal(cp_stats_compute(timings, NR_TIMINGS, &stats), 0);
	assert_int_equal(stats.count, NR_TIMINGS);
	assert_close(stats.median, 12.1);
	assert_close(stats.mean, 13.136363636363637);
	assert_close(stats.stddev, 6.1469134900814613);
	assert_close(stats.min, 5.0);
	assert_close(stats.max, 30.5);
	assert_close(stats.p5, 8.3499999999999996);
	assert_close(stats.p25, 11.85);
	assert_close(stats.p75, 12.35);
	assert_close(stats.p95, 21.550000000000001);
	assert_close(stats.cv, 0.46793113073284481);
}

static void test_bootstrap_interval_matches_reference(void **state)
{
	struct cp_stats stats;

	(void)state;
	assert_int_equal(cp_stats_compute(timings, NR_TIMINGS, &stats), 0);
	assert_close(stats.median_ci_low, 11.8);
	assert_close(stats.median_ci_high, 12.4);
}

/* An even count: resample medians are means of two values (seed 1, 101
 * resamples, the first ten timings). */
static void test_bootstrap_interval_even_count(void **state)
{
	double low, high;

	(void)state;
	assert_int_equal(cp_stats_median_interval(timings, 10, 101, 1, &low,
						  &high), 0);
	assert_close(low, 11.850000000000001);
	assert_close(high, 12.425);
	assert_int_equal(cp_stats_median_interval(timings, 0, 101, 1, &low,
						  &high), -EINVAL);
}

/* Fences 11.1/13.1 (mild) and 10.35/13.85 (extreme): 5.0 and 30.5 are
 * beyond the extreme ones, nothing lies between. */
static void test_tukey_fences(void **state)
{
	struct cp_stats stats;

	(void)state;
	assert_int_equal(cp_stats_compute(timings, NR_TIMINGS, &stats), 0);
	assert_int_equal(stats.mild_outliers, 0);
	assert_int_equal(stats.extreme_outliers, 2);
	assert_int_equal(cp_stats_classify(13.0, 11.85, 12.35), CP_OUTLIER_NONE);
	assert_int_equal(cp_stats_classify(13.5, 11.85, 12.35), CP_OUTLIER_MILD);
	assert_int_equal(cp_stats_classify(10.5, 11.85, 12.35), CP_OUTLIER_MILD);
	assert_int_equal(cp_stats_classify(13.9, 11.85, 12.35),
			 CP_OUTLIER_EXTREME);
	assert_string_equal(cp_outlier_name(CP_OUTLIER_EXTREME), "extreme");
}

static void test_even_count_median_interpolates(void **state)
{
	const double values[] = { 4, 1, 3, 2 };
	double sorted[] = { 1, 2, 3, 4 };

	(void)state;
	assert_close(cp_stats_median(values, 4), 2.5);
	assert_close(cp_stats_percentile_sorted(sorted, 4, 0.0), 1);
	assert_close(cp_stats_percentile_sorted(sorted, 4, 1.0), 4);
	assert_close(cp_stats_percentile_sorted(sorted, 4, 0.1), 1.3);
	/* The input is left as it was. */
	assert_close(values[0], 4);
}

static void test_single_sample(void **state)
{
	const double one = 7.5;
	struct cp_stats stats;

	(void)state;
	assert_int_equal(cp_stats_compute(&one, 1, &stats), 0);
	assert_close(stats.median, 7.5);
	assert_close(stats.stddev, 0);
	assert_close(stats.cv, 0);
	assert_close(stats.median_ci_low, 7.5);
	assert_close(stats.median_ci_high, 7.5);
}

static void test_no_samples_is_an_error(void **state)
{
	struct cp_stats stats;

	(void)state;
	assert_int_equal(cp_stats_compute(timings, 0, &stats), -EINVAL);
}

/* SplitMix64's published first outputs for seed 0. */
static void test_rng_reference_sequence(void **state)
{
	struct cp_rng rng;

	(void)state;
	cp_rng_seed(&rng, 0);
	assert_true(cp_rng_next(&rng) == 0xe220a8397b1dcdafull);
	assert_true(cp_rng_next(&rng) == 0x6e789e6aa1b965f4ull);
	assert_true(cp_rng_next(&rng) == 0x06c45d188009454full);
	for (int i = 0; i < 1000; i++)
		assert_true(cp_rng_below(&rng, 7) < 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_matches_reference),
		cmocka_unit_test(test_bootstrap_interval_matches_reference),
		cmocka_unit_test(test_bootstrap_interval_even_count),
		cmocka_unit_test(test_tukey_fences),
		cmocka_unit_test(test_even_count_median_interpolates),
		cmocka_unit_test(test_single_sample),
		cmocka_unit_test(test_no_samples_is_an_error),
		cmocka_unit_test(test_rng_reference_sequence),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
