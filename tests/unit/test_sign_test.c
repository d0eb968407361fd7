// SPDX-License-Identifier: GPL-2.0
/* The sign test and the turn-by-turn pairing behind coldcache's
 * comparison of each garbage factor with naive. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "stats/sign_test.h"

/* Reference values: 2 * P(X <= k), X ~ Binomial(n, 1/2). */
static void test_p_values(void **state)
{
	(void)state;
	assert_float_equal(cp_sign_test_p(0, 0), 1.0, 1e-12);
	assert_float_equal(cp_sign_test_p(1, 1), 1.0, 1e-12);
	/* n = 5, k = 0: 2 / 32. */
	assert_float_equal(cp_sign_test_p(0, 5), 0.0625, 1e-12);
	assert_float_equal(cp_sign_test_p(5, 0), 0.0625, 1e-12);
	/* n = 10, k = 2: 2 * (1 + 10 + 45) / 1024. */
	assert_float_equal(cp_sign_test_p(8, 2), 112.0 / 1024, 1e-12);
	/* n = 20, k = 5: 2 * 21700 / 1048576. */
	assert_float_equal(cp_sign_test_p(5, 15), 43400.0 / 1048576, 1e-12);
	/* Large n neither overflows nor loses the tail. */
	assert_true(cp_sign_test_p(4000, 6000) < 1e-80);
	assert_float_equal(cp_sign_test_p(5000, 5000), 1.0, 1e-12);
}

static void test_pairing_by_turn(void **state)
{
	/* Turn 2 of the first and turn 1 of the second were retaken. */
	const uint32_t first_turns[] = { 0, 1, 3, 4, 5 };
	const int64_t first[] = { 10, 50, 7, 7, 1 };
	const uint32_t second_turns[] = { 0, 2, 3, 4, 5, 6 };
	const int64_t second[] = { 20, 99, 5, 7, 2, 0 };
	struct cp_paired paired;

	(void)state;
	cp_paired_compare(first_turns, first, 5, second_turns, second, 6,
			  &paired);
	/* Turns 0, 3, 4, 5: lower, higher, tied, lower. */
	assert_int_equal(paired.lower, 2);
	assert_int_equal(paired.higher, 1);
	assert_int_equal(paired.tied, 1);
	assert_float_equal(paired.p_value, 1.0, 1e-12);
}

static void test_nothing_paired(void **state)
{
	const uint32_t first_turns[] = { 0, 2 };
	const uint32_t second_turns[] = { 1, 3 };
	const int64_t values[] = { 1, 2 };
	struct cp_paired paired;

	(void)state;
	cp_paired_compare(first_turns, values, 2, second_turns, values, 2,
			  &paired);
	assert_int_equal(paired.lower + paired.higher + paired.tied, 0);
	assert_float_equal(paired.p_value, 1.0, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_p_values),
		cmocka_unit_test(test_pairing_by_turn),
		cmocka_unit_test(test_nothing_paired),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
