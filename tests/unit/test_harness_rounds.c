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
#include <signal.h>
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

/* Which arrangement each round started, in order. */
struct started {
	size_t index[32];
	unsigned int round[32];
	size_t n;
};

static void note_start(void *data, size_t index, unsigned int round)
{
	struct started *started = data;

	if (started->n < 32) {
		started->index[started->n] = index;
		started->round[started->n++] = round;
	}
}

/* Three arrangements, three rounds: each round starts every arrangement
 * once before the next round, not always in one order, and each gets
 * the harness's samples over its rounds, nothing held at the end. */
static void test_interleaved(void **state)
{
	struct counted counted[3] = { { 0 } };
	struct cp_arrangement arrangements[3];
	struct cp_samples outs[3];
	struct cp_round_clock clocks[3];
	struct started started = { 0 };
	struct cp_harness harness;
	struct cp_clock clock;
	size_t failed;
	bool orders_differ = false;

	(void)state;
	for (size_t i = 0; i < 3; i++)
		arrangements[i] = (struct cp_arrangement){
			build, verify, release, &counted[i],
		};
	init(&harness, &clock, 6, 3);
	assert_int_equal(cp_harness_measure_interleaved(&harness, arrangements,
							3, 7, outs, clocks,
							note_start, &started,
							&failed),
			 0);
	assert_int_equal(started.n, 9);
	for (unsigned int r = 0; r < 3; r++) {
		bool seen[3] = { false };

		for (size_t k = 0; k < 3; k++) {
			assert_int_equal(started.round[r * 3 + k], r);
			assert_false(seen[started.index[r * 3 + k]]);
			seen[started.index[r * 3 + k]] = true;
		}
	}
	/* Seed 7 orders its three rounds differently (the order is drawn). */
	for (size_t k = 0; k < 3; k++)
		orders_differ |= started.index[k] != started.index[3 + k] ||
				 started.index[k] != started.index[6 + k];
	assert_true(orders_differ);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(counted[i].built, 3);
		assert_int_equal(counted[i].held, 0);
		assert_int_equal(counted[i].most_held, 1);
		assert_int_equal(outs[i].nr_samples, 6);
		assert_int_equal(outs[i].samples_per_round, 2);
		assert_false(outs[i].interrupted);
		cp_samples_free(&outs[i]);
	}
	/* A failed check in arrangement 1's second round: its index, the
	 * error, nothing held, nothing kept. */
	for (size_t i = 0; i < 3; i++)
		counted[i] = (struct counted){ 0 };
	counted[1].fail_check_at = 2;
	assert_int_equal(cp_harness_measure_interleaved(&harness, arrangements,
							3, 7, outs, clocks,
							NULL, NULL, &failed),
			 -EIO);
	assert_int_equal(failed, 1);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(counted[i].held, 0);
		assert_null(outs[i].ticks_per_op);
	}
}

/* Each round subtracts a floor measured at its start, not the one the
 * caller's harness holds: with a floor no NOTHING measures (a million
 * ticks an iteration, which would make every sample about minus a
 * million), every sample of every round stays near the body's small
 * cost, and the caller's harness is left as it was. */
static void test_interleaved_rounds_renew_the_floor(void **state)
{
	struct counted counted[2] = { { 0 } };
	struct cp_arrangement arrangements[2];
	struct cp_samples outs[2];
	struct cp_round_clock clocks[2];
	struct cp_harness harness;
	struct cp_clock clock;
	size_t failed;

	(void)state;
	for (size_t i = 0; i < 2; i++)
		arrangements[i] = (struct cp_arrangement){
			build, verify, release, &counted[i],
		};
	init(&harness, &clock, 6, 3);
	harness.nothing_ticks_per_iteration = 1e6;
	assert_int_equal(cp_harness_measure_interleaved(&harness, arrangements,
							2, 7, outs, clocks,
							NULL, NULL, &failed),
			 0);
	assert_true(harness.nothing_ticks_per_iteration == 1e6);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(outs[i].nr_samples, 6);
		for (size_t k = 0; k < outs[i].nr_samples; k++)
			assert_true(outs[i].ticks_per_op[k] > -1e3);
		cp_samples_free(&outs[i]);
	}
}

struct floors_seen {
	double floor[4];
	unsigned int rounds, stop_at, ask_stop_at;
};

/* A floor no NOTHING measures: a million ticks an iteration. */
#define FLOOR_SENTINEL 1e6

static int see_floor(const struct cp_harness *round_harness,
		     unsigned int round, void *data)
{
	struct floors_seen *seen = data;
	/*
	 * const to a round's callback, but the harness is the rounds' own
	 * copy (cp_harness_each_round), so writing it is defined: a sentinel
	 * left in it stands for a floor measured once before the rounds,
	 * which the next round must not read.
	 */
	struct cp_harness *writable = (struct cp_harness *)round_harness;

	assert_int_equal(round, seen->rounds);
	seen->floor[seen->rounds++] =
		round_harness->nothing_ticks_per_iteration;
	writable->nothing_ticks_per_iteration = FLOOR_SENTINEL;
	if (round + 1 == seen->ask_stop_at)
		cp_interrupt_request(SIGINT);
	return round + 1 == seen->stop_at ? -EIO : 0;
}

/*
 * Every round of a measurement taken in rounds (latency's curves, the
 * interleaved areas) gets a floor measured at its start, not the one the
 * caller's harness holds, which is left as it was, nor the one the round
 * before left (see_floor writes the sentinel after each round's reading:
 * a floor renewed once before the rounds reads it from round 1 on).
 */
static void test_each_round_measures_its_floor(void **state)
{
	struct floors_seen seen = { .stop_at = 0 };
	struct cp_harness harness;
	struct cp_clock clock;

	(void)state;
	init(&harness, &clock, 6, 3);
	harness.nothing_ticks_per_iteration = FLOOR_SENTINEL;
	assert_int_equal(cp_harness_each_round(&harness, 3, see_floor, &seen),
			 0);
	assert_int_equal(seen.rounds, 3);
	for (unsigned int r = 0; r < 3; r++)
		if (!(seen.floor[r] < 1e3))
			fail_msg("round %u read a floor of %g ticks", r,
				 seen.floor[r]);
	assert_true(harness.nothing_ticks_per_iteration == FLOOR_SENTINEL);
}

/* A round's error ends the rounds and is what the caller gets. */
static void test_each_round_stops_at_an_error(void **state)
{
	struct floors_seen seen = { .stop_at = 2 };
	struct cp_harness harness;
	struct cp_clock clock;

	(void)state;
	init(&harness, &clock, 6, 3);
	assert_int_equal(cp_harness_each_round(&harness, 4, see_floor, &seen),
			 -EIO);
	assert_int_equal(seen.rounds, 2);
}

/* Asked to stop during a round: no further round, -EINTR. */
static void test_each_round_stops_when_asked(void **state)
{
	struct floors_seen seen = { .ask_stop_at = 1 };
	struct cp_harness harness;
	struct cp_clock clock;

	int ret;

	(void)state;
	init(&harness, &clock, 6, 3);
	ret = cp_harness_each_round(&harness, 3, see_floor, &seen);
	/* Before any assertion: a failed one must not leave the stop asked
	 * for the tests after it. */
	cp_interrupt_reset();
	assert_int_equal(ret, -EINTR);
	assert_int_equal(seen.rounds, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds_hold_the_last),
		cmocka_unit_test(test_failed_rounds_release_all),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_interleaved_rounds_renew_the_floor),
		cmocka_unit_test(test_each_round_measures_its_floor),
		cmocka_unit_test(test_each_round_stops_at_an_error),
		cmocka_unit_test(test_each_round_stops_when_asked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
