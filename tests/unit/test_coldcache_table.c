// SPDX-License-Identifier: GPL-2.0
/* coldcache's console table: first passes under the line timer's floor
 * read "< floor", not a figure; the floor is the one of their mode. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "areas/coldcache/coldcache_table.h"
#include "areas/coldcache/coldcache_floor.h"
#include "results_fixture.h"

/* Steps of the timer's loop alone: p5 18 ns, p95 20 ns. */
static const double floor_ns[] = { 18, 18, 19, 19, 19, 19, 19, 20, 20, 20 };

static void add_pass(struct cp_results *results, const char *mode,
		     const char *name, double ns)
{
	const double samples[] = { ns, ns, ns };
	struct cp_measurement *m = fixture_area_measurement(
		results, "coldcache", mode, name, samples, 3);

	cp_measurement_add_param(m, "size_bytes", 24576);
	cp_measurement_add_param(m, "l1d_ppm", 1000000);
	cp_measurement_add_param(m, "memory_ppm", 0);
	cp_measurement_add_param(m, "cached_worst_ppm", 1000000);
}

static void test_floor_of_the_mode(void **state)
{
	struct cp_results results;

	(void)state;
	fixture_results(&results);
	assert_true(cp_coldcache_floor_ns(&results, "user") == 0);
	fixture_area_measurement(&results, "coldcache", "user",
				 "line timer floor", floor_ns, 10);
	assert_true(cp_coldcache_floor_ns(&results, "user") >= 1.9 &&
		    cp_coldcache_floor_ns(&results, "user") <= 2.1);
	assert_true(cp_coldcache_floor_ns(&results, "kernel") == 0);
	cp_results_free(&results);
}

static void test_pass_under_the_floor(void **state)
{
	struct cp_results results;
	struct text_capture capture;

	(void)state;
	fixture_results(&results);
	fixture_area_measurement(&results, "coldcache", "user",
				 "line timer floor", floor_ns, 10);
	add_pass(&results, "user", "warm 24 KiB first pass", 1.2);
	add_pass(&results, "user", "clflush 24 KiB first pass", 150);
	capture_text_begin(&capture);
	cli_print_coldcache(capture.stream, &results);
	capture_text_end(&capture);
	assert_non_null(strstr(capture.text, "< floor"));
	assert_null(strstr(capture.text, "1.2 ns"));
	assert_non_null(strstr(capture.text, "150 ns"));
	free(capture.text);
	cp_results_free(&results);
}

/* Kernel mode has no line timer floor: its figures are figures. */
static void test_no_floor_no_mark(void **state)
{
	struct cp_results results;
	struct text_capture capture;

	(void)state;
	fixture_results(&results);
	fixture_area_measurement(&results, "coldcache", "user",
				 "line timer floor", floor_ns, 10);
	add_pass(&results, "kernel", "warm 24 KiB first pass", 0.5);
	assert_false(cp_coldcache_under_floor(&results,
					      &results.measurements[1]));
	capture_text_begin(&capture);
	cli_print_coldcache(capture.stream, &results);
	capture_text_end(&capture);
	assert_null(strstr(capture.text, "< floor"));
	free(capture.text);
	cp_results_free(&results);
}

/* Kernel mode classifies warm's lines but not clflush's: the table shows
 * the levels of the first, a dash for the other. */
static void test_kernel_shares(void **state)
{
	struct cp_results results;
	struct text_capture capture;
	const double samples[] = { 40, 40, 40 };
	char *row, *end, *dashes;

	(void)state;
	fixture_results(&results);
	add_pass(&results, "kernel", "warm 24 KiB first pass", 0.5);
	fixture_area_measurement(&results, "coldcache", "kernel",
				 "clflush 24 KiB first pass", samples, 3);
	capture_text_begin(&capture);
	cli_print_coldcache(capture.stream, &results);
	capture_text_end(&capture);
	assert_non_null(strstr(capture.text, "pass; % of lines timed singly"));
	row = strstr(capture.text, "\n  warm 24 KiB");
	assert_non_null(row);
	assert_non_null(strstr(row, "100.0%"));
	row = strstr(capture.text, "\n  clflush 24 KiB");
	assert_non_null(row);
	end = strchr(row + 1, '\n');
	dashes = strstr(row, "      -      -");
	assert_true(end && dashes && dashes < end);
	free(capture.text);
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_floor_of_the_mode),
		cmocka_unit_test(test_pass_under_the_floor),
		cmocka_unit_test(test_no_floor_no_mark),
		cmocka_unit_test(test_kernel_shares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
