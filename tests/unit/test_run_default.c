// SPDX-License-Identifier: GPL-2.0
/* The default run (no area named): every area, the settings that keep it
 * short, and what the user set kept. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "areas/bounce/bounce_choices.h"
#include "areas/coldcache/coldcache_choices.h"
#include "cli/run_default.h"

/* Zeroed, with every area's choices at their defaults. */
static void start(struct run_options *options)
{
	memset(options, 0, sizeof(*options));
	assert_int_equal(run_options_alloc_choices(options), 0);
}

static struct cp_coldcache_choices *coldcache_of(struct run_options *options)
{
	return run_options_choices(options, &cp_area_coldcache);
}

static struct cp_bounce_choices *bounce_of(struct run_options *options)
{
	return run_options_choices(options, &cp_area_bounce);
}

static void test_default_run_settings(void **state)
{
	struct run_options options;

	(void)state;
	start(&options);
	run_default_apply(&options);
	assert_int_equal(options.nr_areas, cp_nr_areas);
	for (size_t i = 0; i < cp_nr_areas; i++)
		assert_ptr_equal(options.areas[i], cp_areas[i]);
	assert_int_equal(coldcache_of(&options)->repetitions, 5);
	assert_int_equal(options.default_max_cap, 64ull << 20);
	assert_int_equal(options.max_size, 0);
	assert_int_equal(bounce_of(&options)->nr_widths, 1);
	assert_int_equal(bounce_of(&options)->widths[0], 4);
	assert_string_equal(options.json_path, RUN_DEFAULT_JSON);
	assert_string_equal(options.report_path, RUN_DEFAULT_REPORT);
	assert_null(options.csv_path);
	run_options_free_choices(&options);
}

static void test_default_run_keeps_the_users_choices(void **state)
{
	struct run_options options;

	(void)state;
	start(&options);
	coldcache_of(&options)->repetitions = 7;
	bounce_of(&options)->distances_chosen = true;
	bounce_of(&options)->nr_distances = 1;
	bounce_of(&options)->distances[0] = 2;
	options.csv_path = "-";
	run_default_apply(&options);
	assert_int_equal(coldcache_of(&options)->repetitions, 7);
	/* Distance 2 allows no 4-byte counter: widths stay the area's. */
	assert_int_equal(bounce_of(&options)->nr_widths, 0);
	assert_null(options.json_path);
	assert_null(options.report_path);
	assert_string_equal(options.csv_path, "-");
	run_options_free_choices(&options);

	start(&options);
	bounce_of(&options)->nr_widths = 1;
	bounce_of(&options)->widths[0] = 8;
	run_default_apply(&options);
	assert_int_equal(bounce_of(&options)->widths[0], 8);
	run_options_free_choices(&options);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_run_settings),
		cmocka_unit_test(test_default_run_keeps_the_users_choices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
