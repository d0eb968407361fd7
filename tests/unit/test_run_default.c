// SPDX-License-Identifier: GPL-2.0
/* The default run (no area named): every area, the settings that keep it
 * short, and what the user set kept. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "cli/run_default.h"

static void test_default_run_settings(void **state)
{
	struct run_options options;

	(void)state;
	memset(&options, 0, sizeof(options));
	run_default_apply(&options);
	assert_int_equal(options.nr_areas, cp_nr_areas);
	for (size_t i = 0; i < cp_nr_areas; i++)
		assert_ptr_equal(options.areas[i], cp_areas[i]);
	assert_int_equal(options.coldcache.repetitions, 3);
	assert_int_equal(options.default_max_cap, 64ull << 20);
	assert_int_equal(options.max_size, 0);
	assert_int_equal(options.bounce.nr_widths, 1);
	assert_int_equal(options.bounce.widths[0], 4);
	assert_string_equal(options.json_path, RUN_DEFAULT_JSON);
	assert_string_equal(options.report_path, RUN_DEFAULT_REPORT);
	assert_null(options.csv_path);
}

static void test_default_run_keeps_the_users_choices(void **state)
{
	struct run_options options;

	(void)state;
	memset(&options, 0, sizeof(options));
	options.coldcache.repetitions = 7;
	options.bounce.distances_chosen = true;
	options.bounce.nr_distances = 1;
	options.bounce.distances[0] = 2;
	options.csv_path = "-";
	run_default_apply(&options);
	assert_int_equal(options.coldcache.repetitions, 7);
	/* Distance 2 allows no 4-byte counter: widths stay the area's. */
	assert_int_equal(options.bounce.nr_widths, 0);
	assert_null(options.json_path);
	assert_null(options.report_path);
	assert_string_equal(options.csv_path, "-");

	memset(&options, 0, sizeof(options));
	options.bounce.nr_widths = 1;
	options.bounce.widths[0] = 8;
	run_default_apply(&options);
	assert_int_equal(options.bounce.widths[0], 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_run_settings),
		cmocka_unit_test(test_default_run_keeps_the_users_choices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
