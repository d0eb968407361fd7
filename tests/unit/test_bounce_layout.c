// SPDX-License-Identifier: GPL-2.0
/* The bounce area's building blocks that need no second CPU: counter
 * layout, option lists and slowdown ratios (the granularity rule is in
 * test_bounce_granularity.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "areas/bounce/bounce_choices.h"
#include "areas/bounce/bounce_layout.h"
#include "areas/bounce/bounce_loop.h"
#include "areas/bounce/bounce_granularity.h"
#include "areas/bounce/bounce_run.h"

static void assert_layout(unsigned int threads, unsigned int width,
			  uint32_t distance)
{
	struct cp_bounce_layout layout;

	assert_int_equal(cp_bounce_layout_init(&layout, threads, width,
					       distance), 0);
	/* The first counter starts a page, so a line and a line pair. */
	assert_int_equal((uintptr_t)layout.block % CP_BOUNCE_BLOCK_ALIGN, 0);
	assert_ptr_equal(cp_bounce_counter(&layout, 0), layout.block);
	for (unsigned int k = 0; k < threads; k++) {
		unsigned char *counter = cp_bounce_counter(&layout, k);

		assert_int_equal(cp_bounce_counter_offset(&layout, k),
				 (size_t)k * distance);
		/* Really d bytes from the previous one, inside the block. */
		if (k)
			assert_int_equal(counter - (unsigned char *)
					 cp_bounce_counter(&layout, k - 1),
					 distance);
		assert_true(counter + width <= layout.block + layout.block_bytes);
		assert_int_equal(cp_bounce_counter_value(&layout, k), 0);
	}
	cp_bounce_layout_free(&layout);
}

static void test_layout_distances(void **state)
{
	static const uint32_t distances[] = {
		4, 8, 16, 32, 48, 56, 60, 64, 96, 128, 192, 256, 65536,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(distances) / sizeof(distances[0]); i++) {
		assert_layout(2, 4, distances[i]);
		assert_layout(4, 4, distances[i]);
		if (distances[i] % 8 == 0)
			assert_layout(3, 8, distances[i]);
	}
}

static void test_layout_lines(void **state)
{
	struct cp_bounce_layout layout;
	uintptr_t first, second;

	(void)state;
	/* 60 apart: both 4-byte counters in the first line. */
	assert_int_equal(cp_bounce_layout_init(&layout, 2, 4, 60), 0);
	first = (uintptr_t)cp_bounce_counter(&layout, 0);
	second = (uintptr_t)cp_bounce_counter(&layout, 1);
	assert_int_equal(first / 64, (second + 3) / 64);
	cp_bounce_layout_free(&layout);
	/* 64 apart: neighbouring lines of one 128-byte pair. */
	assert_int_equal(cp_bounce_layout_init(&layout, 2, 8, 64), 0);
	first = (uintptr_t)cp_bounce_counter(&layout, 0);
	second = (uintptr_t)cp_bounce_counter(&layout, 1);
	assert_int_equal(second / 64, first / 64 + 1);
	assert_int_equal(first / 128, second / 128);
	cp_bounce_layout_free(&layout);
}

/* A start inside the page moves every counter by it, the lines they
 * share unchanged; the block covers the last counter. */
static void test_layout_start(void **state)
{
	struct cp_bounce_layout layout;
	uintptr_t block, first, last;

	(void)state;
	assert_int_equal(cp_bounce_layout_init_at(&layout, 3, 8, 4096, 3968),
			 0);
	block = (uintptr_t)layout.block;
	first = (uintptr_t)cp_bounce_counter(&layout, 0);
	last = (uintptr_t)cp_bounce_counter(&layout, 2);
	assert_int_equal(block % CP_BOUNCE_BLOCK_ALIGN, 0);
	assert_int_equal(first - block, 3968);
	assert_int_equal(last - first, 8192);
	assert_true(last + 8 <= block + layout.block_bytes);
	cp_bounce_layout_free(&layout);
	assert_int_equal(cp_bounce_layout_init_at(&layout, 2, 4, 60, 128), 0);
	first = (uintptr_t)cp_bounce_counter(&layout, 0);
	assert_int_equal(first % 128, 0);
	assert_int_equal(first / 64,
			 ((uintptr_t)cp_bounce_counter(&layout, 1) + 3) / 64);
	cp_bounce_layout_free(&layout);
	/* Not on a line pair, or past the first page. */
	assert_int_equal(cp_bounce_layout_init_at(&layout, 2, 4, 4, 64),
			 -EINVAL);
	assert_int_equal(cp_bounce_layout_init_at(&layout, 2, 4, 4, 4096),
			 -EINVAL);
}

static void test_layout_shared_counter(void **state)
{
	struct cp_bounce_layout layout;

	(void)state;
	assert_int_equal(cp_bounce_layout_init(&layout, 4, 8, 0), 0);
	for (unsigned int k = 1; k < 4; k++)
		assert_ptr_equal(cp_bounce_counter(&layout, k),
				 cp_bounce_counter(&layout, 0));
	cp_bounce_layout_free(&layout);
}

static void test_layout_refusals(void **state)
{
	struct cp_bounce_layout layout;

	(void)state;
	/* Not a multiple of the width. */
	assert_int_equal(cp_bounce_layout_init(&layout, 2, 8, 4), -EINVAL);
	assert_int_equal(cp_bounce_layout_init(&layout, 2, 8, 60), -EINVAL);
	assert_int_equal(cp_bounce_layout_init(&layout, 2, 4, 6), -EINVAL);
	/* Above the maximum. */
	assert_int_equal(cp_bounce_layout_init(&layout, 2, 4,
					       CP_BOUNCE_MAX_DISTANCE + 4),
			 -EINVAL);
	/* No such width, no threads. */
	assert_int_equal(cp_bounce_layout_init(&layout, 2, 2, 4), -EINVAL);
	assert_int_equal(cp_bounce_layout_init(&layout, 0, 4, 4), -EINVAL);
}

/* Each loop does exactly @count increments of its own width. */
static void test_loops_count(void **state)
{
	uint64_t value = 0xffffffffull;
	uint32_t narrow = 0;

	(void)state;
	cp_bounce_loop(CP_BOUNCE_PLAIN, 4)(&narrow, 1000);
	assert_int_equal(narrow, 1000);
	cp_bounce_loop(CP_BOUNCE_ATOMIC, 4)(&narrow, 24);
	assert_int_equal(narrow, 1024);
	/* 8-byte adds carry past 32 bits. */
	cp_bounce_loop(CP_BOUNCE_PLAIN, 8)(&value, 1);
	assert_true(value == 0x100000000ull);
	cp_bounce_loop(CP_BOUNCE_ATOMIC, 8)(&value, 2);
	assert_true(value == 0x100000002ull);
	assert_null(cp_bounce_loop(CP_BOUNCE_PLAIN, 2));
}

static void assert_list_refused(int (*parse)(const char *,
					     struct cp_bounce_choices *,
					     char *, size_t),
				const char *text, const char *reason)
{
	struct cp_bounce_choices choices = { 0 };
	char why[160];

	assert_int_equal(parse(text, &choices, why, sizeof(why)), -EINVAL);
	if (!strstr(why, reason))
		fail_msg("'%s': \"%s\" lacks \"%s\"", text, why, reason);
}

static void test_choice_lists(void **state)
{
	struct cp_bounce_choices choices = { 0 };
	char why[160];

	(void)state;
	assert_int_equal(cp_bounce_parse_distances("0,4,65536", &choices, why,
						   sizeof(why)), 0);
	assert_int_equal(choices.nr_distances, 3);
	assert_int_equal(choices.distances[2], 65536);
	assert_int_equal(cp_bounce_parse_widths("8", &choices, why,
						sizeof(why)), 0);
	assert_int_equal(cp_bounce_parse_ops("atomic", &choices, why,
					     sizeof(why)), 0);
	assert_int_equal(choices.ops[0], CP_BOUNCE_ATOMIC);
	assert_list_refused(cp_bounce_parse_distances, "65540",
			    "above the maximum of 65536 bytes");
	assert_list_refused(cp_bounce_parse_distances, "4,,8", "empty item");
	assert_list_refused(cp_bounce_parse_distances, "4,4",
			    "distance 4 is listed twice");
	assert_list_refused(cp_bounce_parse_distances, "-4",
			    "'-4' is not a distance in bytes");
	assert_list_refused(cp_bounce_parse_distances, "", "empty list");
	assert_list_refused(cp_bounce_parse_widths, "2", "'2' is not a counter width");
	assert_list_refused(cp_bounce_parse_widths, "4,4", "listed twice");
	assert_list_refused(cp_bounce_parse_ops, "lock", "'lock' is not an increment kind");
}

static void test_choices_complete(void **state)
{
	struct cp_bounce_choices choices = { 0 };
	char why[160];

	(void)state;
	assert_int_equal(cp_bounce_choices_complete(&choices, why, sizeof(why)),
			 0);
	assert_int_equal(choices.nr_distances, 13);
	assert_int_equal(choices.nr_widths, 2);
	assert_int_equal(choices.nr_ops, 2);
	/* The default list applies per width: 60 only to 4-byte counters. */
	assert_true(cp_bounce_distance_fits(60, 4));
	assert_false(cp_bounce_distance_fits(60, 8));
	/* A chosen distance must suit every chosen width. */
	memset(&choices, 0, sizeof(choices));
	assert_int_equal(cp_bounce_parse_distances("0,12", &choices, why,
						   sizeof(why)), 0);
	assert_int_equal(cp_bounce_choices_complete(&choices, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why,
			    "distance 12 is not a multiple of the counter width 8");
	assert_int_equal(cp_bounce_parse_widths("4", &choices, why,
						sizeof(why)), 0);
	assert_int_equal(cp_bounce_choices_complete(&choices, why, sizeof(why)),
			 0);
}

static void test_ratio(void **state)
{
	const double slow[] = { 30, 31, 29, 30, 32 };
	const double fast[] = { 10, 10, 10, 11, 9 };
	const double zero[] = { 0, 0 };
	struct cp_ratio ratio;

	(void)state;
	assert_int_equal(cp_ratio_of_medians(slow, 5, fast, 5, &ratio), 0);
	assert_float_equal(ratio.value, 3.0, 1e-12);
	assert_true(ratio.low <= ratio.value && ratio.value <= ratio.high);
	assert_true(ratio.low >= 29.0 / 11 && ratio.high <= 32.0 / 9);
	assert_int_equal(cp_ratio_of_medians(slow, 5, zero, 2, &ratio), -EINVAL);
	assert_int_equal(cp_ratio_of_medians(slow, 0, fast, 5, &ratio), -EINVAL);
}

static void test_quiet_rounds(void **state)
{
	/* Undisturbed runs at 0.72-0.80 ticks, the host's slow spells at
	 * 1.0-3.3 (as measured on the development guest). */
	const double padded[] = { 0.74, 3.1, 0.72, 0.80, 1.00, 2.2, 0.83, 0.77 };

	(void)state;
	assert_float_equal(cp_bounce_fastest(padded, 8), 0.72, 1e-12);
	assert_float_equal(cp_bounce_fastest(padded, 0), 0, 1e-12);
	assert_true(cp_bounce_quiet(0.82, 0.72));
	assert_false(cp_bounce_quiet(0.83, 0.72));
	assert_false(cp_bounce_quiet(1.00, 0.72));
	assert_int_equal(cp_bounce_count_quiet(padded, 8), 4);
	/* Once a faster round arrives, slower ones may stop being quiet. */
	assert_int_equal(cp_bounce_count_quiet(padded + 3, 1), 1);
	assert_int_equal(cp_bounce_count_quiet(padded, 0), 0);
}

/* Run by run, the kept count agrees with a full recount, also when a
 * faster run turns earlier quiet ones disturbed. */
static void test_quiet_count_run_by_run(void **state)
{
	const double padded[] = { 0.9, 0.95, 3.1, 0.72, 0.80, 0.83, 0.70,
				  2.2, 0.81, 0.80, 0.70 };
	struct cp_bounce_quiet_count count = { 0 };
	size_t n = sizeof(padded) / sizeof(padded[0]);

	(void)state;
	for (size_t i = 1; i <= n; i++) {
		cp_bounce_quiet_add(&count, padded, i);
		assert_int_equal(count.quiet, cp_bounce_count_quiet(padded, i));
		assert_float_equal(count.fastest, cp_bounce_fastest(padded, i),
				   1e-12);
	}
	assert_int_equal(count.quiet, 5);
}

static void test_overlap(void **state)
{
	const uint64_t starts[] = { 0, 10 }, stops[] = { 100, 110 };
	const uint64_t apart_starts[] = { 0, 200 }, apart_stops[] = { 100, 300 };

	(void)state;
	assert_float_equal(cp_bounce_overlap(starts, stops, 2), 90.0 / 110,
			   1e-12);
	assert_float_equal(cp_bounce_overlap(apart_starts, apart_stops, 2), 0,
			   0);
	assert_float_equal(cp_bounce_overlap(starts, stops, 1), 1, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_distances),
		cmocka_unit_test(test_layout_lines),
		cmocka_unit_test(test_layout_start),
		cmocka_unit_test(test_layout_shared_counter),
		cmocka_unit_test(test_layout_refusals),
		cmocka_unit_test(test_loops_count),
		cmocka_unit_test(test_choice_lists),
		cmocka_unit_test(test_choices_complete),
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_quiet_rounds),
		cmocka_unit_test(test_quiet_count_run_by_run),
		cmocka_unit_test(test_overlap),
	};

	return cmocka_run_group_tests_name("bounce_layout", tests, NULL, NULL);
}
