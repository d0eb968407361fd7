// SPDX-License-Identifier: GPL-2.0
/* The latency area's kernel mode without a module: which sizes the module
 * takes, and the reply (ticks of OPS loads per sample) turned into ticks
 * and ns per load.  Sizing CHASE samples: test_kernel_call.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>

#include "areas/latency/latency_kernel.h"

static void test_fits(void **state)
{
	(void)state;
	assert_true(cp_latency_kernel_fits(256ull << 20, 256ull << 20));
	assert_false(cp_latency_kernel_fits((256ull << 20) + 64,
					    256ull << 20));
	/* An unknown limit (0) lets the module decide. */
	assert_true(cp_latency_kernel_fits(1ull << 40, 0));
}

static void test_samples(void **state)
{
	uint64_t values[] = { 4000, 6000, 5000 };
	struct cp_series series = { 3, values };
	struct cp_run_result result = {
		.samples = 3, .ops = 1000, .nr_series = 1, .series = &series,
	};
	const double expected[] = { 4, 6, 5 };
	size_t n;
	double *per_hop;

	(void)state;
	per_hop = cp_latency_kernel_samples(&result, &n);
	assert_non_null(per_hop);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_float_equal(per_hop[i], expected[i], 1e-12);
	free(per_hop);
	result.ops = 0;
	assert_null(cp_latency_kernel_samples(&result, &n));
	assert_int_equal(n, 0);
}

static void test_fill(void **state)
{
	uint64_t values[] = { 4000, 6000, 5000 };
	struct cp_series series = { 3, values };
	struct cp_run_result result = {
		.samples = 3, .ops = 1000, .nr_series = 1, .series = &series,
	};
	struct cp_measurement m = { 0 };

	(void)state;
	/* 2 GHz: 4, 6, 5 ticks per hop are 2, 3, 2.5 ns. */
	assert_int_equal(cp_latency_kernel_fill(&m, &result, 2e9), 0);
	assert_int_equal(m.count, 1000);
	assert_int_equal(m.scale, 1);
	assert_int_equal(m.nr_samples, 3);
	assert_float_equal(m.ticks[1], 6, 1e-12);
	assert_float_equal(m.ns[0], 2, 1e-12);
	assert_float_equal(m.ns[1], 3, 1e-12);
	assert_float_equal(m.ns[2], 2.5, 1e-12);
	assert_float_equal(m.stats_ns.median, 2.5, 1e-12);
	free(m.ticks);
	free(m.ns);
	/* A reply without samples is refused, the measurement untouched. */
	m = (struct cp_measurement){ 0 };
	result.samples = 0;
	assert_int_equal(cp_latency_kernel_fill(&m, &result, 2e9), -EINVAL);
	assert_int_equal(m.nr_samples, 0);
	assert_null(m.ticks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_fill),
	};

	return cmocka_run_group_tests_name("latency_kernel", tests, NULL, NULL);
}
