// SPDX-License-Identifier: GPL-2.0
/* The xcore plan: one pair per class plus the same-CPU and from-memory
 * baselines, named pairs, and the misuse it refuses (a pair on one CPU,
 * an unknown CPU, a block size that is no power of two). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "areas/xcore/xcore_area.h"
#include "topology_fixture.h"

static void test_classes_and_baselines(void **state)
{
	struct cp_topology *topology = load_synthetic(
		"pack:2 l3:2(size=32MiB) l2:2(size=2MiB) core:2 l1d:1(size=48KiB) pu:2");
	struct cp_area_options options = { 0 };
	struct xcore_plan plan;
	struct xcore_config config = { .size = 65536,
				       .touch = CP_XCORE_TOUCH_MODIFY };
	char why[160], name[64];

	(void)state;
	assert_int_equal(xcore_plan(&options, topology, &plan, why, sizeof(why)), 0);
	/* smt, shared-l2, shared-l3, same-package, cross-package. */
	assert_int_equal(plan.nr_targets, CP_NR_PAIR_CLASSES + 2);
	for (int c = 0; c < CP_NR_PAIR_CLASSES; c++) {
		assert_int_equal(plan.targets[c].kind, XCORE_PAIR);
		assert_int_equal(plan.targets[c].pair_class, c);
	}
	assert_int_equal(plan.targets[5].kind, XCORE_SAME_CPU);
	assert_int_equal(plan.targets[5].producer, plan.targets[0].producer);
	assert_int_equal(plan.targets[5].consumer, plan.targets[0].producer);
	assert_int_equal(plan.targets[6].kind, XCORE_MEMORY);
	/* 8 KiB up to the largest private cache: the L2 is shared by two
	 * cores here, so the L1d (48 KiB, rounded up to 64 KiB). */
	assert_int_equal(plan.sizes[0], 8192);
	assert_int_equal(plan.sizes[plan.nr_sizes - 1], 65536);
	config.target = &plan.targets[0];
	xcore_config_name(&config, name, sizeof(name));
	assert_string_equal(name, "modify smt 0>1 64 KiB");
	config.target = &plan.targets[6];
	config.delay = 8;
	xcore_config_name(&config, name, sizeof(name));
	assert_string_equal(name, "memory cpu 1 64 KiB delay 8");
	cp_topology_free(topology);
}

static void test_named_pairs_and_misuse(void **state)
{
	struct cp_topology *topology = load_synthetic("l3:1 core:4 pu:1");
	struct cp_xcore_choices choices = { .pairs = "2:3,3:0" };
	const void *by_area[CP_MAX_AREAS] = { 0 };
	struct cp_area_options options = { .choices = by_area };
	struct xcore_plan plan;
	char why[160];

	(void)state;
	by_area[cp_area_index(&cp_area_xcore)] = &choices;
	assert_int_equal(xcore_plan(&options, topology, &plan, why, sizeof(why)), 0);
	assert_int_equal(plan.nr_targets, 4);
	assert_int_equal(plan.targets[1].producer, 3);
	assert_int_equal(plan.targets[1].consumer, 0);
	choices.pairs = "1:1";
	assert_int_equal(xcore_plan(&options, topology, &plan, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "names CPU 1 twice"));
	choices.pairs = "1:9";
	assert_int_equal(xcore_plan(&options, topology, &plan, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "CPU 9 is not online"));
	choices.pairs = NULL;
	options.max_size_bytes = 96 << 10;
	assert_int_equal(xcore_plan(&options, topology, &plan, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "not a power of two"));
	cp_topology_free(topology);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes_and_baselines),
		cmocka_unit_test(test_named_pairs_and_misuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
