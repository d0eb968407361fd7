// SPDX-License-Identifier: GPL-2.0
/* The c2c plan: every pair once, one thread moving per step, the budget
 * kept, on a synthetic 2-package x 64-core x 2-thread machine and on a
 * 2-CPU one; budgets too short are refused with the least that fits. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "areas/c2c/c2c_schedule.h"
#include "areas/c2c/c2c_choices.h"
#include "areas/xcore/xcore_choices.h"
#include "topology_fixture.h"

/* Every unordered pair of @n CPUs exactly once. */
static void assert_covers(const struct cp_c2c_schedule *s, unsigned int n)
{
	unsigned char *seen = calloc((size_t)n * n, 1);

	assert_non_null(seen);
	assert_int_equal(s->nr_pairs, (size_t)n * (n - 1) / 2);
	for (size_t i = 0; i < s->nr_pairs; i++) {
		unsigned int a = s->pairs[i].first, b = s->pairs[i].second;
		unsigned int low = a < b ? a : b, high = a < b ? b : a;

		assert_true(a != b && high < n);
		assert_int_equal(seen[low * n + high], 0);
		seen[low * n + high] = 1;
	}
	free(seen);
}

static void test_large_machine(void **state)
{
	struct cp_topology *topology =
		load_synthetic("pack:2 core:64 pu:2");
	struct cp_c2c_schedule s;
	char why[200];
	size_t classes[CP_NR_PAIR_CLASSES] = { 0 };

	(void)state;
	assert_int_equal(topology->nr_cpus, 256);
	assert_int_equal(cp_c2c_schedule_build(topology, NULL, 2, 120e9, &s,
					       why, sizeof(why)), 0);
	assert_covers(&s, 256);
	/* One thread moves per step after the first two pins. */
	assert_int_equal(cp_c2c_moves_before(&s, 0), 2);
	for (size_t i = 1; i < s.nr_pairs; i++)
		assert_int_equal(cp_c2c_moves_before(&s, i), 1);
	assert_int_equal(s.moves, s.nr_pairs + 1);
	/* The shares and moves fit the budget, and no share is too short. */
	assert_true(s.estimate_ns <= s.budget_ns * (1 + 1e-9));
	assert_true(s.share_ns >= CP_C2C_MIN_SHARE_NS);
	for (size_t i = 0; i < s.nr_pairs; i++)
		classes[s.pairs[i].pair_class]++;
	assert_int_equal(classes[CP_PAIR_SAME_CORE], 128);
	assert_int_equal(classes[CP_PAIR_DIFFERENT_PACKAGE], 128 * 128);
	/* One pair of each class first, so a short budget still has them. */
	assert_int_equal(s.nr_class_firsts, 3);
	assert_int_equal(s.pairs[0].pair_class, CP_PAIR_SAME_CORE);
	assert_true(s.pairs[1].pair_class != s.pairs[2].pair_class &&
		    s.pairs[1].pair_class != CP_PAIR_SAME_CORE &&
		    s.pairs[2].pair_class != CP_PAIR_SAME_CORE);
	cp_c2c_schedule_free(&s);
	cp_topology_free(topology);
}

/* Pairs that do not all fit are spread over those left, not the first
 * ones taken: 10 of 100, time passing only while a pair is measured. */
static void test_pairs_spread_when_short(void **state)
{
	double credit = 0, fit = 10;
	size_t measured = 0, first = 0, last = 0;

	(void)state;
	for (size_t left = 100; left > 0; left--) {
		if (!cp_c2c_pair_fits(fit, left, &credit))
			continue;
		if (!measured)
			first = 100 - left;
		last = 100 - left;
		measured++;
		fit -= 1;
	}
	assert_true(measured >= 9 && measured <= 10);
	assert_true(first <= 10);
	assert_true(last >= 85);
	/* Everything fits: every pair, no credit needed. */
	credit = 0;
	for (size_t left = 5; left > 0; left--)
		assert_true(cp_c2c_pair_fits(5, left, &credit));
	/* Nothing fits: none. */
	for (size_t left = 5; left > 0; left--)
		assert_false(cp_c2c_pair_fits(0, left, &credit));
}

static void test_budget_too_short(void **state)
{
	struct cp_topology *topology =
		load_synthetic("pack:2 core:64 pu:2");
	struct cp_c2c_schedule s;
	char why[200];

	(void)state;
	assert_int_equal(cp_c2c_schedule_build(topology, NULL, 2, 10e9, &s,
					       why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "too short for 32640 pairs x 2 variants"));
	assert_non_null(strstr(why, "at least"));
	cp_topology_free(topology);
}

static void test_default_budget(void **state)
{
	struct cp_topology *large = load_synthetic("pack:2 core:64 pu:2");
	struct cp_topology *small = load_synthetic("l3:1 core:2 pu:1");
	struct cp_c2c_schedule s;
	char why[200];

	(void)state;
	/* Small machines: the fixed default; large: a share per pair. */
	assert_int_equal(cp_c2c_schedule_build(small, NULL, 2, 0, &s, why,
					       sizeof(why)), 0);
	assert_int_equal(s.nr_pairs, 1);
	assert_true(s.budget_ns == CP_C2C_DEFAULT_BUDGET_NS);
	cp_c2c_schedule_free(&s);
	assert_int_equal(cp_c2c_schedule_build(large, NULL, 2, 0, &s, why,
					       sizeof(why)), 0);
	assert_true(s.share_ns >= CP_C2C_DEFAULT_SHARE_NS * (1 - 1e-9));
	assert_true(s.estimate_ns <= s.budget_ns * (1 + 1e-9));
	cp_c2c_schedule_free(&s);
	cp_topology_free(large);
	cp_topology_free(small);
}

/* The budget kept while running: a share shrinks by what each pair cost
 * beyond it, never grows past the plan, never falls below the least. */
static void test_share_keeps_the_budget(void **state)
{
	struct cp_topology *topology = load_synthetic("pack:1 core:8 pu:1");
	struct cp_c2c_schedule s;
	size_t runs;
	char why[200];

	(void)state;
	/* 28 pairs x 2 variants in 10 s, moves aside. */
	assert_int_equal(cp_c2c_schedule_build(topology, NULL, 2, 10e9, &s, why,
					       sizeof(why)), 0);
	runs = s.nr_pairs * s.variants;
	assert_int_equal(runs, 56);
	/* Nothing run yet, or everything on plan: the planned share. */
	assert_true(cp_c2c_share_next(&s, 0, runs, 0, 0) == s.share_ns);
	assert_true(cp_c2c_share_next(&s, 10, runs - 10, 10 * s.share_ns,
				      10 * s.share_ns) <= s.share_ns);
	assert_true(cp_c2c_share_next(&s, 10, runs - 10, 10 * s.share_ns,
				      10 * s.share_ns) >
		    0.99 * s.share_ns);
	/* Faster than planned: no more than the plan for those left. */
	assert_true(cp_c2c_share_next(&s, 10, runs - 10, 0.5e9,
				      10 * s.share_ns) == s.share_ns);
	/* Each of 28 runs cost 100 ms beyond its share: the 28 left share
	 * what is left, less 100 ms each. */
	{
		double planned = 28 * 50e6, elapsed = planned + 28 * 100e6;
		double want = (10e9 - elapsed) / 28 - 100e6;

		assert_true(want < s.share_ns);
		assert_float_equal(cp_c2c_share_next(&s, 28, 28, elapsed,
						     planned),
				   want, 1);
	}
	/* The budget spent: the least share, never zero or negative. */
	assert_true(cp_c2c_share_next(&s, 50, 6, 20e9, 1e9) ==
		    CP_C2C_MIN_SHARE_NS);
	assert_true(cp_c2c_share_next(&s, runs, 0, 20e9, 1e9) ==
		    CP_C2C_MIN_SHARE_NS);
	cp_c2c_schedule_free(&s);
	cp_topology_free(topology);
}

static void test_selection_and_one_cpu(void **state)
{
	struct cp_topology *topology = load_synthetic("pack:2 core:4 pu:2");
	struct cp_cpuset *cpus = NULL;
	struct cp_c2c_schedule s;
	char why[200];

	(void)state;
	assert_int_equal(cp_cpuset_parse("1,3,5,12", &cpus, why, sizeof(why)), 0);
	assert_int_equal(cp_c2c_schedule_build(topology, cpus, 2, 0, &s, why,
					       sizeof(why)), 0);
	assert_int_equal(s.nr_pairs, 6);
	for (size_t i = 0; i < s.nr_pairs; i++) {
		assert_true(cp_cpuset_test(cpus, s.pairs[i].first));
		assert_true(cp_cpuset_test(cpus, s.pairs[i].second));
	}
	cp_c2c_schedule_free(&s);
	cp_cpuset_free(cpus);
	assert_int_equal(cp_cpuset_parse("2", &cpus, why, sizeof(why)), 0);
	assert_int_equal(cp_c2c_schedule_build(topology, cpus, 2, 0, &s, why,
					       sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "one CPU selected"));
	cp_cpuset_free(cpus);
	cp_topology_free(topology);
}

static void test_option_parsers(void **state)
{
	enum cp_c2c_home home;
	unsigned int delay;
	double ns;
	char why[160];

	(void)state;
	assert_int_equal(cp_c2c_parse_budget("2.5", &ns, why, sizeof(why)), 0);
	assert_true(ns == 2.5e9);
	assert_int_equal(cp_c2c_parse_budget("2m", &ns, why, sizeof(why)), 0);
	assert_true(ns == 120e9);
	assert_int_equal(cp_c2c_parse_budget("0", &ns, why, sizeof(why)), -EINVAL);
	assert_int_equal(cp_c2c_parse_budget("-1", &ns, why, sizeof(why)), -EINVAL);
	assert_int_equal(cp_c2c_parse_budget("3h", &ns, why, sizeof(why)), -EINVAL);
	assert_int_equal(cp_c2c_parse_home("second", &home, why, sizeof(why)), 0);
	assert_int_equal(home, CP_C2C_HOME_SECOND);
	assert_int_equal(cp_c2c_parse_home("left", &home, why, sizeof(why)), -EINVAL);
	assert_int_equal(cp_xcore_parse_delay("12", &delay, why, sizeof(why)), 0);
	assert_int_equal(delay, 12);
	assert_int_equal(cp_xcore_parse_delay("-3", &delay, why, sizeof(why)), -EINVAL);
	assert_int_equal(cp_xcore_parse_delay("5000", &delay, why, sizeof(why)), -EINVAL);
	assert_int_equal(cp_c2c_parse_matrix_path("m.txt", why, sizeof(why)), -EINVAL);
	assert_int_equal(cp_c2c_parse_matrix_path("m.json", why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_large_machine),
		cmocka_unit_test(test_pairs_spread_when_short),
		cmocka_unit_test(test_budget_too_short),
		cmocka_unit_test(test_default_budget),
		cmocka_unit_test(test_share_keeps_the_budget),
		cmocka_unit_test(test_selection_and_one_cpu),
		cmocka_unit_test(test_option_parsers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
