// SPDX-License-Identifier: GPL-2.0
/*
 * Mann-Whitney U against references computed independently in Python: the
 * exact p-values by enumerating every split of the pooled values, the
 * normal approximation by its textbook formula with tie correction.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>

#include "stats/mann_whitney.h"

#define TOLERANCE 1e-12

static void assert_close(double actual, double expected)
{
	if (actual < expected - TOLERANCE || actual > expected + TOLERANCE)
		fail_msg("%.17g is not %.17g", actual, expected);
}

static void test_exact_clear_shift(void **state)
{
	const double a[] = { 1.1, 2.3, 0.7, 3.9, 2.8, 1.9 };
	const double b[] = { 4.2, 3.1, 5.6, 4.8, 6.0, 3.3, 5.1 };
	struct cp_mann_whitney test;

	(void)state;
	assert_int_equal(cp_mann_whitney(a, 6, b, 7, &test), 0);
	assert_true(test.exact);
	assert_close(test.u_first, 2);
	assert_close(test.u_second, 40);
	assert_close(test.p_value, 0.004662004662004662);
}

static void test_exact_overlap(void **state)
{
	const double a[] = { 10.0, 10.2, 10.1, 10.4, 9.9 };
	const double b[] = { 10.3, 10.5, 9.8, 10.6, 10.7 };
	struct cp_mann_whitney test;

	(void)state;
	assert_int_equal(cp_mann_whitney(a, 5, b, 5, &test), 0);
	assert_true(test.exact);
	assert_close(test.u_first, 6);
	assert_close(test.p_value, 0.2222222222222222);
}

static void test_normal_with_ties(void **state)
{
	const double a[] = { 1, 2, 2, 3, 3, 3, 4, 5, 5, 6, 7, 7 };
	const double b[] = { 3, 4, 4, 5, 6, 6, 7, 8, 8, 9, 9, 10 };
	struct cp_mann_whitney test;

	(void)state;
	assert_int_equal(cp_mann_whitney(a, 12, b, 12, &test), 0);
	assert_false(test.exact);
	assert_close(test.u_first, 28.5);
	assert_close(test.z, 2.4984069487710365);
	assert_close(test.p_value, 0.012475288945765415);
}

/* The test is symmetric: swapping the sets swaps U, keeps p. */
static void test_symmetry(void **state)
{
	const double a[] = { 1.1, 2.3, 0.7, 3.9, 2.8, 1.9 };
	const double b[] = { 4.2, 3.1, 5.6, 4.8, 6.0, 3.3, 5.1 };
	struct cp_mann_whitney forward, backward;

	(void)state;
	assert_int_equal(cp_mann_whitney(a, 6, b, 7, &forward), 0);
	assert_int_equal(cp_mann_whitney(b, 7, a, 6, &backward), 0);
	assert_close(forward.u_first, backward.u_second);
	assert_close(forward.p_value, backward.p_value);
}

static void test_identical_values(void **state)
{
	const double a[] = { 5, 5, 5 }, b[] = { 5, 5, 5, 5 };
	struct cp_mann_whitney test;

	(void)state;
	assert_int_equal(cp_mann_whitney(a, 3, b, 4, &test), 0);
	assert_close(test.p_value, 1);
}

static void test_empty_set(void **state)
{
	const double a[] = { 1 };
	struct cp_mann_whitney test;

	(void)state;
	assert_int_equal(cp_mann_whitney(a, 1, a, 0, &test), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_clear_shift),
		cmocka_unit_test(test_exact_overlap),
		cmocka_unit_test(test_normal_with_ties),
		cmocka_unit_test(test_symmetry),
		cmocka_unit_test(test_identical_values),
		cmocka_unit_test(test_empty_set),
	};

	return cmocka_run_group_tests_name("mann_whitney", tests, NULL, NULL);
}
