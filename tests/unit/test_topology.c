// SPDX-License-Identifier: GPL-2.0
/* The hwloc-based topology summary, on synthetic machines and this one. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hwloc.h>

#include "machine/topology.h"
#include "topology_fixture.h"

static void assert_cpus(const struct cp_cpuset *set, const char *expected)
{
	char *text = cp_cpuset_format_alloc(set);

	assert_non_null(text);
	assert_string_equal(text, expected);
	free(text);
}

static void test_two_packages_of_four_l3(void **state)
{
	struct cp_topology *topology = load_synthetic("pack:2 l3:4 core:8 pu:2");
	const struct cp_cache_level *l3;
	char name[8];

	(void)state;
	assert_int_equal(topology->nr_packages, 2);
	assert_int_equal(topology->nr_numa_nodes, 1);
	assert_int_equal(topology->nr_cores, 64);
	assert_int_equal(topology->nr_cpus, 128);
	assert_int_equal(topology->min_threads_per_core, 2);
	assert_int_equal(topology->max_threads_per_core, 2);
	assert_cpus(topology->cpus, "0-127");
	assert_int_equal(topology->nr_cache_levels, 1);
	l3 = &topology->cache_levels[0];
	assert_string_equal(cp_cache_level_name(l3, name, sizeof(name)), "L3");
	assert_int_equal(l3->level, 3);
	assert_int_equal(l3->type, CP_CACHE_UNIFIED);
	assert_int_equal(l3->line_size, 64);
	assert_int_equal(l3->nr_instances, 8);
	for (size_t i = 0; i < l3->nr_instances; i++) {
		assert_int_equal(cp_cpuset_count(l3->instances[i].cpus), 16);
		assert_int_equal(cp_cpuset_first(l3->instances[i].cpus),
				 (int)(16 * i));
	}
	assert_cpus(l3->instances[7].cpus, "112-127");
	cp_topology_free(topology);
}

static void test_single_l3_two_cpus(void **state)
{
	struct cp_topology *topology = load_synthetic("l3:1 core:2 pu:1");
	const struct cp_cache_level *l3;

	(void)state;
	assert_int_equal(topology->nr_cores, 2);
	assert_int_equal(topology->nr_cpus, 2);
	assert_int_equal(topology->min_threads_per_core, 1);
	assert_int_equal(topology->max_threads_per_core, 1);
	assert_int_equal(topology->nr_cache_levels, 1);
	l3 = &topology->cache_levels[0];
	assert_int_equal(l3->nr_instances, 1);
	assert_cpus(l3->instances[0].cpus, "0-1");
	cp_topology_free(topology);
}

static void test_levels_in_order_with_sizes(void **state)
{
	struct cp_topology *topology = load_synthetic(
		"pack:1 l3:1(size=32MiB) l2:2(size=1MiB) core:2 "
		"l1d:1(size=48KiB) l1i:1(size=32KiB) pu:2");
	static const struct {
		const char *name;
		uint64_t size;
		size_t instances;
		const char *first_instance_cpus;
	} expected[] = {
		{ "L1d", 48 << 10, 4, "0-1" },
		{ "L1i", 32 << 10, 4, "0-1" },
		{ "L2", 1 << 20, 2, "0-3" },
		{ "L3", 32 << 20, 1, "0-7" },
	};

	(void)state;
	assert_int_equal(topology->nr_cpus, 8);
	assert_int_equal(topology->nr_cores, 4);
	assert_int_equal(topology->nr_cache_levels, 4);
	for (size_t i = 0; i < 4; i++) {
		const struct cp_cache_level *cache = &topology->cache_levels[i];
		char name[8];

		assert_string_equal(cp_cache_level_name(cache, name,
							sizeof(name)),
				    expected[i].name);
		assert_int_equal(cache->nr_instances, expected[i].instances);
		assert_true(cache->instances[0].size_bytes == expected[i].size);
		assert_cpus(cache->instances[0].cpus,
			    expected[i].first_instance_cpus);
	}
	assert_int_equal(topology->cache_levels[1].type, CP_CACHE_INSTRUCTION);
	assert_int_equal(topology->cache_levels[0].type, CP_CACHE_DATA);
	cp_topology_free(topology);
}

static void test_bad_synthetic_description(void **state)
{
	struct cp_topology_source source = {
		.kind = CP_TOPOLOGY_SYNTHETIC, .text = "nonsense:2",
	};
	struct cp_topology *topology = NULL;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_topology_load(&source, &topology, &error), -EINVAL);
	assert_int_equal(error.err, EINVAL);
	assert_string_equal(error.msg,
			    "invalid hwloc synthetic description \"nonsense:2\"");
	assert_null(topology);
}

/* An XML export of a synthetic machine, in an unnamed temporary file
 * reached through /dev/fd. */
static FILE *export_xml(const char *description)
{
	hwloc_topology_t hwloc;
	char *xml = NULL;
	int xml_len = 0;
	FILE *file = tmpfile();

	assert_non_null(file);
	assert_int_equal(hwloc_topology_init(&hwloc), 0);
	assert_int_equal(hwloc_topology_set_synthetic(hwloc, description), 0);
	assert_int_equal(hwloc_topology_load(hwloc), 0);
	assert_int_equal(hwloc_topology_export_xmlbuffer(hwloc, &xml, &xml_len,
							 0), 0);
	assert_int_equal(fwrite(xml, 1, (size_t)xml_len - 1, file),
			 (size_t)xml_len - 1);
	fflush(file);
	hwloc_free_xmlbuffer(hwloc, xml);
	hwloc_topology_destroy(hwloc);
	return file;
}

static void test_xml_source(void **state)
{
	FILE *file = export_xml("pack:2 core:3 pu:2");
	struct cp_topology_source source = { .kind = CP_TOPOLOGY_XML };
	struct cp_topology *topology = NULL;
	struct cp_error error;
	char path[64];

	(void)state;
	snprintf(path, sizeof(path), "/dev/fd/%d", fileno(file));
	source.text = path;
	if (cp_topology_load(&source, &topology, &error))
		fail_msg("cannot load the XML export: %s", error.msg);
	assert_int_equal(topology->nr_packages, 2);
	assert_int_equal(topology->nr_cores, 6);
	assert_int_equal(topology->nr_cpus, 12);
	cp_topology_free(topology);
	fclose(file);
}

static void test_missing_xml_file(void **state)
{
	struct cp_topology_source source = {
		.kind = CP_TOPOLOGY_XML, .text = "no-such-topology-file.xml",
	};
	struct cp_topology *topology = NULL;
	struct cp_error error;

	(void)state;
	assert_true(cp_topology_load(&source, &topology, &error) < 0);
	assert_non_null(strstr(error.msg, "no-such-topology-file.xml"));
	assert_null(topology);
}

/* This machine: nothing is known in advance, but the summary must agree
 * with itself. */
static void test_this_machine_is_consistent(void **state)
{
	struct cp_topology *topology = NULL;
	struct cp_error error;

	(void)state;
	if (cp_topology_load(NULL, &topology, &error))
		fail_msg("cannot read this machine: %s", error.msg);
	assert_true(topology->nr_cpus >= 1);
	assert_int_equal(cp_cpuset_count(topology->cpus), topology->nr_cpus);
	assert_true(topology->nr_cpus <= (unsigned int)sysconf(_SC_NPROCESSORS_CONF));
	for (size_t i = 0; i < topology->nr_cache_levels; i++) {
		const struct cp_cache_level *cache = &topology->cache_levels[i];
		int previous_first = -1;

		assert_true(cache->nr_instances >= 1);
		for (size_t j = 0; j < cache->nr_instances; j++) {
			const struct cp_cpuset *cpus = cache->instances[j].cpus;

			assert_true(cp_cpuset_first(cpus) > previous_first);
			previous_first = cp_cpuset_first(cpus);
			for (int cpu = cp_cpuset_first(cpus); cpu >= 0;
			     cpu = cp_cpuset_next(cpus, (unsigned int)cpu))
				assert_true(cp_cpuset_test(topology->cpus,
							   (unsigned int)cpu));
		}
	}
	cp_topology_free(topology);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_packages_of_four_l3),
		cmocka_unit_test(test_single_l3_two_cpus),
		cmocka_unit_test(test_levels_in_order_with_sizes),
		cmocka_unit_test(test_bad_synthetic_description),
		cmocka_unit_test(test_xml_source),
		cmocka_unit_test(test_missing_xml_file),
		cmocka_unit_test(test_this_machine_is_consistent),
	};

	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
