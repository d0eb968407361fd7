// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs a run may choose from: a taskset is played by this test's own
 * affinity.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/affinity.h"
#include "lib/usable_cpus.h"
#include "topology_fixture.h"

#define MACHINE "pack:2 l3:2 core:2 pu:2"

static void assert_list(const struct cp_cpuset *set, const char *expected)
{
	char *text = cp_cpuset_format_alloc(set);

	assert_non_null(text);
	assert_string_equal(text, expected);
	free(text);
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
		cmocka_unit_test(test_synthetic_machine_is_all_usable),
		cmocka_unit_test(test_this_machine_under_taskset),
		cmocka_unit_test(test_recorded_start_mask_wins),
	};

	return cmocka_run_group_tests_name("usable cpus", tests, NULL, NULL);
}
