// SPDX-License-Identifier: GPL-2.0
/* The latency area's kernel mode without a module: which sizes the module
 * takes, sizing CHASE samples against the interrupt-off window (in loads,
 * a multiple of the chases), and the reply (ticks of OPS loads per sample)
 * turned into ticks and ns per load. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>

#include "lib/latency_kernel.h"

static void test_fits(void **state)
{
	(void)state;
	assert_true(cp_latency_kernel_fits(256ull << 20, 256ull << 20));
	assert_false(cp_latency_kernel_fits((256ull << 20) + 64,
					    256ull << 20));
	/* An unknown limit (0) lets the module decide. */
	assert_true(cp_latency_kernel_fits(1ull << 40, 0));
}

static void test_hops(void **state)
{
	(void)state;
	/* 4 ticks at 2 GHz = 2 ns per hop; a 2 ms target: 1000000 hops. */
	assert_int_equal(cp_latency_kernel_hops(4, 2e9, 2e6, 0, 1), 1000000);
	/* A 2 ms window allows half of it, 1 ms: 500000 hops. */
	assert_int_equal(cp_latency_kernel_hops(4, 2e9, 2e6, 2000000, 1),
			 500000);
	/* A window longer than twice the target changes nothing. */
	assert_int_equal(cp_latency_kernel_hops(4, 2e9, 2e6, 10000000, 1),
			 1000000);
	/* 200 ns per hop (memory) in a 100 us window: 250 hops. */
	assert_int_equal(cp_latency_kernel_hops(400, 2e9, 2e6, 100000, 1),
			 250);
	/* Bounds: at least 1, at most the ABI's limit. */
	assert_int_equal(cp_latency_kernel_hops(1e9, 1e9, 2e6, 0, 1), 1);
	assert_int_equal(cp_latency_kernel_hops(1e-3, 1e9, 2e6, 0, 1),
			 CACHEPROBE_MAX_OPS);
	/* Nothing measured, or no clock: the first, small count. */
	assert_int_equal(cp_latency_kernel_hops(0, 1e9, 2e6, 0, 1),
			 CP_LATENCY_KERNEL_FIRST_HOPS);
	assert_int_equal(cp_latency_kernel_hops(4, 0, 2e6, 0, 1),
			 CP_LATENCY_KERNEL_FIRST_HOPS);
	/* 0 chases counts as one. */
	assert_int_equal(cp_latency_kernel_hops(400, 2e9, 2e6, 100000, 0),
			 250);
}

/* Several chases: the count is in loads, a multiple of the chases. */
static void test_hops_chases(void **state)
{
	(void)state;
	/* 250 loads fit; with 4 chases 248 (62 loads each), with 3 249. */
	assert_int_equal(cp_latency_kernel_hops(400, 2e9, 2e6, 100000, 4),
			 248);
	assert_int_equal(cp_latency_kernel_hops(400, 2e9, 2e6, 100000, 3),
			 249);
	assert_int_equal(cp_latency_kernel_hops(400, 2e9, 2e6, 100000, 16),
			 240);
	/* Never below one load per chase, never above the ABI's limit. */
	assert_int_equal(cp_latency_kernel_hops(1e9, 1e9, 2e6, 0, 16), 16);
	assert_int_equal(cp_latency_kernel_hops(1e-3, 1e9, 2e6, 0, 3),
			 CACHEPROBE_MAX_OPS - CACHEPROBE_MAX_OPS % 3);
	assert_int_equal(cp_latency_kernel_hops(1e-3, 1e9, 2e6, 0, 16),
			 CACHEPROBE_MAX_OPS);
	/* The first request too. */
	assert_int_equal(cp_latency_kernel_hops(0, 1e9, 2e6, 0, 3), 1023);
	assert_int_equal(cp_latency_kernel_first_hops(3), 1023);
	assert_int_equal(cp_latency_kernel_first_hops(16), 1024);
	assert_int_equal(cp_latency_kernel_first_hops(0),
			 CP_LATENCY_KERNEL_FIRST_HOPS);
	/* Fixed counts are rounded the same way. */
	assert_int_equal(cp_latency_kernel_multiple(1000, 3), 999);
	assert_int_equal(cp_latency_kernel_multiple(2, 4), 4);
	assert_int_equal(cp_latency_kernel_multiple(0, 1), 1);
	assert_int_equal(cp_latency_kernel_multiple(1ull << 40, 5),
			 CACHEPROBE_MAX_OPS - CACHEPROBE_MAX_OPS % 5);
	for (uint32_t c = 1; c <= CACHEPROBE_MAX_CHASES; c++) {
		uint32_t loads = cp_latency_kernel_hops(7, 2e9, 2e6, 100000, c);

		assert_int_equal(loads % c, 0);
		assert_true(loads >= c && loads <= CACHEPROBE_MAX_OPS);
	}
}

static void test_fewer_hops(void **state)
{
	(void)state;
	assert_int_equal(cp_latency_kernel_fewer_hops(1000, 1), 500);
	assert_int_equal(cp_latency_kernel_fewer_hops(3, 1), 1);
	assert_int_equal(cp_latency_kernel_fewer_hops(1, 1), 0);
	assert_int_equal(cp_latency_kernel_fewer_hops(0, 1), 0);
	assert_int_equal(cp_latency_kernel_fewer_hops(1000, 0), 500);
	/* Halved in whole rounds: a multiple of the chases, at least one
	 * load each, then give up. */
	assert_int_equal(cp_latency_kernel_fewer_hops(1000, 4), 500);
	assert_int_equal(cp_latency_kernel_fewer_hops(12, 4), 4);
	assert_int_equal(cp_latency_kernel_fewer_hops(8, 4), 4);
	assert_int_equal(cp_latency_kernel_fewer_hops(4, 4), 0);
	assert_int_equal(cp_latency_kernel_fewer_hops(999, 3), 498);
	assert_int_equal(cp_latency_kernel_fewer_hops(48, 16), 16);
	assert_int_equal(cp_latency_kernel_fewer_hops(16, 16), 0);
	for (uint32_t c = 1; c <= CACHEPROBE_MAX_CHASES; c++) {
		uint32_t loads = 1000 - 1000 % c, steps = 0;

		while ((loads = cp_latency_kernel_fewer_hops(loads, c))) {
			assert_int_equal(loads % c, 0);
			assert_true(++steps < 20);
		}
	}
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
	assert_float_equal(cp_latency_kernel_slowest(&result), 6, 1e-12);
	result.ops = 0;
	assert_null(cp_latency_kernel_samples(&result, &n));
	assert_int_equal(n, 0);
	assert_float_equal(cp_latency_kernel_slowest(&result), 0, 0);
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
		cmocka_unit_test(test_hops),
		cmocka_unit_test(test_hops_chases),
		cmocka_unit_test(test_fewer_hops),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_fill),
	};

	return cmocka_run_group_tests_name("latency_kernel", tests, NULL, NULL);
}
