// SPDX-License-Identifier: GPL-2.0
/* Kernel-mode calls without a module: sizing samples against the
 * interrupt-off window (CHASE in loads, a multiple of the chases; BOUNCE in
 * increments; PINGPONG between its own bounds), and the retries after
 * EOVERFLOW, with a fake module behind the send callback. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>

#include "client/kernel_call.h"

/* Ops per sample for @ticks per op: a call of @multiple sized at @tsc_hz
 * for @target_ns in a window of @max_irqoff_ns. */
static uint32_t ops(double ticks, double tsc_hz, double target_ns,
		    uint64_t max_irqoff_ns, uint32_t multiple)
{
	struct cp_kernel_call call = {
		.multiple = multiple, .target_ns = target_ns,
		.max_irqoff_ns = max_irqoff_ns, .tsc_hz = tsc_hz,
	};

	return cp_kernel_call_ops(&call, ticks);
}

/* The first request's ops for @multiple: nothing measured. */
static uint32_t first(uint32_t multiple)
{
	return ops(0, 1e9, 2e6, 0, multiple);
}

static uint32_t within(uint64_t n, uint32_t multiple)
{
	struct cp_kernel_call call = { .multiple = multiple };

	return cp_kernel_call_within(&call, n);
}

static uint32_t fewer(uint32_t n, uint32_t multiple)
{
	struct cp_kernel_call call = { .multiple = multiple };

	return cp_kernel_call_fewer_ops(&call, n);
}

/* cp_kernel_call_ops() of @ticks for a call of @multiple sized at @tsc_hz
 * for @target_ns in a window of @max_irqoff_ns: @expected. */
struct ops_case {
	double ticks, tsc_hz, target_ns;
	uint64_t max_irqoff_ns;
	uint32_t multiple, expected;
};

static const struct ops_case ops_cases[] = {
	/* CHASE, one chase.  4 ticks at 2 GHz = 2 ns per hop; a 2 ms
	 * target: 1000000 hops.  A 2 ms window allows half of it, 1 ms:
	 * 500000; a window longer than twice the target changes nothing. */
	{ 4, 2e9, 2e6, 0, 1, 1000000 },
	{ 4, 2e9, 2e6, 2000000, 1, 500000 },
	{ 4, 2e9, 2e6, 10000000, 1, 1000000 },
	/* 200 ns per hop (memory) in a 100 us window: 250 hops. */
	{ 400, 2e9, 2e6, 100000, 1, 250 },
	/* Bounds: at least 1, at most the ABI's limit. */
	{ 1e9, 1e9, 2e6, 0, 1, 1 },
	{ 1e-3, 1e9, 2e6, 0, 1, CACHEPROBE_MAX_OPS },
	/* Nothing measured, or no clock: the first, small count. */
	{ 0, 1e9, 2e6, 0, 1, CP_KERNEL_CALL_FIRST_OPS },
	{ 4, 0, 2e6, 0, 1, CP_KERNEL_CALL_FIRST_OPS },
	/* A multiple of 0 counts as one. */
	{ 400, 2e9, 2e6, 100000, 0, 250 },
	/* BOUNCE's increments, any count.  10 ticks at 1 GHz = 10 ns each;
	 * a 250 us target: 25000.  A 100 us window allows half of it: 50 us,
	 * 5000; a window longer than twice the target changes nothing. */
	{ 10, 1e9, 250e3, 0, 0, 25000 },
	{ 10, 1e9, 250e3, 100000, 0, 5000 },
	{ 10, 1e9, 250e3, 1000000, 0, 25000 },
	/* Bounds: at least 1, at most the ABI's limit. */
	{ 1e9, 1e9, 250e3, 0, 0, 1 },
	{ 1e-6, 1e9, 250e3, 0, 0, CACHEPROBE_MAX_OPS },
	/* Nothing measured: the first, small count again. */
	{ 0, 1e9, 250e3, 0, 0, CP_KERNEL_CALL_FIRST_OPS },
	/* Several chases: the count is in loads, a multiple of the chases.
	 * 250 loads fit; with 4 chases 248 (62 loads each), with 3 249. */
	{ 400, 2e9, 2e6, 100000, 4, 248 },
	{ 400, 2e9, 2e6, 100000, 3, 249 },
	{ 400, 2e9, 2e6, 100000, 16, 240 },
	/* Never below one load per chase, never above the ABI's limit. */
	{ 1e9, 1e9, 2e6, 0, 16, 16 },
	{ 1e-3, 1e9, 2e6, 0, 3, CACHEPROBE_MAX_OPS - CACHEPROBE_MAX_OPS % 3 },
	{ 1e-3, 1e9, 2e6, 0, 16, CACHEPROBE_MAX_OPS },
};

static void test_ops(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ops_cases) / sizeof(ops_cases[0]); i++) {
		const struct ops_case *c = &ops_cases[i];
		uint32_t got = ops(c->ticks, c->tsc_hz, c->target_ns,
				   c->max_irqoff_ns, c->multiple);

		if (got != c->expected)
			fail_msg("case %zu: %u ops, not %u", i, got,
				 c->expected);
	}
}

/* Several chases: every count a multiple of the chases. */
static void test_ops_multiple(void **state)
{
	(void)state;
	/* The first request too. */
	assert_int_equal(first(3), 1023);
	assert_int_equal(first(16), 1024);
	assert_int_equal(first(0), CP_KERNEL_CALL_FIRST_OPS);
	/* Fixed counts are rounded the same way. */
	assert_int_equal(within(1000, 3), 999);
	assert_int_equal(within(2, 4), 4);
	assert_int_equal(within(0, 1), 1);
	assert_int_equal(within(1ull << 40, 5),
			 CACHEPROBE_MAX_OPS - CACHEPROBE_MAX_OPS % 5);
	for (uint32_t c = 1; c <= CACHEPROBE_MAX_CHASES; c++) {
		uint32_t loads = ops(7, 2e9, 2e6, 100000, c);

		assert_int_equal(loads % c, 0);
		assert_true(loads >= c && loads <= CACHEPROBE_MAX_OPS);
	}
}

/* PINGPONG's bounds and first count: the call's own, not the ABI's. */
static void test_ops_bounds(void **state)
{
	struct cp_kernel_call call = {
		.min_ops = 16, .max_ops = 1000000, .first_ops = 256,
		.target_ns = 200e3, .tsc_hz = 1e9,
	};

	(void)state;
	/* 100 ns per round trip in 200 us: 2000. */
	assert_int_equal(cp_kernel_call_ops(&call, 100), 2000);
	assert_int_equal(cp_kernel_call_ops(&call, 1e6), 16);
	assert_int_equal(cp_kernel_call_ops(&call, 1e-3), 1000000);
	assert_int_equal(cp_kernel_call_ops(&call, 0), 256);
	assert_int_equal(cp_kernel_call_within(&call, 5), 16);
	assert_int_equal(cp_kernel_call_within(&call, 1ull << 32), 1000000);
	/* Halving is not held to the least count. */
	assert_int_equal(cp_kernel_call_fewer_ops(&call, 16), 8);
}

static void test_fewer_ops(void **state)
{
	(void)state;
	assert_int_equal(fewer(1000, 1), 500);
	assert_int_equal(fewer(3, 1), 1);
	assert_int_equal(fewer(1, 1), 0);
	assert_int_equal(fewer(0, 1), 0);
	assert_int_equal(fewer(1000, 0), 500);
	/* Halved in whole rounds: a multiple of the chases, at least one
	 * load each, then give up. */
	assert_int_equal(fewer(1000, 4), 500);
	assert_int_equal(fewer(12, 4), 4);
	assert_int_equal(fewer(8, 4), 4);
	assert_int_equal(fewer(4, 4), 0);
	assert_int_equal(fewer(999, 3), 498);
	assert_int_equal(fewer(48, 16), 16);
	assert_int_equal(fewer(16, 16), 0);
	for (uint32_t c = 1; c <= CACHEPROBE_MAX_CHASES; c++) {
		uint32_t loads = 1000 - 1000 % c, steps = 0;

		while ((loads = fewer(loads, c))) {
			assert_int_equal(loads % c, 0);
			assert_true(++steps < 20);
		}
	}
}

static void test_slowest(void **state)
{
	uint64_t first[] = { 1000, 2000, 3000 };
	uint64_t second[] = { 4000, 5000, 6000 };
	uint64_t one[] = { 4000, 6000, 5000 };
	struct cp_series series[] = { { 0, first }, { 1, second } };
	struct cp_series single = { 3, one };
	struct cp_run_result result = {
		.samples = 3, .ops = 100, .nr_series = 2, .series = series,
	};

	(void)state;
	/* Every CPU's samples count. */
	assert_float_equal(cp_kernel_call_slowest(&result), 60, 1e-12);
	result = (struct cp_run_result){
		.samples = 3, .ops = 1000, .nr_series = 1, .series = &single,
	};
	assert_float_equal(cp_kernel_call_slowest(&result), 6, 1e-12);
	result.ops = 0;
	assert_float_equal(cp_kernel_call_slowest(&result), 0, 0);
}

/* The module behind the callback: the first @overflows sends overflow,
 * the others take @ticks_per_op. */
struct fake {
	uint32_t ops;
	uint32_t samples;
	unsigned int overflows;
	double ticks_per_op;
	unsigned int sends;
	uint32_t sent_ops[8];
	uint32_t sent_samples[8];
};

static int fake_send(void *context, void *request,
		     struct cp_run_result *result, struct cp_error *error)
{
	struct fake *fake = request;
	uint64_t *values;

	assert_ptr_equal(context, fake);
	assert_true(fake->sends < 8);
	fake->sent_ops[fake->sends] = fake->ops;
	fake->sent_samples[fake->sends++] = fake->samples;
	if (fake->overflows) {
		fake->overflows--;
		return cp_error_set(error, EOVERFLOW, "sample overflows");
	}
	values = calloc(fake->samples, sizeof(*values));
	assert_non_null(values);
	for (uint32_t s = 0; s < fake->samples; s++)
		values[s] = (uint64_t)(fake->ticks_per_op * fake->ops);
	*result = (struct cp_run_result){
		.samples = fake->samples, .ops = fake->ops, .nr_series = 1,
		.series = calloc(1, sizeof(*result->series)),
	};
	assert_non_null(result->series);
	result->series[0].values = values;
	return 0;
}

/* A call of the fake: 4 ticks at 2 GHz, a 2 ms target. */
static struct cp_kernel_call fake_call(struct fake *fake)
{
	return (struct cp_kernel_call){
		.send = fake_send, .context = fake, .request = fake,
		.ops = &fake->ops, .samples = &fake->samples,
		.target_ns = 2e6, .tsc_hz = 2e9,
	};
}

static void test_fitted(void **state)
{
	struct fake fake = { .ops = 1000, .samples = 5, .overflows = 2,
			     .ticks_per_op = 4 };
	struct cp_kernel_call call = fake_call(&fake);
	struct cp_run_result result;
	struct cp_error error = { 0 };

	(void)state;
	/* Overflows twice: sent again with half, then a quarter. */
	assert_int_equal(cp_kernel_call_fitted(&call, &result, &error), 0);
	assert_int_equal(fake.sends, 3);
	assert_int_equal(fake.sent_ops[1], 500);
	assert_int_equal(fake.sent_ops[2], 250);
	assert_int_equal(fake.sent_samples[2], 5);
	assert_int_equal(result.ops, 250);
	cp_run_result_free(&result);
}

static void test_fitted_gives_up(void **state)
{
	struct fake fake = { .ops = 1000, .samples = 5, .overflows = 5 };
	struct cp_kernel_call call = fake_call(&fake);
	struct cp_run_result result;
	struct cp_error error = { 0 };

	(void)state;
	/* The first try and CP_KERNEL_CALL_RETRIES more, then the error. */
	assert_int_equal(cp_kernel_call_fitted(&call, &result, &error),
			 -EOVERFLOW);
	assert_int_equal(fake.sends, 1 + CP_KERNEL_CALL_RETRIES);
	assert_int_equal(fake.ops, 62);
	assert_int_equal(error.err, EOVERFLOW);
	/* Nothing left to halve: no retry. */
	fake = (struct fake){ .ops = 3, .samples = 1, .overflows = 5 };
	call.multiple = 3;
	assert_int_equal(cp_kernel_call_fitted(&call, &result, &error),
			 -EOVERFLOW);
	assert_int_equal(fake.sends, 1);
}

static void test_fitted_multiple(void **state)
{
	struct fake fake = { .ops = 999, .samples = 1, .overflows = 3,
			     .ticks_per_op = 4 };
	struct cp_kernel_call call = fake_call(&fake);
	struct cp_run_result result;
	struct cp_error error = { 0 };

	(void)state;
	call.multiple = 3;
	assert_int_equal(cp_kernel_call_fitted(&call, &result, &error), 0);
	assert_int_equal(fake.sends, 4);
	for (unsigned int i = 0; i < fake.sends; i++)
		assert_int_equal(fake.sent_ops[i] % 3, 0);
	assert_int_equal(fake.sent_ops[3], 123);
	cp_run_result_free(&result);
}

static void test_sized(void **state)
{
	struct fake fake = { .ticks_per_op = 4 };
	struct cp_kernel_call call = fake_call(&fake);
	struct cp_run_result result;
	struct cp_error error = { 0 };

	(void)state;
	/* First the small request of one sample, then 2 ns per op fill the
	 * 2 ms target with the samples asked for. */
	assert_int_equal(cp_kernel_call_sized(&call, 7, &result, &error), 0);
	assert_int_equal(fake.sends, 2);
	assert_int_equal(fake.sent_ops[0], CP_KERNEL_CALL_FIRST_OPS);
	assert_int_equal(fake.sent_samples[0], 1);
	assert_int_equal(fake.sent_ops[1], 1000000);
	assert_int_equal(fake.sent_samples[1], 7);
	assert_int_equal(result.samples, 7);
	cp_run_result_free(&result);
	/* Half a 400 us window, in whole rounds of 3: 99999. */
	fake = (struct fake){ .ticks_per_op = 4 };
	call.max_irqoff_ns = 400000;
	call.multiple = 3;
	assert_int_equal(cp_kernel_call_sized(&call, 7, &result, &error), 0);
	assert_int_equal(fake.sent_ops[0], 1023);
	assert_int_equal(fake.sent_ops[1], 99999);
	cp_run_result_free(&result);
}

static void test_sized_overflows(void **state)
{
	struct fake fake = { .overflows = 1, .ticks_per_op = 4 };
	struct cp_kernel_call call = fake_call(&fake);
	struct cp_run_result result;
	struct cp_error error = { 0 };

	(void)state;
	/* The first request is fitted too; its failure ends the call. */
	assert_int_equal(cp_kernel_call_sized(&call, 7, &result, &error), 0);
	assert_int_equal(fake.sends, 3);
	assert_int_equal(fake.sent_ops[1], CP_KERNEL_CALL_FIRST_OPS / 2);
	assert_int_equal(fake.sent_samples[1], 1);
	assert_int_equal(fake.sent_samples[2], 7);
	cp_run_result_free(&result);
	fake = (struct fake){ .overflows = 5 };
	assert_int_equal(cp_kernel_call_sized(&call, 7, &result, &error),
			 -EOVERFLOW);
	assert_int_equal(fake.sends, 1 + CP_KERNEL_CALL_RETRIES);
	assert_int_equal(fake.sent_samples[4], 1);
}

static void test_sized_fixed(void **state)
{
	struct fake fake = { .ticks_per_op = 4 };
	struct cp_kernel_call call = fake_call(&fake);
	struct cp_run_result result;
	struct cp_error error = { 0 };

	(void)state;
	/* --count: no first request, the count rounded like any other. */
	call.fixed_ops = 1000;
	call.multiple = 3;
	assert_int_equal(cp_kernel_call_sized(&call, 7, &result, &error), 0);
	assert_int_equal(fake.sends, 1);
	assert_int_equal(fake.sent_ops[0], 999);
	assert_int_equal(fake.sent_samples[0], 7);
	cp_run_result_free(&result);
	/* Held to the bounds. */
	fake = (struct fake){ .ticks_per_op = 4 };
	call.fixed_ops = 1ull << 32;
	call.multiple = 0;
	assert_int_equal(cp_kernel_call_sized(&call, 7, &result, &error), 0);
	assert_int_equal(fake.sent_ops[0], CACHEPROBE_MAX_OPS);
	cp_run_result_free(&result);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_ops_multiple),
		cmocka_unit_test(test_ops_bounds),
		cmocka_unit_test(test_fewer_ops),
		cmocka_unit_test(test_slowest),
		cmocka_unit_test(test_fitted),
		cmocka_unit_test(test_fitted_gives_up),
		cmocka_unit_test(test_fitted_multiple),
		cmocka_unit_test(test_sized),
		cmocka_unit_test(test_sized_overflows),
		cmocka_unit_test(test_sized_fixed),
	};

	return cmocka_run_group_tests_name("kernel_call", tests, NULL, NULL);
}
