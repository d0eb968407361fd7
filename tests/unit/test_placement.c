// SPDX-License-Identifier: GPL-2.0
/* Where the host placed the vCPUs, judged from round trips: measured or
 * not, moved during a run at just over CP_PLACEMENT_FACTOR and not at just
 * under it, a run or a pool of runs on more than one placement, two runs
 * on other placements or the same one with noise, the runs of a compare
 * side pooled, and the texts compare and the report show. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "machine/placement.h"

static struct cp_placement_probe probe(unsigned int a, unsigned int b,
				       double start, double end)
{
	struct cp_placement_probe p = {
		.cpus = { a, b }, .round_trip_ns = { start, end },
	};

	return p;
}

static void test_measured(void **state)
{
	struct cp_placement_probe none = probe(0, 0, 0, 0);
	struct cp_placement_probe start = probe(0, 1, 56, 0);
	struct cp_placement_probe both = probe(0, 1, 56, 57);
	/* An end without a start is not a measurement of the run. */
	struct cp_placement_probe end_only = probe(0, 1, 0, 57);

	(void)state;
	assert_false(cp_placement_measured(&none));
	assert_true(cp_placement_measured(&start));
	assert_true(cp_placement_measured(&both));
	assert_false(cp_placement_measured(&end_only));
}

/* 56 ns times 1.5 is 84 ns: beyond it a move, within it noise, either
 * way round. */
static void test_moved_at_the_factor(void **state)
{
	struct cp_placement_probe over = probe(0, 1, 56, 84.01);
	struct cp_placement_probe under = probe(0, 1, 56, 83.99);
	struct cp_placement_probe at = probe(0, 1, 56, 84);
	struct cp_placement_probe down_over = probe(0, 1, 84.01, 56);
	struct cp_placement_probe down_under = probe(0, 1, 83.99, 56);
	struct cp_placement_probe seen = probe(0, 1, 56, 212);
	struct cp_placement_probe no_end = probe(0, 1, 56, 0);

	(void)state;
	assert_true(cp_placement_moved(&over));
	assert_false(cp_placement_moved(&under));
	assert_false(cp_placement_moved(&at));
	assert_true(cp_placement_moved(&down_over));
	assert_false(cp_placement_moved(&down_under));
	assert_true(cp_placement_moved(&seen));
	/* Without an end there is nothing to have moved from. */
	assert_false(cp_placement_moved(&no_end));
	/* A run that moved holds two placements; one that did not, one. */
	assert_true(cp_placement_mixed(&over));
	assert_false(cp_placement_mixed(&under));
	assert_false(cp_placement_mixed(&at));
	assert_true(cp_placement_mixed(&down_over));
	assert_false(cp_placement_mixed(&no_end));
}

static void assert_differ(struct cp_placement_probe a,
			  struct cp_placement_probe b, bool expected)
{
	assert_int_equal(cp_placements_differ(&a, &b), expected);
	assert_int_equal(cp_placements_differ(&b, &a), expected);
}

static void test_differ(void **state)
{
	(void)state;
	/* The readings of the KVM guest: 52-61 ns is one placement. */
	assert_differ(probe(0, 1, 52, 61), probe(0, 1, 56, 57), false);
	assert_differ(probe(0, 1, 56, 57), probe(0, 1, 209, 216), true);
	assert_differ(probe(0, 1, 56, 0), probe(0, 1, 212, 0), true);
	/* Just apart, just not. */
	assert_differ(probe(0, 1, 56, 0), probe(0, 1, 84.01, 0), true);
	assert_differ(probe(0, 1, 56, 0), probe(0, 1, 83.99, 0), false);
	/* Other CPUs are another placement, whatever the round trips. */
	assert_differ(probe(0, 1, 56, 57), probe(0, 2, 56, 57), true);
	assert_differ(probe(0, 1, 56, 57), probe(1, 1, 56, 57), true);
	/* A run that moved overlaps both placements: neither is other. */
	assert_differ(probe(0, 1, 56, 212), probe(0, 1, 57, 0), false);
	assert_differ(probe(0, 1, 56, 212), probe(0, 1, 210, 0), false);
	/* A side not measured tells nothing. */
	assert_differ(probe(0, 0, 0, 0), probe(0, 1, 212, 209), false);
	assert_differ(probe(0, 0, 0, 0), probe(0, 0, 0, 0), false);
}

static void test_format(void **state)
{
	struct cp_placement_probe both = probe(0, 1, 56.2, 57.1);
	struct cp_placement_probe start = probe(2, 7, 211.6, 0);
	struct cp_placement_probe none = probe(0, 0, 0, 0);
	char text[64], small[8];

	(void)state;
	assert_int_equal(cp_placement_format(&both, text, sizeof(text)),
			 (int)strlen("0:1 56 ns, then 57 ns"));
	assert_string_equal(text, "0:1 56 ns, then 57 ns");
	cp_placement_format(&start, text, sizeof(text));
	assert_string_equal(text, "2:7 212 ns");
	cp_placement_format(&none, text, sizeof(text));
	assert_string_equal(text, "not measured");
	/* As snprintf: cut to the buffer, the whole length returned. */
	assert_int_equal(cp_placement_format(&both, small, sizeof(small)),
			 (int)strlen("0:1 56 ns, then 57 ns"));
	assert_string_equal(small, "0:1 56 ");
}

/* Runs pooled into one side of a compare, as cp_results_pool does: the
 * pool starts as its first run's probe and takes each other run's. */
static struct cp_placement_probe pool_of(const struct cp_placement_probe *runs,
					 size_t n)
{
	struct cp_placement_probe pool = runs[0];

	for (size_t i = 1; i < n; i++)
		cp_placement_pool_add(&pool, &runs[i]);
	return pool;
}

static void assert_pool(struct cp_placement_probe pool, unsigned int a,
			unsigned int b, double low, double high,
			unsigned int runs)
{
	if (pool.cpus[0] != a || pool.cpus[1] != b ||
	    pool.round_trip_ns[0] != low || pool.round_trip_ns[1] != high ||
	    pool.pooled_runs != runs)
		fail_msg("pool %u:%u %g to %g ns over %u runs, not %u:%u %g to %g ns over %u",
			 pool.cpus[0], pool.cpus[1], pool.round_trip_ns[0],
			 pool.round_trip_ns[1], pool.pooled_runs, a, b, low,
			 high, runs);
}

/*
 * A pool keeps the quickest and slowest readings of all its runs, start
 * or end, in any order, and counts them; a run measured only at the start
 * gives its one reading.
 */
static void test_pool_span(void **state)
{
	const struct cp_placement_probe near_far[] = {
		probe(0, 1, 56, 57), probe(0, 1, 212, 209),
	};
	const struct cp_placement_probe far_near[] = {
		probe(0, 1, 212, 209), probe(0, 1, 57, 56),
	};
	const struct cp_placement_probe three[] = {
		probe(0, 1, 61, 58), probe(0, 1, 214, 0), probe(0, 1, 56, 57),
	};
	const struct cp_placement_probe starts[] = {
		probe(2, 7, 120, 0), probe(2, 7, 80, 0),
	};
	const struct cp_placement_probe same[] = {
		probe(0, 1, 56, 57), probe(0, 1, 56, 57),
	};

	(void)state;
	assert_pool(pool_of(near_far, 2), 0, 1, 56, 212, 2);
	assert_pool(pool_of(far_near, 2), 0, 1, 56, 212, 2);
	assert_pool(pool_of(three, 3), 0, 1, 56, 214, 3);
	assert_pool(pool_of(three, 2), 0, 1, 58, 214, 2);
	assert_pool(pool_of(starts, 2), 2, 7, 80, 120, 2);
	assert_pool(pool_of(same, 2), 0, 1, 56, 57, 2);
	/* A single run is no pool. */
	assert_pool(pool_of(near_far, 1), 0, 1, 56, 57, 0);
}

/* A run not measured, or measured on other CPUs, leaves the pool without
 * a placement to judge, wherever it comes and whatever comes after. */
static void test_pool_unmeasured(void **state)
{
	const struct cp_placement_probe none = probe(0, 0, 0, 0);
	const struct cp_placement_probe near = probe(0, 1, 56, 57);
	const struct cp_placement_probe far = probe(0, 1, 212, 209);
	const struct cp_placement_probe other_cpus = probe(0, 2, 56, 57);
	const struct cp_placement_probe same_cpu = probe(1, 1, 56, 57);
	/* An end without a start is not measured. */
	const struct cp_placement_probe end_only = probe(0, 1, 0, 57);
	const struct cp_placement_probe *cases[][3] = {
		{ &none, &near, &far },
		{ &near, &none, &far },
		{ &near, &far, &none },
		{ &near, &far, &other_cpus },
		{ &near, &same_cpu, &near },
		{ &near, &end_only, &far },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cp_placement_probe pool = *cases[i][0];
		char text[64];

		cp_placement_pool_add(&pool, cases[i][1]);
		cp_placement_pool_add(&pool, cases[i][2]);
		assert_false(cp_placement_measured(&pool));
		assert_pool(pool, 0, 0, 0, 0, 0);
		cp_placement_format(&pool, text, sizeof(text));
		assert_string_equal(text, "not measured");
		assert_false(cp_placements_differ(&pool, &far));
	}
}

/* A pool has no start and end: its span is two runs' readings, not a
 * move during one, however far apart; its text says so. */
static void test_pool_not_moved(void **state)
{
	const struct cp_placement_probe near_far[] = {
		probe(0, 1, 56, 57), probe(0, 1, 212, 209),
	};
	const struct cp_placement_probe three[] = {
		probe(0, 1, 56, 0), probe(0, 1, 61.4, 0), probe(0, 1, 213.6, 0),
	};
	struct cp_placement_probe pool = pool_of(near_far, 2);
	char text[64];

	(void)state;
	assert_false(cp_placement_moved(&pool));
	/* Its runs were on two placements all the same. */
	assert_true(cp_placement_mixed(&pool));
	assert_int_equal(cp_placement_format(&pool, text, sizeof(text)),
			 (int)strlen("0:1 56 to 212 ns over 2 runs"));
	assert_string_equal(text, "0:1 56 to 212 ns over 2 runs");
	pool = pool_of(three, 3);
	assert_false(cp_placement_moved(&pool));
	assert_true(cp_placement_mixed(&pool));
	cp_placement_format(&pool, text, sizeof(text));
	assert_string_equal(text, "0:1 56 to 214 ns over 3 runs");
	/* Two near runs: one placement with the probe's noise. */
	pool = pool_of(three, 2);
	assert_false(cp_placement_mixed(&pool));
}

/* Pools are judged by all their runs: one that held both placements is
 * not other than either; pools of one placement each are. */
static void test_pool_differ(void **state)
{
	const struct cp_placement_probe near_far[] = {
		probe(0, 1, 56, 57), probe(0, 1, 212, 209),
	};
	const struct cp_placement_probe far_near[] = {
		probe(0, 1, 212, 209), probe(0, 1, 56, 57),
	};
	const struct cp_placement_probe nears[] = {
		probe(0, 1, 56, 57), probe(0, 1, 52, 61),
	};
	const struct cp_placement_probe fars[] = {
		probe(0, 1, 212, 209), probe(0, 1, 216, 0),
	};

	(void)state;
	assert_differ(pool_of(near_far, 2), probe(0, 1, 212, 209), false);
	assert_differ(pool_of(near_far, 2), probe(0, 1, 56, 57), false);
	assert_differ(pool_of(near_far, 2), pool_of(far_near, 2), false);
	assert_differ(pool_of(near_far, 2), pool_of(fars, 2), false);
	assert_differ(pool_of(nears, 2), pool_of(fars, 2), true);
	assert_differ(pool_of(nears, 2), probe(0, 1, 212, 209), true);
	assert_differ(pool_of(nears, 2), pool_of(nears, 2), false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measured),
		cmocka_unit_test(test_moved_at_the_factor),
		cmocka_unit_test(test_differ),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_pool_span),
		cmocka_unit_test(test_pool_unmeasured),
		cmocka_unit_test(test_pool_not_moved),
		cmocka_unit_test(test_pool_differ),
	};

	return cmocka_run_group_tests_name("placement", tests, NULL, NULL);
}
