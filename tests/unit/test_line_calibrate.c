// SPDX-License-Identifier: GPL-2.0
/* The line classifier's calibration with another timer
 * (cp_lines_calibrate_with): kernel mode's, in coldcache. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "evict/line_calibrate.h"
#include "topology_fixture.h"

/* 32 KiB of L1d and 1 MiB of L2 per core, 8 MiB of L3 shared. */
#define MACHINE "l3:1(size=8MiB) l2:2(size=1MiB) l1d:2(size=32KiB) core:2 pu:1"

/* Lines of each pass the fake timer gives. */
#define FAKE_LINES 64

/* A timer whose plateaus are given, recording what it was asked.  A warm
 * request's pass reads share[i] of its lines at warm[i] (all of them when
 * share[i] is 0) and the rest at other[i]. */
struct fake_timer {
	double warm[4];			/* per request, in order */
	double share[4];
	double other[4];
	double memory;
	int fail_at;			/* request that fails, -1: none */
	struct cp_error *error;
	size_t nr;
	uint64_t bytes[8];
	bool flushed[8];
};

static int fake_plateau(void *opaque, uint64_t bytes, bool flushed,
			struct cp_line_pass *out)
{
	struct fake_timer *timer = opaque;
	size_t i = timer->nr++;
	uint16_t steps[FAKE_LINES];
	double share = flushed || !timer->share[i] ? 1 : timer->share[i];

	timer->bytes[i] = bytes;
	timer->flushed[i] = flushed;
	if ((int)i == timer->fail_at)
		return cp_error_set(timer->error, EOVERFLOW,
				    "the fake timer's own reason");
	for (size_t k = 0; k < FAKE_LINES; k++)
		steps[k] = (uint16_t)(flushed ? timer->memory
				      : k < share * FAKE_LINES ? timer->warm[i]
							       : timer->other[i]);
	return cp_line_pass_offer(out, steps, FAKE_LINES, 0);
}

static void calibrate(struct fake_timer *timer, double spread,
		      struct cp_line_levels *levels, int *ret)
{
	struct cp_topology *topology = load_synthetic(MACHINE);
	struct cp_error error = { 0 };

	timer->error = &error;
	*ret = cp_lines_calibrate_with(topology, 0, fake_plateau, timer,
				       spread, levels, &error);
	if (*ret)
		assert_string_equal(error.msg, "the fake timer's own reason");
	timer->error = NULL;
	cp_topology_free(topology);
}

static void test_levels_from_the_timer(void **state)
{
	struct fake_timer timer = { .warm = { 0, 30, 100 }, .memory = 300,
				    .fail_at = -1 };
	struct cp_line_levels levels;
	int ret;

	(void)state;
	calibrate(&timer, 2, &levels, &ret);
	assert_int_equal(ret, 0);
	/* The user-mode sets: half of L1d, half of L2, the last level's
	 * set at 1.5 times L2, and memory on that last set. */
	assert_int_equal(timer.nr, 4);
	assert_int_equal(timer.bytes[0], 16 << 10);
	assert_int_equal(timer.bytes[1], 512 << 10);
	assert_int_equal(timer.bytes[2], 1536 << 10);
	assert_int_equal(timer.bytes[3], 1536 << 10);
	assert_false(timer.flushed[2]);
	assert_true(timer.flushed[3]);
	assert_int_equal(levels.nr, 4);
	assert_string_equal(levels.names[0], "L1d");
	assert_string_equal(levels.names[1], "L2");
	assert_string_equal(levels.names[2], "L3");
	assert_string_equal(levels.names[3], "memory");
	assert_true(fabs(levels.plateau_ticks[2] - 100) < 1e-9);
	/* Geometric means, an L1d plateau of 0 taken as 1 tick. */
	assert_true(fabs(levels.threshold_ticks[0] - sqrt(30)) < 1e-9);
	assert_true(fabs(levels.threshold_ticks[1] - sqrt(3000)) < 1e-9);
	assert_true(fabs(levels.threshold_ticks[2] - sqrt(30000)) < 1e-9);
	for (size_t k = 0; k < levels.nr; k++)
		assert_false(levels.merged[k]);
}

static void test_merges_on_the_timers_spread(void **state)
{
	struct fake_timer timer = { .warm = { 0, 30, 100 }, .memory = 300,
				    .fail_at = -1 };
	struct cp_line_levels levels;
	int ret;

	(void)state;
	/* 30 ticks between L1d and L2 is less than twice a spread of 20. */
	calibrate(&timer, 20, &levels, &ret);
	assert_int_equal(ret, 0);
	assert_true(levels.merged[0]);
	assert_false(levels.merged[1]);
	assert_false(levels.merged[2]);
}

/* Plateaus apart by more than the spread, but L2's lines read as L3
 * nearly half the time (a coarse timer): merged on its pass, and its
 * share kept for the notes; L1d's, read apart, is not merged. */
static void test_merges_lines_read_alike(void **state)
{
	struct fake_timer timer = { .warm = { 0, 26, 52 },
				    .share = { 1, 0.57, 0.55 },
				    .other = { 0, 52, 78 }, .memory = 364,
				    .fail_at = -1 };
	struct cp_line_levels levels;
	int ret;

	(void)state;
	calibrate(&timer, 2, &levels, &ret);
	assert_int_equal(ret, 0);
	assert_false(levels.merged[0]);
	assert_true(levels.merged[1]);
	assert_false(levels.merged[2]);
	assert_true(levels.own_share[0] == 1);
	assert_true(fabs(levels.own_share[1] - 37.0 / FAKE_LINES) < 1e-9);
	assert_true(levels.own_share[3] == 1);
}

static void test_timer_failure_keeps_its_reason(void **state)
{
	struct fake_timer timer = { .warm = { 0, 30, 100 }, .memory = 300,
				    .fail_at = 2 };
	struct cp_line_levels levels;
	int ret;

	(void)state;
	calibrate(&timer, 2, &levels, &ret);
	assert_int_equal(ret, -EOVERFLOW);
	assert_int_equal(timer.nr, 3);
}

/* Spread one line per 4 KiB while that fits the span, dense beyond. */
static void test_spread_within_a_span(void **state)
{
	(void)state;
	/* 384 lines spread take 384 * 4160 bytes: about 1.5 MiB. */
	assert_int_equal(cp_lines_spread_stride_within(24 << 10, 2 << 20),
			 CP_LINES_SPREAD_STRIDE);
	assert_int_equal(cp_lines_spread_stride_within(24 << 10,
						       384 * 4160),
			 CP_LINES_SPREAD_STRIDE);
	assert_int_equal(cp_lines_spread_stride_within(24 << 10,
						       384 * 4160 - 1),
			 64);
	/* No span above the tool's own limit. */
	assert_int_equal(cp_lines_spread_stride_within(32ull << 20,
						       UINT64_MAX),
			 cp_lines_spread_stride(32ull << 20));
	assert_int_equal(cp_lines_spread_stride(32ull << 20), 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels_from_the_timer),
		cmocka_unit_test(test_merges_on_the_timers_spread),
		cmocka_unit_test(test_merges_lines_read_alike),
		cmocka_unit_test(test_timer_failure_keeps_its_reason),
		cmocka_unit_test(test_spread_within_a_span),
	};

	return cmocka_run_group_tests_name("line_calibrate", tests, NULL, NULL);
}
