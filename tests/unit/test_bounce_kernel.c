// SPDX-License-Identifier: GPL-2.0
/* The bounce area's kernel mode without a module: sizing BOUNCE samples
 * against the interrupt-off window, and the reply turned into samples. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "lib/bounce_kernel.h"

static void test_increments(void **state)
{
	(void)state;
	/* 10 ticks at 1 GHz = 10 ns each; a 250 us target: 25000. */
	assert_int_equal(cp_bounce_kernel_increments(10, 1e9, 250e3, 0), 25000);
	/* A 100 us window allows half of it: 50 us, 5000. */
	assert_int_equal(cp_bounce_kernel_increments(10, 1e9, 250e3, 100000),
			 5000);
	/* A window longer than twice the target changes nothing. */
	assert_int_equal(cp_bounce_kernel_increments(10, 1e9, 250e3, 1000000),
			 25000);
	/* Bounds: at least 1, at most the ABI's limit. */
	assert_int_equal(cp_bounce_kernel_increments(1e9, 1e9, 250e3, 0), 1);
	assert_int_equal(cp_bounce_kernel_increments(1e-6, 1e9, 250e3, 0),
			 CACHEPROBE_MAX_OPS);
	/* Nothing measured: the first, small count again. */
	assert_int_equal(cp_bounce_kernel_increments(0, 1e9, 250e3, 0),
			 CP_BOUNCE_KERNEL_FIRST_INCREMENTS);
}

static void test_samples(void **state)
{
	uint64_t first[] = { 1000, 2000, 3000 }, second[] = { 4000, 5000, 6000 };
	struct cp_series series[] = { { 0, first }, { 1, second } };
	struct cp_run_result result = {
		.samples = 3, .ops = 100, .nr_series = 2, .series = series,
	};
	const double expected[] = { 9, 39, 19, 49, 29, 59 };
	size_t n;
	double *values;

	(void)state;
	values = cp_bounce_kernel_samples(&result, 100, &n);
	assert_non_null(values);
	assert_int_equal(n, 6);
	/* Sample-major, overhead taken off each value before dividing. */
	for (size_t i = 0; i < n; i++)
		assert_float_equal(values[i], expected[i], 1e-12);
	free(values);
	assert_float_equal(cp_bounce_kernel_slowest(&result), 60, 1e-12);
	result.ops = 0;
	assert_null(cp_bounce_kernel_samples(&result, 0, &n));
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_increments),
		cmocka_unit_test(test_samples),
	};

	return cmocka_run_group_tests_name("bounce_kernel", tests, NULL, NULL);
}
