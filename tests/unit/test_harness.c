// SPDX-License-Identifier: GPL-2.0
/* The measuring instrument on this machine: the chase is one random cycle,
 * the harness calibrates, subtracts and stops when asked. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "harness/chase.h"
#include "harness/clock.h"
#include "harness/harness.h"
#include "harness/interrupt.h"
#include "stats/stats.h"

static void test_chase_is_one_cycle(void **state)
{
	struct cp_chase chase;
	size_t *next, position = 0, steps = 0, in_order = 0;
	bool *seen;

	(void)state;
	assert_int_equal(cp_chase_build(&chase, 64 * 1000, 64, 42), 0);
	assert_int_equal(chase.nr_lines, 1000);
	next = calloc(chase.nr_lines, sizeof(*next));
	seen = calloc(chase.nr_lines, sizeof(*seen));
	assert_non_null(next);
	assert_non_null(seen);
	cp_chase_successors(&chase, next);
	do {
		assert_false(seen[position]);
		seen[position] = true;
		in_order += next[position] == position + 1;
		position = next[position];
		steps++;
	} while (position != 0);
	assert_int_equal(steps, chase.nr_lines);
	/* Random, not a stride: hardly any line leads to its neighbour. */
	assert_true(in_order < 10);
	free(next);
	free(seen);
	cp_chase_free(&chase);
}

static void test_chase_refuses_bad_sizes(void **state)
{
	struct cp_chase chase;

	(void)state;
	assert_int_equal(cp_chase_build(&chase, 64, 64, 1), -EINVAL);
	assert_int_equal(cp_chase_build(&chase, 100, 64, 1), -EINVAL);
	assert_int_equal(cp_chase_build(&chase, 4096, 4, 1), -EINVAL);
}

/* Buffers start on a 2 MiB boundary and span whole 2 MiB ranges, the
 * only ranges the kernel can back with a huge page: a spread 24 KiB
 * working set (1.6 MB) would otherwise never get one. */
static void test_chase_buffer_can_be_huge(void **state)
{
	const size_t huge = 2u << 20;
	const size_t sizes[] = { 64 * 2, 384 * 4160, huge, huge + 4096 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct cp_chase chase;
		size_t bytes = sizes[i] / 64 * 64;

		assert_int_equal(cp_chase_build(&chase, bytes, 64, 3), 0);
		assert_int_equal((uintptr_t)chase.buffer % huge, 0);
		assert_int_equal(chase.mapped_bytes % huge, 0);
		assert_true(chase.mapped_bytes >= bytes);
		assert_true(chase.mapped_bytes < bytes + huge);
		cp_chase_free(&chase);
	}
}

/* Walking the whole cycle comes back to the start. */
static void test_chase_body_walks_the_cycle(void **state)
{
	struct cp_chase chase;
	void **start;

	(void)state;
	assert_int_equal(cp_chase_build(&chase, 64 * 256, 64, 7), 0);
	start = chase.position;
	cp_chase_body(&chase, 256 / CP_CHASE_HOPS_PER_ITERATION);
	assert_ptr_equal(chase.position, start);
	cp_chase_body(&chase, 1);
	assert_ptr_not_equal(chase.position, start);
	cp_chase_free(&chase);
}

static void test_scale_count(void **state)
{
	(void)state;
	assert_int_equal(cp_harness_scale_count(1000, 500, 2000), 4000);
	assert_int_equal(cp_harness_scale_count(3, 1000, 1), 1);
	assert_int_equal(cp_harness_scale_count(8, 0, 100), 16);
}

static void test_clock_on_this_machine(void **state)
{
	struct cp_clock clock;
	double ratio;

	(void)state;
	cp_clock_init(&clock, 0);
	assert_int_equal(clock.source, CP_TSC_CALIBRATED);
	/* Any x86 TSC of this century runs between 0.5 and 10 GHz. */
	assert_true(clock.tsc_hz > 5e8 && clock.tsc_hz < 1e10);
	assert_true(clock.granularity_ticks >= 1);
	assert_true(clock.overhead_ticks >= clock.granularity_ticks - 1);
	cp_clock_init(&clock, 2400000);
	assert_int_equal(clock.source, CP_TSC_FROM_MODULE);
	assert_true(clock.tsc_hz == 2.4e9);
	ratio = cp_clock_core_cycles_per_tick();
	assert_true(ratio > 0.1 && ratio < 10);
}

/* Whether CLOCK_MONOTONIC_RAW is read without a system call here (the TSC
 * or kvm-clock): through HPET or the ACPI timer a read takes a
 * microsecond, and a short calibration is not good to a kHz. */
static bool clock_source_is_fast(void)
{
	FILE *file = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			   "r");
	char name[32] = "";
	bool fast;

	if (!file)
		return false;
	fast = fgets(name, sizeof(name), file) &&
	       (strncmp(name, "tsc", 3) == 0 ||
		strncmp(name, "kvm-clock", 9) == 0);
	fclose(file);
	return fast;
}

/* The calibrated rate is in whole kHz, as the kernel keeps it, and does
 * not depend on how long it took: one bracket a side was biased by some
 * 130 ticks, 6 kHz over 20 ms and under 1 kHz over 200 ms. */
static void test_calibration_in_whole_khz(void **state)
{
	double short_hz, long_hz;

	(void)state;
	if (!clock_source_is_fast())
		skip();
	short_hz = cp_clock_calibrate_tsc_hz(20);
	long_hz = cp_clock_calibrate_tsc_hz(200);
	assert_true(fmod(short_hz, 1000) == 0);
	assert_true(fmod(long_hz, 1000) == 0);
	if (fabs(short_hz - long_hz) > 2000)
		fail_msg("20 ms found %.0f Hz, 200 ms %.0f Hz", short_hz,
			 long_hz);
}

struct counting {
	uint64_t iterations;
};

static uint64_t counting_body(void *context, uint64_t count)
{
	struct counting *counting = context;

	counting->iterations += count;
	return cp_nothing_body(context, count * 4);
}

static void test_harness_calibrates_and_subtracts(void **state)
{
	const struct cp_harness_config config = {
		.samples = 5, .target_sample_ns = 2e5,
	};
	struct counting counting = { 0 };
	const struct cp_benchmark benchmark = {
		.body = counting_body, .context = &counting, .scale = 4,
		.prime_count = 3,
	};
	struct cp_harness harness;
	struct cp_samples samples;
	struct cp_clock clock;

	(void)state;
	cp_interrupt_reset();
	cp_clock_init(&clock, 0);
	assert_int_equal(cp_harness_init(&harness, &clock, &config), 0);
	assert_int_equal(harness.nothing_stats.count, 5);
	assert_true(harness.nothing_ticks_per_iteration > 0);
	assert_int_equal(cp_harness_measure(&harness, &benchmark, &samples), 0);
	assert_int_equal(samples.nr_samples, 5);
	assert_false(samples.interrupted);
	assert_true(samples.count > 1);
	/* Each sample lasts at least a share of the target. */
	assert_true(samples.median_sample_ticks > 0.25 * 2e5 * clock.tsc_hz / 1e9);
	/* Prime, calibration and 5 samples of count each all ran. */
	assert_true(counting.iterations >= 3 + 5 * samples.count);
	cp_samples_free(&samples);
}

/*
 * A body whose cost is known in units of the NOTHING floor F whatever the
 * CPU and whatever else runs: it spins on the TSC until 2F ticks an
 * iteration have passed.  (Two empty loops an iteration cost 2F only on
 * an idle, steady CPU: a busy host made that test fail.)  What one call
 * adds on top (two TSC reads) is below 0.1 % of a calibrated sample.
 */
static uint64_t twice_floor_body(void *context, uint64_t count)
{
	const double *floor = context;
	uint64_t end = cp_clock_start() + (uint64_t)(2 * *floor * count);
	uint64_t now;

	do
		now = cp_clock_start();
	while (now < end);
	return now;
}

/* Median ticks per operation of twice_floor_body at @scale. */
static double twice_floor_median(const struct cp_harness *harness,
				 uint64_t scale)
{
	const struct cp_benchmark benchmark = {
		.body = twice_floor_body, .scale = scale, .prime_count = 1000,
		.context = (void *)&harness->nothing_ticks_per_iteration,
	};
	struct cp_samples samples;
	double median;

	assert_int_equal(cp_harness_measure(harness, &benchmark, &samples), 0);
	assert_int_equal(samples.nr_samples, 9);
	median = cp_stats_median(samples.ticks_per_op, samples.nr_samples);
	cp_samples_free(&samples);
	return median;
}

/*
 * The floor F is subtracted once per iteration and the rest divided by
 * the scale: the body costs 2F an iteration, so F per operation at scale
 * 1 (2F if the floor were not subtracted) and F/4 at scale 4 (F if not
 * divided).  The body's cost does not depend on the machine, so 10 %
 * margins are room for rounding, not for noise, and neither slip fits.
 */
static void test_harness_floor_and_scale(void **state)
{
	const struct cp_harness_config config = {
		.samples = 9, .target_sample_ns = 1e6,
	};
	struct cp_harness harness;
	struct cp_clock clock;
	double floor, scale1, scale4;

	(void)state;
	cp_interrupt_reset();
	cp_clock_init(&clock, 0);
	assert_int_equal(cp_harness_init(&harness, &clock, &config), 0);
	floor = harness.nothing_ticks_per_iteration;
	assert_true(floor > 0);
	scale1 = twice_floor_median(&harness, 1);
	scale4 = twice_floor_median(&harness, 4);
	print_message("floor %.4f, scale 1: %.4f, scale 4: %.4f ticks\n",
		      floor, scale1, scale4);
	assert_true(scale1 > 0.9 * floor && scale1 < 1.1 * floor);
	assert_true(scale4 > 0.9 * floor / 4 && scale4 < 1.1 * floor / 4);
}

/* A renewed floor is measured anew, not kept: a floor no NOTHING
 * measures (a million ticks an iteration) gives way to one near the
 * start-up floor, in the figure and in its statistics.  Interrupted, it
 * says so and keeps what it had. */
static void test_harness_renews_its_floor(void **state)
{
	const struct cp_harness_config config = {
		.samples = 5, .target_sample_ns = 1e5,
	};
	struct cp_harness harness;
	struct cp_clock clock;
	double first;

	(void)state;
	cp_interrupt_reset();
	cp_clock_init(&clock, 0);
	assert_int_equal(cp_harness_init(&harness, &clock, &config), 0);
	first = harness.nothing_ticks_per_iteration;
	harness.nothing_ticks_per_iteration = 1e6;
	harness.nothing_stats.median = 1e6;
	assert_int_equal(cp_harness_renew_floor(&harness), 0);
	assert_true(harness.nothing_ticks_per_iteration > 0);
	assert_true(harness.nothing_ticks_per_iteration < 10 * first);
	assert_true(harness.nothing_stats.median ==
		    harness.nothing_ticks_per_iteration);
	harness.nothing_ticks_per_iteration = 1e6;
	cp_interrupt_request(SIGINT);
	assert_int_equal(cp_harness_renew_floor(&harness), -EINTR);
	assert_true(harness.nothing_ticks_per_iteration == 1e6);
	cp_interrupt_reset();
}

static void test_harness_stops_when_interrupted(void **state)
{
	const struct cp_harness_config config = {
		.samples = 5, .target_sample_ns = 1e5,
	};
	const struct cp_benchmark benchmark = {
		.body = cp_nothing_body, .scale = 1, .prime_count = 1,
	};
	struct cp_harness harness;
	struct cp_samples samples;
	struct cp_clock clock;

	(void)state;
	cp_interrupt_reset();
	cp_clock_init(&clock, 0);
	assert_int_equal(cp_harness_init(&harness, &clock, &config), 0);
	cp_interrupt_request(SIGINT);
	assert_int_equal(cp_harness_measure(&harness, &benchmark, &samples),
			 -EINTR);
	assert_int_equal(cp_interrupt_signal(), SIGINT);
	cp_interrupt_reset();
	assert_false(cp_interrupt_requested());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chase_is_one_cycle),
		cmocka_unit_test(test_chase_refuses_bad_sizes),
		cmocka_unit_test(test_chase_buffer_can_be_huge),
		cmocka_unit_test(test_chase_body_walks_the_cycle),
		cmocka_unit_test(test_scale_count),
		cmocka_unit_test(test_clock_on_this_machine),
		cmocka_unit_test(test_calibration_in_whole_khz),
		cmocka_unit_test(test_harness_calibrates_and_subtracts),
		cmocka_unit_test(test_harness_floor_and_scale),
		cmocka_unit_test(test_harness_renews_its_floor),
		cmocka_unit_test(test_harness_stops_when_interrupted),
	};

	return cmocka_run_group_tests_name("harness", tests, NULL, NULL);
}
