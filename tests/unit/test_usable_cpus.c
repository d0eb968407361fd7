// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs a run may choose from.  A cgroup cpuset is played by an hwloc
 * XML export whose allowed set is restricted (what hwloc reads from the
 * cgroup on a real machine); a taskset by this test's own affinity.  On
 * the restricted machine every default choice (picks, pair classes, bounce
 * groups, the c2c pairs, the eviction readers, the starting CPU) stays
 * among the allowed CPUs, and a CPU asked for outside them is refused as
 * not allowed, not as offline.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/affinity.h"
#include "areas/bounce/bounce_groups.h"
#include "areas/c2c/c2c_schedule.h"
#include "evict/coldcache_plan.h"
#include "machine/cpu_select.h"
#include "machine/usable_cpus.h"
#include "topology_fixture.h"

/* 2 packages x 2 L3 x 2 cores x 2 threads: CPUs 0-15, CPU 2k and 2k+1 on
 * one core, 4 CPUs per L3.  Allowed: both threads of core 1, one thread of
 * core 2 (the other L3 of package 0) and one of core 4 (package 1). */
#define MACHINE "pack:2 l3:2 core:2 pu:2"
#define ALLOWED "2-3,5,9"
#define REFUSAL_TAIL "is not in this process's allowed CPUs (taskset/cpuset: 2-3,5,9)"

static void assert_list(const struct cp_cpuset *set, const char *expected)
{
	char *text = cp_cpuset_format_alloc(set);

	assert_non_null(text);
	assert_string_equal(text, expected);
	free(text);
}

static void assert_selects(const char *text, const char *expected)
{
	struct cp_topology *topology = load_restricted(MACHINE, ALLOWED);
	struct cp_cpuset *set = NULL;
	char why[256];

	if (cp_cpu_select(topology, text, false, &set, why, sizeof(why)))
		fail_msg("'%s' refused: %s", text, why);
	assert_list(set, expected);
	cp_cpuset_free(set);
	cp_topology_free(topology);
}

static void assert_refused(const char *text, const char *reason)
{
	struct cp_topology *topology = load_restricted(MACHINE, ALLOWED);
	struct cp_cpuset *set = NULL;
	char why[256];

	assert_int_equal(cp_cpu_select(topology, text, false, &set, why,
				       sizeof(why)), -EINVAL);
	assert_null(set);
	if (!strstr(why, reason))
		fail_msg("'%s': reason \"%s\" lacks \"%s\"", text, why, reason);
	cp_topology_free(topology);
}

static void test_disallowed_cpus_stay_online(void **state)
{
	struct cp_topology *topology = load_restricted(MACHINE, ALLOWED);

	(void)state;
	assert_int_equal(topology->nr_cpus, 16);
	assert_list(topology->cpus, "0-15");
	assert_list(topology->usable, ALLOWED);
	cp_topology_free(topology);
}

/* An imaginary machine is not where this process runs: its affinity does
 * not apply, every CPU hwloc allows is usable. */
static void test_synthetic_machine_is_all_usable(void **state)
{
	struct cp_topology *topology = load_synthetic(MACHINE);

	(void)state;
	assert_true(cp_cpuset_equal(topology->usable, topology->cpus));
	cp_topology_free(topology);
}

static void test_picks_among_allowed(void **state)
{
	(void)state;
	assert_selects("all", ALLOWED);
	assert_selects("per-core", "2,5,9");
	assert_selects("per-l3", "2,5,9");
	assert_selects("per-package", "2,9");
	assert_selects("3,5", "3,5");
}

static void test_disallowed_cpu_refused(void **state)
{
	(void)state;
	assert_refused("0", "CPU 0 " REFUSAL_TAIL);
	assert_refused("2-4", "CPU 4 " REFUSAL_TAIL);
	assert_refused("per-core,8", "CPU 8 " REFUSAL_TAIL);
	/* Not online at all: the message it always had. */
	assert_refused("16", "CPU 16 does not exist (online CPUs: 0-15)");
}

static void test_pairs_among_allowed(void **state)
{
	struct cp_topology *topology = load_restricted(MACHINE, ALLOWED);
	struct cp_cpu_pair pairs[8];
	size_t n;
	char why[256];

	(void)state;
	assert_int_equal(cp_pair_representatives(topology, NULL, pairs), 3);
	assert_int_equal(cp_pair_select(topology, "classes", pairs, 8, &n, why,
					sizeof(why)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(pairs[0].pair_class, CP_PAIR_SAME_CORE);
	assert_int_equal(pairs[0].first, 2);
	assert_int_equal(pairs[0].second, 3);
	assert_int_equal(pairs[1].pair_class, CP_PAIR_SAME_PACKAGE);
	assert_int_equal(pairs[1].second, 5);
	assert_int_equal(pairs[2].pair_class, CP_PAIR_DIFFERENT_PACKAGE);
	assert_int_equal(pairs[2].second, 9);
	assert_int_equal(cp_pair_select(topology, "2:9,9:5", pairs, 8, &n, why,
					sizeof(why)), 0);
	assert_int_equal(cp_pair_select(topology, "2:9,0:2", pairs, 8, &n, why,
					sizeof(why)), -EINVAL);
	assert_string_equal(why, "pair 0:2: CPU 0 " REFUSAL_TAIL);
	assert_int_equal(cp_pair_select(topology, "5:12", pairs, 8, &n, why,
					sizeof(why)), -EINVAL);
	assert_string_equal(why, "pair 5:12: CPU 12 " REFUSAL_TAIL);
	assert_int_equal(cp_pair_select(topology, "2:20", pairs, 8, &n, why,
					sizeof(why)), -EINVAL);
	assert_string_equal(why, "pair 2:20: CPU 20 is not online");
	cp_topology_free(topology);
}

static void test_bounce_groups_among_allowed(void **state)
{
	struct cp_topology *topology = load_restricted(MACHINE, ALLOWED);
	struct cp_bounce_group groups[CP_NR_PAIR_CLASSES];
	size_t n;
	char why[200];

	(void)state;
	assert_int_equal(cp_bounce_plan_groups(topology, NULL, 2, groups, &n,
					       why, sizeof(why)), 0);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		for (unsigned int k = 0; k < groups[i].nr_cpus; k++)
			assert_true(cp_cpuset_test(topology->usable,
						   groups[i].cpus[k]));
	/* Three threads in one relation: the machine has them, the
	 * process does not. */
	assert_int_equal(cp_bounce_plan_groups(topology, NULL, 3, groups, &n,
					       why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why,
			       "(this process may use 4 of this machine's 16 CPUs)"));
	cp_topology_free(topology);
}

static void test_c2c_pairs_among_allowed(void **state)
{
	struct cp_topology *topology = load_restricted(MACHINE, ALLOWED);
	struct cp_c2c_schedule schedule;
	char why[200];

	(void)state;
	assert_int_equal(cp_c2c_schedule_build(topology, NULL, 2, 0, &schedule,
					       why, sizeof(why)), 0);
	assert_int_equal(schedule.nr_pairs, 6);	/* 4 CPUs */
	for (size_t i = 0; i < schedule.nr_pairs; i++) {
		assert_true(cp_cpuset_test(topology->usable,
					   schedule.pairs[i].first));
		assert_true(cp_cpuset_test(topology->usable,
					   schedule.pairs[i].second));
	}
	cp_c2c_schedule_free(&schedule);
	cp_topology_free(topology);
}

/* One reader per last-level cache that holds an allowed CPU, each reader
 * on an allowed CPU: the L3 of CPUs 12-15 has none and is not read. */
static void test_eviction_readers_among_allowed(void **state)
{
	struct cp_topology *topology = load_restricted(MACHINE, ALLOWED);
	struct cp_eviction_plan plan;
	struct cp_error error;

	(void)state;
	if (cp_plan_eviction(topology, NULL, 4, 0, &plan, &error))
		fail_msg("plan refused: %s", error.msg);
	assert_int_equal(plan.nr_domains, 3);
	for (size_t i = 0; i < plan.nr_readers; i++)
		assert_true(cp_cpuset_test(topology->usable,
					   plan.readers[i].cpu));
	cp_plan_free(&plan);
	cp_topology_free(topology);
}

static void test_default_cpu_is_allowed(void **state)
{
	struct cp_topology *topology = load_restricted(MACHINE, "9");

	(void)state;
	/* This thread runs on a CPU of the host, never on CPU 9 of the
	 * restricted machine unless the host has one: either way 9. */
	assert_int_equal(cp_usable_default_cpu(topology), 9);
	cp_topology_free(topology);
}

/* The CPUs this process runs on, as taskset would leave them: one. */
static int pin_to_current(cpu_set_t *previous)
{
	cpu_set_t one;
	int cpu = sched_getcpu();

	assert_true(cpu >= 0);
	assert_int_equal(sched_getaffinity(0, sizeof(*previous), previous), 0);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	return cpu;
}

/* This machine under a taskset of one CPU: only that one is usable, the
 * others stay online and are refused as not allowed. */
static void test_this_machine_under_taskset(void **state)
{
	struct cp_topology *topology = NULL;
	struct cp_error error;
	cpu_set_t previous;
	int cpu = pin_to_current(&previous);
	char expected[32];

	(void)state;
	if (cp_topology_load(NULL, &topology, &error))
		fail_msg("cannot read this machine: %s", error.msg);
	sched_setaffinity(0, sizeof(previous), &previous);
	snprintf(expected, sizeof(expected), "%d", cpu);
	assert_list(topology->usable, expected);
	assert_int_equal(cp_usable_default_cpu(topology), cpu);
	for (int other = cp_cpuset_first(topology->cpus); other >= 0;
	     other = cp_cpuset_next(topology->cpus, (unsigned int)other))
		assert_true(other == cpu ||
			    cp_usable_excludes(topology, (unsigned int)other));
	cp_topology_free(topology);
}

/*
 * The mask recorded at start-up is the one that counts, however the
 * process pinned itself since.  Last: the record lasts for the process.
 */
static void test_recorded_start_mask_wins(void **state)
{
	struct cp_cpuset *start = NULL, *now = NULL;
	cpu_set_t previous;

	(void)state;
	assert_int_equal(cp_affinity_record(), 0);
	assert_int_equal(cp_affinity_start(&start), 0);
	pin_to_current(&previous);
	assert_int_equal(cp_affinity_start(&now), 0);
	sched_setaffinity(0, sizeof(previous), &previous);
	assert_true(cp_cpuset_equal(start, now));
	assert_int_equal(cp_cpuset_count(now), CPU_COUNT(&previous));
	cp_cpuset_free(start);
	cp_cpuset_free(now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disallowed_cpus_stay_online),
		cmocka_unit_test(test_synthetic_machine_is_all_usable),
		cmocka_unit_test(test_picks_among_allowed),
		cmocka_unit_test(test_disallowed_cpu_refused),
		cmocka_unit_test(test_pairs_among_allowed),
		cmocka_unit_test(test_bounce_groups_among_allowed),
		cmocka_unit_test(test_c2c_pairs_among_allowed),
		cmocka_unit_test(test_eviction_readers_among_allowed),
		cmocka_unit_test(test_default_cpu_is_allowed),
		cmocka_unit_test(test_this_machine_under_taskset),
		cmocka_unit_test(test_recorded_start_mask_wins),
	};

	return cmocka_run_group_tests_name("usable cpus", tests, NULL, NULL);
}
