// SPDX-License-Identifier: GPL-2.0
/* Which CPUs the bounce threads get, on synthetic machines: the one of
 * test_cpu_select (2 packages x 4 L3 x 8 cores x 2 threads), one with L2s
 * shared by core pairs, and a 2-CPU single-L3 machine like the
 * development hosts. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "areas/bounce/bounce_groups.h"
#include "machine/cpu_select.h"
#include "topology_fixture.h"


/* The default groups of @threads on @machine, as "class:cpus" joined by
 * spaces, compared with @expected. */
static void assert_groups(const char *machine, unsigned int threads,
			  const char *expected)
{
	struct cp_topology *topology = load_synthetic(machine);
	struct cp_bounce_group groups[CP_NR_PAIR_CLASSES];
	char text[512] = "", cpus[128], why[160];
	size_t n;

	if (cp_bounce_plan_groups(topology, NULL, threads, groups, &n, why,
				  sizeof(why)))
		fail_msg("%s, %u threads: refused: %s", machine, threads, why);
	for (size_t i = 0; i < n; i++) {
		cp_bounce_group_format(&groups[i], cpus, sizeof(cpus));
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "%s%s:%s", i ? " " : "",
			 cp_pair_class_name(groups[i].pair_class), cpus);
	}
	assert_string_equal(text, expected);
	cp_topology_free(topology);
}

static void test_default_pairs(void **state)
{
	(void)state;
	assert_groups(BIG_MACHINE, 0,
		      "smt:0,1 shared-l3:0,2 same-package:0,16 cross-package:0,64");
	assert_groups(SHARED_L2_MACHINE, 2,
		      "smt:0,1 shared-l2:0,2 shared-l3:0,4 same-package:0,16 cross-package:0,64");
	assert_groups(SMALL_MACHINE, 0, "shared-l3:0,1");
}

static void test_more_threads(void **state)
{
	(void)state;
	/* SMT has only 2 siblings: no 4-thread group of that class. */
	assert_groups(BIG_MACHINE, 4,
		      "shared-l3:0,2-4 same-package:0,16-18 cross-package:0,64-66");
	assert_groups(SHARED_L2_MACHINE, 3,
		      "shared-l2:0,2,3 shared-l3:0,4,5 same-package:0,16,17 cross-package:0,64,65");
}

/* Three or more CPUs in a row are a range, in the group's order. */
static void test_group_format(void **state)
{
	struct cp_bounce_group group = { .nr_cpus = 16 };
	char text[64];

	(void)state;
	for (unsigned int i = 0; i < 16; i++)
		group.cpus[i] = i;
	assert_int_equal(cp_bounce_group_format(&group, text, sizeof(text)),
			 4);
	assert_string_equal(text, "0-15");
	group.nr_cpus = 6;
	group.cpus[0] = 7;
	group.cpus[1] = 1;
	group.cpus[2] = 2;
	group.cpus[3] = 4;
	group.cpus[4] = 5;
	group.cpus[5] = 6;
	cp_bounce_group_format(&group, text, sizeof(text));
	assert_string_equal(text, "7,1,2,4-6");
	/* snprintf-style: the length it needs, whatever fits. */
	assert_int_equal(cp_bounce_group_format(&group, text, 4), 9);
	assert_string_equal(text, "7,1");
}

static void assert_refused(const char *machine, const char *cpus_text,
			   unsigned int threads, const char *reason)
{
	struct cp_topology *topology = load_synthetic(machine);
	struct cp_bounce_group groups[CP_NR_PAIR_CLASSES];
	struct cp_cpuset *cpus = NULL;
	char why[160];
	size_t n = 99;

	if (cpus_text && cp_cpu_select(topology, cpus_text, false, &cpus, why,
				       sizeof(why)))
		fail_msg("'%s' refused by the selection: %s", cpus_text, why);
	assert_int_equal(cp_bounce_plan_groups(topology, cpus, threads, groups,
					       &n, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(n, 0);
	if (!strstr(why, reason))
		fail_msg("\"%s\" lacks \"%s\"", why, reason);
	cp_cpuset_free(cpus);
	cp_topology_free(topology);
}

static void test_refusals(void **state)
{
	(void)state;
	assert_refused(SMALL_MACHINE, NULL, 3,
		       "no CPU-pair class has 3 CPUs to run 3 threads on (this machine has 2 CPUs)");
	assert_refused(BIG_MACHINE, NULL, 1, "--threads 1 is not between 2 and 64");
	assert_refused(BIG_MACHINE, "5", 0,
		       "--cpus names 1 CPU; bouncing needs at least 2");
	assert_refused(BIG_MACHINE, "0,1,2", 2,
		       "--threads 2 but --cpus names 3 CPUs (one thread per CPU)");
}

static void test_chosen_cpus(void **state)
{
	struct cp_topology *topology = load_synthetic(BIG_MACHINE);
	struct cp_bounce_group groups[CP_NR_PAIR_CLASSES];
	struct cp_cpuset *cpus = NULL;
	char why[160];
	size_t n;

	(void)state;
	assert_int_equal(cp_cpu_select(topology, "0,1,16", false, &cpus, why,
				       sizeof(why)), 0);
	assert_int_equal(cp_bounce_plan_groups(topology, cpus, 0, groups, &n,
					       why, sizeof(why)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(groups[0].nr_cpus, 3);
	/* Classed by the widest relation among them. */
	assert_int_equal(groups[0].pair_class, CP_PAIR_SAME_PACKAGE);
	cp_cpuset_free(cpus);
	assert_int_equal(cp_cpu_select(topology, "2,3", false, &cpus, why,
				       sizeof(why)), 0);
	assert_int_equal(cp_bounce_plan_groups(topology, cpus, 2, groups, &n,
					       why, sizeof(why)), 0);
	assert_int_equal(groups[0].pair_class, CP_PAIR_SAME_CORE);
	cp_cpuset_free(cpus);
	cp_topology_free(topology);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_pairs),
		cmocka_unit_test(test_group_format),
		cmocka_unit_test(test_more_threads),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_chosen_cpus),
	};

	return cmocka_run_group_tests_name("bounce_groups", tests, NULL, NULL);
}
