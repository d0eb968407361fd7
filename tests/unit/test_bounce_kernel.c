// SPDX-License-Identifier: GPL-2.0
/* The bounce area's kernel mode without a module: the reply turned into
 * samples.  Sizing BOUNCE samples: test_kernel_call.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "areas/bounce/bounce_request.h"

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
	result.ops = 0;
	assert_null(cp_bounce_kernel_samples(&result, 0, &n));
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
	};

	return cmocka_run_group_tests_name("bounce_kernel", tests, NULL, NULL);
}
