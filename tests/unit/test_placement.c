// SPDX-License-Identifier: GPL-2.0
/* Where the host placed the vCPUs, judged from round trips: measured or
 * not, moved during a run at just over CP_PLACEMENT_FACTOR and not at just
 * under it, two runs on other placements or the same one with noise, and
 * the texts compare and the report show. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measured),
		cmocka_unit_test(test_moved_at_the_factor),
		cmocka_unit_test(test_differ),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests_name("placement", tests, NULL, NULL);
}
