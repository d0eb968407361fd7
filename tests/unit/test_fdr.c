// SPDX-License-Identifier: GPL-2.0
/* Benjamini-Hochberg adjusted p-values and the distribution-free interval
 * of a ratio of timings, against values worked by hand and by brute
 * force. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats/fdr.h"
#include "stats/ratio_interval.h"

static void assert_close(double got, double want)
{
	if (fabs(got - want) > 1e-9 * (1 + fabs(want)))
		fail_msg("got %.12g, want %.12g", got, want);
}

/* Sorted 0.005, 0.01, 0.03, 0.04 of 4 become 0.02, 0.02, 0.04, 0.04;
 * a p-value never falls below one smaller than it. */
static void test_fdr_by_hand(void **state)
{
	double p[4] = { 0.01, 0.04, 0.03, 0.005 }, adjusted[4];
	double ties[3] = { 0.5, 0.5, 0.9 };

	(void)state;
	assert_int_equal(cp_fdr_adjust(p, 4, adjusted), 0);
	assert_close(adjusted[0], 0.02);
	assert_close(adjusted[1], 0.04);
	assert_close(adjusted[2], 0.04);
	assert_close(adjusted[3], 0.02);
	/* In place, and capped at 1 (0.9 * 3 / 3 = 0.9, 0.5 * 3 / 2). */
	assert_int_equal(cp_fdr_adjust(ties, 3, ties), 0);
	assert_close(ties[0], 0.75);
	assert_close(ties[1], 0.75);
	assert_close(ties[2], 0.9);
	assert_int_equal(cp_fdr_adjust(p, 0, adjusted), 0);
}

static void test_normal_quantile(void **state)
{
	(void)state;
	assert_true(fabs(cp_normal_quantile_two_sided(0.95) - 1.959964) < 1e-6);
	assert_true(fabs(cp_normal_quantile_two_sided(0.99) - 2.575829) < 1e-6);
}

static int by_value(const void *left, const void *right)
{
	double a = *(const double *)left, b = *(const double *)right;

	return (a > b) - (a < b);
}

/* The interval's ends and estimate are order statistics of all pairwise
 * ratios: checked against sorting them, for sets of every parity. */
static void test_interval_brute_force(void **state)
{
	double base[20], next[17], ratios[20 * 17];
	unsigned int seed = 7;

	(void)state;
	for (size_t n = 1; n <= 20; n += 3) {
		for (size_t m = 2; m <= 17; m += 5) {
			struct cp_ratio_interval got;
			size_t pairs = n * m;
			double rank, median;

			for (size_t i = 0; i < n; i++)
				base[i] = 10 + rand_r(&seed) % 100 / 10.0;
			for (size_t j = 0; j < m; j++)
				next[j] = 11 + rand_r(&seed) % 100 / 10.0;
			for (size_t i = 0; i < n; i++)
				for (size_t j = 0; j < m; j++)
					ratios[i * m + j] = next[j] / base[i];
			qsort(ratios, pairs, sizeof(double), by_value);
			assert_int_equal(cp_ratio_interval(base, n, next, m,
							   1.96, &got), 0);
			median = (ratios[(pairs - 1) / 2] +
				  ratios[pairs / 2]) / 2;
			assert_close(got.estimate, median);
			rank = floor(pairs / 2.0 -
				     1.96 * sqrt(pairs * (n + m + 1) / 12.0));
			if (rank < 1) {
				assert_true(got.low == 0 && isinf(got.high));
				continue;
			}
			assert_close(got.low, ratios[(size_t)rank - 1]);
			assert_close(got.high, ratios[pairs - (size_t)rank]);
		}
	}
}

/* Identical sets: 1 inside; every sample 10 % slower: all ratios 1.1. */
static void test_interval_known(void **state)
{
	double base[15], slower[15], zero[2] = { 0, 1 };
	struct cp_ratio_interval got;

	(void)state;
	for (int i = 0; i < 15; i++) {
		base[i] = 10 + i * 0.01;
		slower[i] = base[i] * 1.1;
	}
	assert_int_equal(cp_ratio_interval(base, 15, base, 15, 1.96, &got), 0);
	assert_close(got.estimate, 1);
	assert_true(got.low < 1 && got.high > 1);
	assert_int_equal(cp_ratio_interval(base, 15, slower, 15, 1.96, &got),
			 0);
	assert_close(got.estimate, 1.1);
	assert_true(got.low > 1.09 && got.high < 1.11);
	assert_int_equal(cp_ratio_interval(zero, 2, base, 15, 1.96, &got),
			 -EDOM);
	assert_int_equal(cp_ratio_interval(base, 0, base, 15, 1.96, &got),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fdr_by_hand),
		cmocka_unit_test(test_normal_quantile),
		cmocka_unit_test(test_interval_brute_force),
		cmocka_unit_test(test_interval_known),
	};

	return cmocka_run_group_tests_name("fdr", tests, NULL, NULL);
}
