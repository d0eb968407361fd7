// SPDX-License-Identifier: GPL-2.0
/*
 * Rounds of a benchmark (harness/harness_rounds.h) with an arrangement that
 * only counts: how many rounds were built, that the last round's is held
 * while the next is built and nothing is held at the end, the samples
 * over the rounds with one count, and what a failed check or build
 * leaves.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>

#include "harness/clock.h"
#include "harness/harness_rounds.h"
#include "harness/interrupt.h"

struct counted {
	unsigned int built, held, most_held;
	bool held_slot[2];
	unsigned int fail_build_at;	/* 0: never; else round + 1 */
	unsigned int fail_check_at;
	uint64_t sink;
};

static uint64_t spin(void *context, uint64_t count)
{
	struct counted *counted = context;

	for (uint64_t i = 0; i < count; i++)
		__asm__ __volatile__("" : "+r"(counted->sink));
	return counted->sink;
}

static int build(void *data, unsigned int round,
		 struct cp_benchmark *benchmark)
{
	struct counted *counted = data;

	if (counted->fail_build_at == round + 1)
		return -ENOMEM;
	assert_false(counted->held_slot[round % 2]);
	counted->held_slot[round % 2] = true;
	counted->built++;
	if (++counted->held > counted->most_held)
		counted->most_held = counted->held;
	*benchmark = (struct cp_benchmark){
		.body = spin, .context = counted, .scale = 1,
		.prime_count = 1,
	};
	return 0;
}

static bool verify(void *data, unsigned int round)
{
	struct counted *counted = data;

	return counted->fail_check_at != round + 1;
}

static void release(void *data, unsigned int round)
{
	struct counted *counted = data;

	assert_true(counted->held_slot[round % 2]);
	counted->held_slot[round % 2] = false;
	counted->held--;
}

static void init(struct cp_harness *harness, struct cp_clock *clock,
		 unsigned int samples, unsigned int rounds)
{
	const struct cp_harness_config config = {
		.samples = samples, .target_sample_ns = 2e4, .rounds = rounds,
	};

	cp_interrupt_reset();
	cp_clock_init(clock, 0);
	assert_int_equal(cp_harness_init(harness, clock, &config), 0);
}

static void test_rounds_hold_the_last(void **state)
{
	struct counted counted = { 0 };
	const struct cp_arrangement arrangement = {
		build, verify, release, &counted,
	};
	struct cp_harness harness;
	struct cp_clock clock;
	struct cp_round_clock round_clock;
	struct cp_samples samples;

	(void)state;
	init(&harness, &clock, 7, 3);
	assert_int_equal(cp_harness_measure_rounds(&harness, &arrangement,
						   &samples, &round_clock),
			 0);
	assert_int_equal(counted.built, 3);
	assert_int_equal(counted.most_held, 2);
	assert_int_equal(counted.held, 0);
	assert_int_equal(samples.nr_samples, 7);
	assert_int_equal(samples.samples_per_round, 3);
	assert_false(samples.interrupted);
	assert_true(samples.count >= 1);
	assert_int_equal(round_clock.rounds, 3);
	cp_samples_free(&samples);
	/* One round: not marked as rounds. */
	counted = (struct counted){ 0 };
	init(&harness, &clock, 4, 1);
	assert_int_equal(cp_harness_measure_rounds(&harness, &arrangement,
						   &samples, &round_clock),
			 0);
	assert_int_equal(counted.built, 1);
	assert_int_equal(samples.samples_per_round, 0);
	assert_int_equal(samples.nr_samples, 4);
	cp_samples_free(&samples);
}

/* A check that fails in round 2, a build that fails in round 3: the
 * error, nothing held, no samples. */
static void test_failed_rounds_release_all(void **state)
{
	struct counted counted = { .fail_check_at = 2 };
	const struct cp_arrangement arrangement = {
		build, verify, release, &counted,
	};
	struct cp_harness harness;
	struct cp_clock clock;
	struct cp_round_clock round_clock;
	struct cp_samples samples;

	(void)state;
	init(&harness, &clock, 6, 3);
	assert_int_equal(cp_harness_measure_rounds(&harness, &arrangement,
						   &samples, &round_clock),
			 -EIO);
	assert_int_equal(counted.held, 0);
	assert_null(samples.ticks_per_op);
	counted = (struct counted){ .fail_build_at = 3 };
	assert_int_equal(cp_harness_measure_rounds(&harness, &arrangement,
						   &samples, &round_clock),
			 -ENOMEM);
	assert_int_equal(counted.built, 2);
	assert_int_equal(counted.held, 0);
	/* One round at a time (interleaved callers): released at once. */
	counted = (struct counted){ 0 };
	samples = (struct cp_samples){ .samples_per_round = 2 };
	assert_int_equal(cp_harness_round(&harness, &arrangement, 0, 2,
					  &samples, &round_clock), 0);
	assert_int_equal(cp_harness_round(&harness, &arrangement, 1, 2,
					  &samples, &round_clock), 0);
	assert_int_equal(counted.held, 0);
	assert_int_equal(samples.nr_samples, 4);
	cp_samples_free(&samples);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds_hold_the_last),
		cmocka_unit_test(test_failed_rounds_release_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
