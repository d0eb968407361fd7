// SPDX-License-Identifier: GPL-2.0
/* Walking option lists item by item, the decimal numbers in them, and
 * byte counts in measurement names. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/list_item.h"
#include "util/name_bytes.h"

static void test_items(void **state)
{
	const char *cursor = "4,,64";
	char item[4];
	bool too_long;

	(void)state;
	assert_true(cp_list_next(&cursor, item, sizeof(item), &too_long));
	assert_string_equal(item, "4");
	assert_false(too_long);
	assert_true(cp_list_next(&cursor, item, sizeof(item), &too_long));
	assert_string_equal(item, "");
	assert_true(cp_list_next(&cursor, item, sizeof(item), &too_long));
	assert_string_equal(item, "64");
	assert_false(cp_list_next(&cursor, item, sizeof(item), &too_long));
	cursor = "12345";
	assert_true(cp_list_next(&cursor, item, sizeof(item), &too_long));
	assert_true(too_long);
}

static void test_decimal(void **state)
{
	const char *text = "4096-8191";
	uint64_t value = 7;

	(void)state;
	assert_true(cp_parse_decimal(&text, 4096, &value));
	assert_int_equal(value, 4096);
	assert_string_equal(text, "-8191");
	/* No digit, or above the maximum: false, nothing moved. */
	assert_false(cp_parse_decimal(&text, 10000, &value));
	assert_string_equal(text, "-8191");
	text = "4097";
	assert_false(cp_parse_decimal(&text, 4096, &value));
	assert_string_equal(text, "4097");
	text = " 1";
	assert_false(cp_parse_decimal(&text, 10, &value));
	/* The largest value, and one digit more without wrapping. */
	text = "18446744073709551615";
	assert_true(cp_parse_decimal(&text, UINT64_MAX, &value));
	assert_true(value == UINT64_MAX);
	text = "18446744073709551616";
	assert_false(cp_parse_decimal(&text, UINT64_MAX, &value));
	text = "184467440737095516150";
	assert_false(cp_parse_decimal(&text, UINT64_MAX, &value));
}

static void test_name_bytes(void **state)
{
	const struct {
		uint64_t bytes;
		const char *name;
	} cases[] = {
		{ 0, "0 B" }, { 100, "100 B" }, { 24576, "24 KiB" },
		{ 1536 * 1024, "1536 KiB" }, { 1 << 20, "1 MiB" },
		{ 260ull << 20, "260 MiB" }, { 4ull << 30, "4 GiB" },
		{ 2048ull << 30, "2048 GiB" },
	};
	char name[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cp_name_bytes(cases[i].bytes, name, sizeof(name));
		assert_string_equal(name, cases[i].name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_items),
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_name_bytes),
	};

	return cmocka_run_group_tests_name("list_item", tests, NULL, NULL);
}
