// SPDX-License-Identifier: GPL-2.0
/* The chase's choices: several independent cycles, the pages asked for and
 * read back, and the option texts that choose them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness/chase.h"
#include "areas/latency/latency_choices.h"
#include "harness/page_backing.h"
#include "harness/rng.h"

/* The length of the cycle through line @start, every line seen once. */
static size_t cycle_length(const size_t *next, bool *seen, size_t start)
{
	size_t position = start, steps = 0;

	do {
		assert_false(seen[position]);
		seen[position] = true;
		position = next[position];
		steps++;
	} while (position != start);
	return steps;
}

static size_t line_of(const struct cp_chase *chase, const void *address)
{
	return (size_t)((const char *)address - (const char *)chase->buffer) /
	       chase->line_size;
}

/* N chases: N disjoint cycles that share the lines evenly, each starting
 * where its position points, together covering every line. */
static void test_chases_are_disjoint_cycles(void **state)
{
	const unsigned int counts[] = { 1, 2, 3, 4, 7, 16 };

	(void)state;
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		const struct cp_chase_spec spec = {
			.bytes = 64 * 1000, .line_size = 64, .seed = 9,
			.pages = CP_PAGES_4K, .chases = counts[c],
		};
		struct cp_chase chase;
		size_t *next, covered = 0;
		bool *seen;

		assert_int_equal(cp_chase_build_spec(&chase, &spec), 0);
		next = calloc(chase.nr_lines, sizeof(*next));
		seen = calloc(chase.nr_lines, sizeof(*seen));
		assert_non_null(next);
		assert_non_null(seen);
		cp_chase_successors(&chase, next);
		for (unsigned int k = 0; k < counts[c]; k++) {
			size_t length = cycle_length(
				next, seen, line_of(&chase, chase.positions[k]));

			assert_in_range(length, 1000 / counts[c],
					1000 / counts[c] + 1);
			covered += length;
		}
		assert_int_equal(covered, chase.nr_lines);
		assert_int_equal(cp_chase_loads_per_iteration(&chase),
				 counts[c] == 1 ? CP_CHASE_HOPS_PER_ITERATION
						: cp_chase_loads_of(counts[c]));
		free(next);
		free(seen);
		cp_chase_free(&chase);
	}
}

/* The body moves every chase: after lines/N rounds each is back home. */
static void test_body_walks_every_chase(void **state)
{
	const struct cp_chase_spec spec = {
		.bytes = 64 * 1024, .line_size = 64, .seed = 5,
		.pages = CP_PAGES_2M, .chases = 4,
	};
	struct cp_chase chase;
	void *start[4];
	unsigned int rounds;

	(void)state;
	assert_int_equal(cp_chase_build_spec(&chase, &spec), 0);
	memcpy(start, chase.positions, sizeof(start));
	rounds = cp_chase_rounds_of(4);
	/* 256 lines per cycle, 4 rounds an iteration: 64 iterations. */
	cp_chase_body(&chase, 256 / rounds);
	assert_memory_equal(start, chase.positions, sizeof(start));
	cp_chase_body(&chase, 1);
	for (int k = 0; k < 4; k++)
		assert_ptr_not_equal(start[k], chase.positions[k]);
	cp_chase_free(&chase);
}

/* One chase of a seed is the order measure/rng.h gives that seed: the
 * module builds the same one. */
static void test_one_chase_follows_the_shared_order(void **state)
{
	struct cp_chase chase;
	uint32_t order[512];
	size_t *next = calloc(512, sizeof(*next));

	(void)state;
	assert_non_null(next);
	assert_int_equal(cp_chase_build(&chase, 64 * 512, 64, 77), 0);
	cp_rng_cycle(order, 512, 77);
	cp_chase_successors(&chase, next);
	for (size_t i = 0; i < 512; i++)
		assert_int_equal(next[order[i]], order[(i + 1) % 512]);
	assert_ptr_equal(chase.position,
			 (char *)chase.buffer + (size_t)order[0] * 64);
	free(next);
	cp_chase_free(&chase);
}

static void test_spec_refused(void **state)
{
	struct cp_chase_spec spec = {
		.bytes = 64 * 31, .line_size = 64, .chases = 16,
	};
	struct cp_chase chase;

	(void)state;
	/* Each chase needs two lines. */
	assert_int_equal(cp_chase_build_spec(&chase, &spec), -EINVAL);
	spec.bytes = 64 * 32;
	spec.chases = CP_CHASE_MAX_CHASES + 1;
	assert_int_equal(cp_chase_build_spec(&chase, &spec), -EINVAL);
	spec.chases = 16;
	assert_int_equal(cp_chase_build_spec(&chase, &spec), 0);
	cp_chase_free(&chase);
}

/* 4k is asked for with MADV_NOHUGEPAGE, so the kernel gives small pages
 * even with THP "always": read back, they are 4 KiB. */
static void test_small_pages_read_back(void **state)
{
	const struct cp_chase_spec spec = {
		.bytes = 8 << 20, .line_size = 64, .seed = 1,
		.pages = CP_PAGES_4K, .chases = 1,
	};
	struct cp_chase chase;

	(void)state;
	assert_int_equal(cp_chase_build_spec(&chase, &spec), 0);
	assert_int_equal(cp_chase_page_bytes(&chase), 4096);
	cp_chase_free(&chase);
}

static const char smaps[] =
	"7f0000000000-7f0000400000 rw-p 00000000 00:00 0 \n"
	"Size:               4096 kB\n"
	"KernelPageSize:        4 kB\n"
	"Rss:                4096 kB\n"
	"AnonHugePages:      4096 kB\n"
	"7f0000400000-7f0000800000 rw-p 00000000 00:00 0 \n"
	"Size:               4096 kB\n"
	"KernelPageSize:        4 kB\n"
	"Rss:                4096 kB\n"
	"AnonHugePages:      2048 kB\n"
	"7f0040000000-7f0080000000 rw-p 00000000 00:0f 1   /anon_hugepage (deleted)\n"
	"Size:            1048576 kB\n"
	"KernelPageSize:  1048576 kB\n"
	"Rss:                   0 kB\n"
	"AnonHugePages:         0 kB\n";

static void test_backing_parsed(void **state)
{
	(void)state;
	assert_int_equal(cp_page_backing_parse(smaps, (void *)0x7f0000001000),
			 2 << 20);
	/* Half in huge pages: the smallest page present counts. */
	assert_int_equal(cp_page_backing_parse(smaps, (void *)0x7f0000400000),
			 4096);
	assert_int_equal(cp_page_backing_parse(smaps, (void *)0x7f0050000000),
			 1 << 30);
	assert_int_equal(cp_page_backing_parse(smaps, (void *)0x1000), 0);
}

static void test_pages_parsed(void **state)
{
	struct cp_latency_choices choices = { 0 };
	char why[160];

	(void)state;
	assert_int_equal(cp_latency_parse_pages("4k,2M", &choices, why,
						sizeof(why)), 0);
	assert_int_equal(choices.nr_pages, 2);
	assert_int_equal(choices.pages[0], CP_PAGES_4K);
	assert_int_equal(choices.pages[1], CP_PAGES_2M);
	/* 4 KiB alone: the huge-page reference goes in front. */
	assert_int_equal(cp_latency_parse_pages("4k", &choices, why,
						sizeof(why)), 0);
	assert_int_equal(choices.nr_pages, 2);
	assert_int_equal(choices.pages[0], CP_PAGES_2M);
	assert_int_equal(choices.pages[1], CP_PAGES_4K);
	assert_int_equal(cp_latency_parse_pages("4k,1g", &choices, why,
						sizeof(why)), 0);
	assert_int_equal(choices.nr_pages, 2);
	assert_int_equal(cp_latency_parse_pages("4k,4k", &choices, why,
						sizeof(why)), -EINVAL);
	assert_string_equal(why, "'4k' named twice");
	assert_int_equal(cp_latency_parse_pages("8k", &choices, why,
						sizeof(why)), -EINVAL);
	assert_string_equal(why, "'8k' is not a page size (4k, 2m or 1g)");
	assert_int_equal(cp_latency_parse_pages("4k,", &choices, why,
						sizeof(why)), -EINVAL);
}

static void test_chases_parsed(void **state)
{
	struct cp_latency_choices choices = { 0 };
	char why[160];

	(void)state;
	assert_int_equal(cp_latency_parse_chases("8,2", &choices, why,
						 sizeof(why)), 0);
	assert_int_equal(choices.nr_chases, 3);
	assert_int_equal(choices.chases[0], 1);
	assert_int_equal(choices.chases[1], 2);
	assert_int_equal(choices.chases[2], 8);
	assert_int_equal(cp_latency_parse_chases("17", &choices, why,
						 sizeof(why)), -EINVAL);
	assert_string_equal(why,
			    "'17' is not a number of chases from 1 to 16");
	assert_int_equal(cp_latency_parse_chases("0", &choices, why,
						 sizeof(why)), -EINVAL);
	assert_int_equal(cp_latency_parse_chases("2x", &choices, why,
						 sizeof(why)), -EINVAL);
	assert_int_equal(cp_latency_parse_chases("2,2", &choices, why,
						 sizeof(why)), -EINVAL);
	assert_string_equal(why, "2 named twice");
	choices = cp_latency_choices_resolve(NULL);
	assert_int_equal(choices.nr_pages, 1);
	assert_int_equal(choices.pages[0], CP_PAGES_2M);
	assert_int_equal(choices.nr_chases, 1);
	assert_int_equal(choices.chases[0], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chases_are_disjoint_cycles),
		cmocka_unit_test(test_body_walks_every_chase),
		cmocka_unit_test(test_one_chase_follows_the_shared_order),
		cmocka_unit_test(test_spec_refused),
		cmocka_unit_test(test_small_pages_read_back),
		cmocka_unit_test(test_backing_parsed),
		cmocka_unit_test(test_pages_parsed),
		cmocka_unit_test(test_chases_parsed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
