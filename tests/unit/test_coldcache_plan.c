// SPDX-License-Identifier: GPL-2.0
/* The garbage-planned eviction plan on synthetic machines: domains,
 * readers, per-reader bytes and the bytes against the naive method. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "areas/coldcache/coldcache_choices.h"
#include "evict/coldcache_plan.h"
#include "topology_fixture.h"

#define MiB (1ull << 20)
#define KiB (1ull << 10)

static void plan(struct cp_topology *topology, double factor,
		 struct cp_eviction_plan *out)
{
	struct cp_error error;

	if (cp_plan_eviction(topology, NULL, factor, 0, out, &error))
		fail_msg("plan refused: %s", error.msg);
}

/* Slices follow one another without gap or overlap, within the total. */
static void assert_slices_disjoint(const struct cp_eviction_plan *p)
{
	uint64_t next = 0;

	for (size_t i = 0; i < p->nr_readers; i++) {
		assert_true(p->readers[i].offset == next);
		assert_true(p->readers[i].bytes % CP_PLAN_GRANULE == 0);
		next += p->readers[i].bytes;
	}
	assert_true(next == p->total_bytes);
}

/* 2 packages x 4 L3 (16 MiB each, hwloc's synthetic default) x 8 cores x
 * 2 threads, no private cache described: every CPU reads. */
static void test_big_machine_reads_an_eighth_or_less(void **state)
{
	struct cp_topology *topology = load_synthetic("pack:2 l3:4 core:8 pu:2");
	struct cp_eviction_plan p;

	(void)state;
	plan(topology, 2, &p);
	assert_int_equal(p.nr_domains, 8);
	assert_int_equal(p.nr_readers, 128);
	for (size_t d = 0; d < p.nr_domains; d++) {
		assert_int_equal(p.domains[d].nr_readers, 16);
		assert_true(p.domains[d].llc_bytes == 16 * MiB);
		/* Read: twice the 16 MiB L3, by 16 readers. */
		assert_true(p.domains[d].bytes == 32 * MiB);
	}
	/* 2 MiB read per reader: a 1 MiB slice read twice; with no private
	 * cache known, in chunks of an eighth of its 1 MiB share of the L3. */
	assert_true(p.readers[0].bytes == 1 * MiB);
	assert_true(p.readers[0].chunk_bytes == 128 * KiB);
	assert_true(p.total_bytes == 128 * MiB);
	assert_true(p.read_bytes == 256 * MiB);
	assert_true(p.naive_bytes == 128 * 64 * MiB);
	/* The target: at most 1/8 of the naive method's bytes (1/32 here). */
	assert_true(p.read_bytes * 8 <= p.naive_bytes);
	assert_slices_disjoint(&p);
	cp_plan_free(&p);
	/* At the default factor too: 512 MiB against 8 GiB, 1/16. */
	plan(topology, CP_COLD_DEFAULT_FACTOR, &p);
	assert_true(p.read_bytes == 8 * 16 * MiB * CP_COLD_DEFAULT_FACTOR);
	assert_true(p.read_bytes * 8 <= p.naive_bytes);
	cp_plan_free(&p);
	cp_topology_free(topology);
}

/* With L2s and L1s described, one reader per L2 (the outermost private
 * level), each reading at least twice its private caches. */
static void test_one_reader_per_private_cache(void **state)
{
	struct cp_topology *topology = load_synthetic(
		"pack:2 l3:2(size=32MiB) l2:4(size=2MiB) core:2 "
		"l1d:1(size=48KiB) pu:2");
	struct cp_eviction_plan p;

	(void)state;
	/* 2 x 2 L3, 4 L2 per L3, 2 cores per L2, 2 threads per core. */
	assert_int_equal(topology->nr_cpus, 64);
	plan(topology, 1, &p);
	assert_int_equal(p.nr_domains, 4);
	assert_int_equal(p.nr_readers, 16);
	for (size_t d = 0; d < p.nr_domains; d++)
		assert_int_equal(p.domains[d].nr_readers, 4);
	/* First CPU of each L2: 0, 4, 8, ... */
	for (size_t i = 0; i < p.nr_readers; i++)
		assert_int_equal(p.readers[i].cpu, 4 * i);
	/* The L2 and the L1d of one CPU of that L2. */
	assert_true(p.private_bytes == 2 * MiB + 48 * KiB);
	/* factor 2: 64 MiB / 4 readers = 16 MiB read, an 8 MiB slice read
	 * twice, above the floor of twice the private caches (4.1 MiB), in
	 * chunks of that floor. */
	cp_plan_free(&p);
	plan(topology, 2, &p);
	assert_true(p.readers[0].bytes == 8 * MiB);
	assert_true(p.readers[0].chunk_bytes == 2 * (2 * MiB + 48 * KiB));
	assert_true(p.total_bytes == 16 * 8 * MiB);
	assert_true(p.read_bytes == 4 * 64 * MiB);
	assert_true(p.read_bytes * 8 <= p.naive_bytes);
	assert_slices_disjoint(&p);
	cp_plan_free(&p);
	cp_topology_free(topology);
}

/* A small factor: the per-CPU floor (twice the private caches) wins. */
static void test_private_floor(void **state)
{
	struct cp_topology *topology = load_synthetic(
		"l3:1(size=8MiB) l2:2(size=2MiB) core:1 l1d:1(size=48KiB) pu:1");
	struct cp_eviction_plan p;

	(void)state;
	plan(topology, 0.25, &p);
	assert_int_equal(p.nr_readers, 2);
	/* 0.25 x 8 MiB / 2 = 1 MiB read, a 512 KiB slice: below the floor
	 * of 2 x (2 MiB + 48 KiB), which the slice and its chunk take. */
	assert_true(p.readers[0].bytes == 2 * (2 * MiB + 48 * KiB));
	assert_true(p.readers[0].chunk_bytes == p.readers[0].bytes);
	assert_true(p.total_bytes == 4 * (2 * MiB + 48 * KiB));
	assert_true(p.read_bytes == 2 * p.total_bytes);
	cp_plan_free(&p);
	cp_topology_free(topology);
}

/* Like the development machine: 2 CPUs under one L3. */
static void test_two_cpus_one_l3(void **state)
{
	struct cp_topology *topology = load_synthetic(
		"l3:1(size=260MiB) l2:2(size=2MiB) core:1 l1d:1(size=48KiB) pu:1");
	struct cp_eviction_plan p;

	(void)state;
	plan(topology, 2, &p);
	assert_int_equal(p.nr_domains, 1);
	assert_int_equal(p.nr_readers, 2);
	/* 520 MiB read: 260 MiB each, a 130 MiB slice read twice in
	 * chunks of twice the private caches. */
	assert_true(p.readers[0].bytes == 130 * MiB);
	assert_true(p.readers[0].chunk_bytes == 2 * (2 * MiB + 48 * KiB));
	assert_int_equal(p.readers[1].cpu, 1);
	assert_true(p.read_bytes == 520 * MiB);
	assert_true(p.naive_bytes == 128 * MiB);
	cp_plan_free(&p);
	cp_topology_free(topology);
}

/* A selection of CPUs: only their domains are planned. */
static void test_selected_cpus_only(void **state)
{
	struct cp_topology *topology = load_synthetic("pack:2 l3:4 core:8 pu:2");
	struct cp_cpuset *cpus = NULL;
	struct cp_eviction_plan p;
	struct cp_error error;
	char why[128];

	(void)state;
	assert_int_equal(cp_cpuset_parse("0-15,40", &cpus, why, sizeof(why)), 0);
	assert_int_equal(cp_plan_eviction(topology, cpus, 1, 0, &p, &error), 0);
	assert_int_equal(p.nr_domains, 2);
	assert_int_equal(p.domains[0].nr_readers, 16);
	assert_int_equal(p.domains[1].nr_readers, 1);
	assert_int_equal(p.readers[16].cpu, 40);
	/* The lone reader of the second domain reads 16 MiB: 8 twice. */
	assert_true(p.readers[16].bytes == 8 * MiB);
	assert_true(p.naive_bytes == 17 * 64 * MiB);
	cp_plan_free(&p);
	cp_cpuset_free(cpus);
	cp_topology_free(topology);
}

/* A measured capacity replaces the nominal one. */
static void test_llc_override(void **state)
{
	struct cp_topology *topology = load_synthetic("l3:1(size=260MiB) core:2 pu:1");
	struct cp_eviction_plan p;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_plan_eviction(topology, NULL, 2, 8 * MiB, &p,
					  &error), 0);
	assert_true(p.domains[0].llc_bytes == 8 * MiB);
	assert_true(p.read_bytes == 16 * MiB);
	assert_true(p.total_bytes == 8 * MiB);
	cp_plan_free(&p);
	cp_topology_free(topology);
}

static void test_bad_factor(void **state)
{
	struct cp_topology *topology = load_synthetic("l3:1 core:2 pu:1");
	struct cp_eviction_plan p;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_plan_eviction(topology, NULL, 0, 0, &p, &error),
			 -EINVAL);
	assert_non_null(strstr(error.msg, "factor"));
	cp_topology_free(topology);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_big_machine_reads_an_eighth_or_less),
		cmocka_unit_test(test_one_reader_per_private_cache),
		cmocka_unit_test(test_private_floor),
		cmocka_unit_test(test_two_cpus_one_l3),
		cmocka_unit_test(test_selected_cpus_only),
		cmocka_unit_test(test_llc_override),
		cmocka_unit_test(test_bad_factor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
