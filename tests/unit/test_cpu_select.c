// SPDX-License-Identifier: GPL-2.0
/* CPU selections and pair classes on synthetic machines: a 2-package x
 * 4-L3 x 8-core x 2-thread machine, the same with L2s shared by core
 * pairs, and a single-L3 machine of 2 CPUs (like the development hosts). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "machine/cpu_select.h"
#include "results_fixture.h"
#include "topology_fixture.h"


/* Select @text and compare with the list form @expected. */
static void assert_selects(const char *machine, const char *text,
			   bool allow_duplicates, const char *expected)
{
	struct cp_topology *topology = load_synthetic(machine);
	struct cp_cpuset *set = NULL;
	char why[256], *list;

	if (cp_cpu_select(topology, text, allow_duplicates, &set, why,
			  sizeof(why)))
		fail_msg("'%s' refused: %s", text, why);
	list = cp_cpuset_format_alloc(set);
	assert_string_equal(list, expected);
	free(list);
	cp_cpuset_free(set);
	cp_topology_free(topology);
}

static void assert_refused(const char *machine, const char *text,
			   const char *reason)
{
	struct cp_topology *topology = load_synthetic(machine);
	struct cp_cpuset *set = NULL;
	char why[256];

	assert_int_equal(cp_cpu_select(topology, text, false, &set, why,
				       sizeof(why)), -EINVAL);
	assert_null(set);
	if (!strstr(why, reason))
		fail_msg("'%s': reason \"%s\" lacks \"%s\"", text, why, reason);
	cp_topology_free(topology);
}

static void test_lists_and_ranges(void **state)
{
	(void)state;
	assert_selects(BIG_MACHINE, "0,2-5", false, "0,2-5");
	assert_selects(BIG_MACHINE, "127,0", false, "0,127");
	assert_selects(BIG_MACHINE, "all", false, "0-127");
	assert_selects(SMALL_MACHINE, "all", false, "0-1");
}

static void test_topology_picks(void **state)
{
	struct cp_topology *topology = load_synthetic(BIG_MACHINE);
	struct cp_cpuset *set = NULL;
	char why[256];

	(void)state;
	assert_selects(BIG_MACHINE, "per-l3", false, "0,16,32,48,64,80,96,112");
	assert_selects(BIG_MACHINE, "per-package", false, "0,64");
	assert_selects(BIG_MACHINE, "per-numa", false, "0");
	assert_selects(SHARED_L2_MACHINE, "per-l2", false,
		       "0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,96,100,104,108,112,116,120,124");
	assert_selects(BIG_MACHINE, "per-package,1", false, "0-1,64");
	assert_selects(SMALL_MACHINE, "per-core", false, "0-1");
	/* One per core: the even CPUs, the first thread of each. */
	assert_int_equal(cp_cpu_select(topology, "per-core", false, &set, why,
				       sizeof(why)), 0);
	assert_int_equal(cp_cpuset_count(set), 64);
	for (int cpu = cp_cpuset_first(set); cpu >= 0;
	     cpu = cp_cpuset_next(set, (unsigned int)cpu))
		assert_int_equal(cpu % 2, 0);
	cp_cpuset_free(set);
	cp_topology_free(topology);
}

static void test_duplicates(void **state)
{
	(void)state;
	assert_refused(BIG_MACHINE, "1,0-2", "CPU 1 is selected twice");
	/* What picks bring again is merged, with each other and with CPUs
	 * named by number; only a number named twice is refused. */
	assert_selects(BIG_MACHINE, "per-l3,16", false,
		       "0,16,32,48,64,80,96,112");
	assert_selects(BIG_MACHINE, "per-core,per-l3,all", false, "0-127");
	assert_selects(BIG_MACHINE, "1,0-2", true, "0-2");
	assert_selects(BIG_MACHINE, "per-l3,16", true,
		       "0,16,32,48,64,80,96,112");
}

static void test_invalid_selections(void **state)
{
	(void)state;
	assert_refused(BIG_MACHINE, "128", "CPU 128 does not exist (online CPUs: 0-127)");
	assert_refused(SMALL_MACHINE, "0-2", "CPU 2 does not exist (online CPUs: 0-1)");
	assert_refused(BIG_MACHINE, "5-2", "range 5-2 is reversed");
	assert_refused(BIG_MACHINE, "", "empty CPU selection");
	assert_refused(BIG_MACHINE, "0,,1", "empty item");
	assert_refused(BIG_MACHINE, "per-socket", "'per-socket' is not a CPU, range or pick");
	assert_refused(BIG_MACHINE, " 1", "is not a CPU, range or pick");
	assert_refused(BIG_MACHINE, "1-", "'1-' is not a CPU");
	assert_refused(BIG_MACHINE, "99999999999999999999", "beyond the limit");
	assert_refused(BIG_MACHINE, "per-l2", "shows no L2 caches");
}

/* Four CPUs of which 2 and 3 are offline: in the complete set only. */
static const char offline_xml[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
	"<topology version=\"2.0\">\n"
	" <object type=\"Machine\" os_index=\"0\" cpuset=\"0x3\" complete_cpuset=\"0xf\" allowed_cpuset=\"0x3\" nodeset=\"0x1\" complete_nodeset=\"0x1\" allowed_nodeset=\"0x1\" gp_index=\"1\">\n"
	"  <object type=\"L3Cache\" cpuset=\"0x3\" complete_cpuset=\"0xf\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"10\" cache_size=\"16777216\" depth=\"3\" cache_linesize=\"64\" cache_associativity=\"0\" cache_type=\"0\">\n"
	"   <object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x3\" complete_cpuset=\"0xf\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"11\" local_memory=\"1073741824\"/>\n"
	"   <object type=\"Core\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"3\">\n"
	"    <object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"2\"/>\n"
	"   </object>\n"
	"   <object type=\"Core\" os_index=\"1\" cpuset=\"0x2\" complete_cpuset=\"0x2\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"5\">\n"
	"    <object type=\"PU\" os_index=\"1\" cpuset=\"0x2\" complete_cpuset=\"0x2\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"4\"/>\n"
	"   </object>\n"
	"  </object>\n"
	" </object>\n"
	"</topology>\n";

static void test_offline_cpus(void **state)
{
	char directory[512], path[600], why[128];
	struct cp_topology_source source = { .kind = CP_TOPOLOGY_XML };
	struct cp_topology *topology = NULL;
	struct cp_cpuset *set = NULL;
	struct cp_error error;
	FILE *file;

	(void)state;
	fixture_temporary_directory(directory, sizeof(directory));
	snprintf(path, sizeof(path), "%s/offline.xml", directory);
	file = fopen(path, "w");
	assert_non_null(file);
	fputs(offline_xml, file);
	fclose(file);
	source.text = path;
	if (cp_topology_load(&source, &topology, &error))
		fail_msg("cannot load the XML: %s", error.msg);
	assert_int_equal(cp_cpu_select(topology, "0-2", false, &set, why,
				       sizeof(why)), -EINVAL);
	assert_string_equal(why, "CPU 2 is offline (online CPUs: 0-1)");
	assert_int_equal(cp_cpu_select(topology, "7", false, &set, why,
				       sizeof(why)), -EINVAL);
	assert_string_equal(why, "CPU 7 does not exist (online CPUs: 0-1)");
	assert_int_equal(cp_cpu_select(topology, "all", false, &set, why,
				       sizeof(why)), 0);
	assert_int_equal(cp_cpuset_count(set), 2);
	cp_cpuset_free(set);
	cp_topology_free(topology);
	unlink(path);
	rmdir(directory);
}

static void assert_class(const struct cp_topology *topology, unsigned int a,
			 unsigned int b, enum cp_pair_class expected)
{
	enum cp_pair_class actual = cp_pair_class_of(topology, a, b);

	if (actual != expected)
		fail_msg("%u:%u is %s, not %s", a, b, cp_pair_class_name(actual),
			 cp_pair_class_name(expected));
}

static void test_pair_classes_big_machine(void **state)
{
	struct cp_topology *topology = load_synthetic(BIG_MACHINE);

	(void)state;
	assert_class(topology, 0, 1, CP_PAIR_SAME_CORE);
	assert_class(topology, 126, 127, CP_PAIR_SAME_CORE);
	assert_class(topology, 0, 2, CP_PAIR_SHARED_L3);
	assert_class(topology, 1, 15, CP_PAIR_SHARED_L3);
	assert_class(topology, 15, 16, CP_PAIR_SAME_PACKAGE);
	assert_class(topology, 0, 63, CP_PAIR_SAME_PACKAGE);
	assert_class(topology, 63, 64, CP_PAIR_DIFFERENT_PACKAGE);
	assert_class(topology, 127, 0, CP_PAIR_DIFFERENT_PACKAGE);
	assert_class(topology, 5, 5, CP_PAIR_INVALID);
	assert_class(topology, 0, 128, CP_PAIR_INVALID);
	cp_topology_free(topology);
}

static void test_pair_classes_shared_l2(void **state)
{
	struct cp_topology *topology = load_synthetic(SHARED_L2_MACHINE);

	(void)state;
	assert_class(topology, 0, 1, CP_PAIR_SAME_CORE);
	assert_class(topology, 0, 2, CP_PAIR_SHARED_L2);
	assert_class(topology, 3, 4, CP_PAIR_SHARED_L3);
	assert_class(topology, 0, 16, CP_PAIR_SAME_PACKAGE);
	cp_topology_free(topology);
}

static void test_representative_pairs(void **state)
{
	struct cp_topology *big = load_synthetic(BIG_MACHINE);
	struct cp_topology *small = load_synthetic(SMALL_MACHINE);
	struct cp_cpu_pair pairs[CP_NR_PAIR_CLASSES];
	struct cp_cpuset *subset = NULL;
	char why[128];

	(void)state;
	assert_int_equal(cp_pair_representatives(big, NULL, pairs), 4);
	assert_int_equal(pairs[0].pair_class, CP_PAIR_SAME_CORE);
	assert_int_equal(pairs[0].first, 0);
	assert_int_equal(pairs[0].second, 1);
	assert_int_equal(pairs[1].pair_class, CP_PAIR_SHARED_L3);
	assert_int_equal(pairs[1].second, 2);
	assert_int_equal(pairs[2].pair_class, CP_PAIR_SAME_PACKAGE);
	assert_int_equal(pairs[2].second, 16);
	assert_int_equal(pairs[3].pair_class, CP_PAIR_DIFFERENT_PACKAGE);
	assert_int_equal(pairs[3].second, 64);
	/* Within a selection: one CPU per L3 leaves two classes. */
	assert_int_equal(cp_cpu_select(big, "per-l3", false, &subset, why,
				       sizeof(why)), 0);
	assert_int_equal(cp_pair_representatives(big, subset, pairs), 2);
	assert_int_equal(pairs[0].pair_class, CP_PAIR_SAME_PACKAGE);
	assert_int_equal(pairs[0].second, 16);
	assert_int_equal(pairs[1].pair_class, CP_PAIR_DIFFERENT_PACKAGE);
	assert_int_equal(cp_pair_representatives(small, NULL, pairs), 1);
	assert_int_equal(pairs[0].pair_class, CP_PAIR_SHARED_L3);
	cp_cpuset_free(subset);
	cp_topology_free(big);
	cp_topology_free(small);
}

static void test_pair_selection(void **state)
{
	struct cp_topology *big = load_synthetic(BIG_MACHINE);
	struct cp_cpu_pair pairs[8];
	size_t count;
	char why[128];

	(void)state;
	assert_int_equal(cp_pair_select(big, "classes", pairs, 8, &count, why,
					sizeof(why)), 0);
	assert_int_equal(count, 4);
	assert_int_equal(cp_pair_select(big, "0:1,0:64", pairs, 8, &count, why,
					sizeof(why)), 0);
	assert_int_equal(count, 2);
	assert_int_equal(pairs[1].pair_class, CP_PAIR_DIFFERENT_PACKAGE);
	assert_int_equal(cp_pair_select(big, "3:3", pairs, 8, &count, why,
					sizeof(why)), -EINVAL);
	assert_string_equal(why, "pair 3:3 names CPU 3 twice");
	assert_int_equal(cp_pair_select(big, "0:200", pairs, 8, &count, why,
					sizeof(why)), -EINVAL);
	assert_string_equal(why, "pair 0:200: CPU 200 is not online");
	assert_int_equal(cp_pair_select(big, "0-1", pairs, 8, &count, why,
					sizeof(why)), -EINVAL);
	assert_string_equal(why, "'0-1' is not a pair A:B (or write 'classes')");
	/* A pair twice would be measured twice under one name. */
	assert_int_equal(cp_pair_select(big, "0:1,0:64,0:1", pairs, 8, &count,
					why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "pair 0:1 is listed twice");
	/* The other direction is another measurement. */
	assert_int_equal(cp_pair_select(big, "0:1,1:0", pairs, 8, &count, why,
					sizeof(why)), 0);
	assert_int_equal(count, 2);
	assert_int_equal(pairs[1].first, 1);
	cp_topology_free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists_and_ranges),
		cmocka_unit_test(test_topology_picks),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_invalid_selections),
		cmocka_unit_test(test_offline_cpus),
		cmocka_unit_test(test_pair_classes_big_machine),
		cmocka_unit_test(test_pair_classes_shared_l2),
		cmocka_unit_test(test_representative_pairs),
		cmocka_unit_test(test_pair_selection),
	};

	return cmocka_run_group_tests_name("cpu_select", tests, NULL, NULL);
}
