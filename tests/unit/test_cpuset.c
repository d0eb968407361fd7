// SPDX-License-Identifier: GPL-2.0
/* CPU sets: bit operations, the list syntax and the ABI bitmap. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/cacheprobe.h>

#include "machine/cpuset.h"

static struct cp_cpuset *parse_ok(const char *text)
{
	struct cp_cpuset *set = NULL;
	char why[128];

	if (cp_cpuset_parse(text, &set, why, sizeof(why)) != 0)
		fail_msg("\"%s\" was rejected: %s", text, why);
	return set;
}

static void assert_formats_as(const struct cp_cpuset *set, const char *expected)
{
	char *text = cp_cpuset_format_alloc(set);

	assert_non_null(text);
	assert_string_equal(text, expected);
	free(text);
}

static void test_bits_and_capacity(void **state)
{
	struct cp_cpuset *set = cp_cpuset_new(130);

	(void)state;
	assert_null(cp_cpuset_new(0));
	assert_null(cp_cpuset_new(CACHEPROBE_MAX_CPUS + 1));
	assert_non_null(set);
	assert_int_equal(cp_cpuset_capacity(set), 130);
	assert_int_equal(cp_cpuset_count(set), 0);
	assert_int_equal(cp_cpuset_first(set), -1);
	assert_int_equal(cp_cpuset_set(set, 129), 0);
	assert_int_equal(cp_cpuset_set(set, 130), -ERANGE);
	assert_int_equal(cp_cpuset_set(set, 3), 0);
	assert_int_equal(cp_cpuset_set(set, 64), 0);
	assert_true(cp_cpuset_test(set, 3));
	assert_false(cp_cpuset_test(set, 4));
	assert_false(cp_cpuset_test(set, 5000));
	assert_int_equal(cp_cpuset_count(set), 3);
	assert_int_equal(cp_cpuset_first(set), 3);
	assert_int_equal(cp_cpuset_next(set, 3), 64);
	assert_int_equal(cp_cpuset_next(set, 64), 129);
	assert_int_equal(cp_cpuset_next(set, 129), -1);
	cp_cpuset_free(set);
}

static void test_equal_ignores_capacity(void **state)
{
	struct cp_cpuset *small = cp_cpuset_new(10);
	struct cp_cpuset *large = cp_cpuset_new(1000);
	struct cp_cpuset *copy;

	(void)state;
	cp_cpuset_set(small, 7);
	cp_cpuset_set(large, 7);
	assert_true(cp_cpuset_equal(small, large));
	cp_cpuset_set(large, 999);
	assert_false(cp_cpuset_equal(small, large));
	assert_false(cp_cpuset_equal(large, small));
	copy = cp_cpuset_clone(large);
	assert_true(cp_cpuset_equal(copy, large));
	cp_cpuset_free(copy);
	cp_cpuset_free(small);
	cp_cpuset_free(large);
}

static void test_parse_valid_lists(void **state)
{
	static const struct {
		const char *text;
		const char *formatted;
		unsigned int count;
	} cases[] = {
		{ "0", "0", 1 },
		{ "0,2-5", "0,2-5", 5 },
		{ "3,1", "1,3", 2 },
		{ "0-3,6", "0-3,6", 5 },
		{ "5-5", "5", 1 },
		{ "007", "7", 1 },
		{ "1,2,3", "1-3", 3 },
		{ "8191", "8191", 1 },
		{ "0-8191", "0-8191", 8192 },
		{ "63,64", "63-64", 2 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cp_cpuset *set = parse_ok(cases[i].text);

		assert_int_equal(cp_cpuset_count(set), cases[i].count);
		assert_formats_as(set, cases[i].formatted);
		cp_cpuset_free(set);
	}
}

static void test_parse_rejects_bad_input(void **state)
{
	static const struct {
		const char *text;
		const char *why;
	} cases[] = {
		{ "", "empty CPU list" },
		{ "a", "unexpected 'a' at character 1 (expected a CPU id)" },
		{ "1,", "CPU list ends where a CPU id was expected" },
		{ ",1", "unexpected ',' at character 1 (expected a CPU id)" },
		{ "1-", "CPU list ends where a CPU id was expected" },
		{ "-1", "unexpected '-' at character 1 (expected a CPU id)" },
		{ "+1", "unexpected '+' at character 1 (expected a CPU id)" },
		{ "1--2", "unexpected '-' at character 3 (expected a CPU id)" },
		{ "1-2-3", "unexpected '-' at character 4 (expected ',')" },
		{ "1x", "unexpected 'x' at character 2 (expected ',' or '-')" },
		{ "0x1", "unexpected 'x' at character 2 (expected ',' or '-')" },
		{ "1,,2", "unexpected ',' at character 3 (expected a CPU id)" },
		{ " 1", "unexpected space at character 1 (expected a CPU id)" },
		{ "1, 2", "unexpected space at character 3 (expected a CPU id)" },
		{ "1\t", "unexpected control character at character 2 "
			 "(expected ',' or '-')" },
		{ "5-2", "range 5-2 is reversed (write 2-5)" },
		{ "1,1", "CPU 1 is listed twice" },
		{ "0-3,2", "CPU 2 is listed twice" },
		{ "4,2-6", "CPU 4 is listed twice" },
		{ "8192", "CPU id 8192 is too large (the limit is 8191)" },
		{ "0-8192", "CPU id 8192 is too large (the limit is 8191)" },
		{ "99999999999999999999999",
		  "CPU id 99999999999999999999999 is too large "
		  "(the limit is 8191)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cp_cpuset *untouched = (struct cp_cpuset *)&cases[i];
		struct cp_cpuset *set = untouched;
		char why[128];

		assert_int_equal(cp_cpuset_parse(cases[i].text, &set, why,
						 sizeof(why)), -EINVAL);
		assert_string_equal(why, cases[i].why);
		assert_ptr_equal(set, untouched);
	}
}

static void test_parse_truncates_why(void **state)
{
	struct cp_cpuset *set = NULL;
	char why[8];

	(void)state;
	assert_int_equal(cp_cpuset_parse("5-2", &set, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "range 5");
}

/* A small deterministic generator, so a failure repeats. */
static uint32_t next_random(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 16;
}

static void test_format_round_trip(void **state)
{
	uint32_t seed = 42;

	(void)state;
	for (int round = 0; round < 300; round++) {
		struct cp_cpuset *set = cp_cpuset_new(300);
		struct cp_cpuset *parsed = NULL;
		char why[128];
		char *text;

		for (int i = 0; i < round % 40; i++)
			cp_cpuset_set(set, next_random(&seed) % 300);
		if (cp_cpuset_count(set) == 0)
			cp_cpuset_set(set, round % 300);
		text = cp_cpuset_format_alloc(set);
		assert_non_null(text);
		assert_int_equal(cp_cpuset_parse(text, &parsed, why,
						 sizeof(why)), 0);
		assert_true(cp_cpuset_equal(set, parsed));
		free(text);
		cp_cpuset_free(parsed);
		cp_cpuset_free(set);
	}
}

static void test_format_like_snprintf(void **state)
{
	struct cp_cpuset *set = parse_ok("0-3,6");
	struct cp_cpuset *empty = cp_cpuset_new(8);
	char small[4];

	(void)state;
	assert_int_equal(cp_cpuset_format(set, small, sizeof(small)), 5);
	assert_string_equal(small, "0-3");
	assert_int_equal(cp_cpuset_format(set, NULL, 0), 5);
	assert_int_equal(cp_cpuset_format(empty, small, sizeof(small)), 0);
	assert_string_equal(small, "");
	cp_cpuset_free(set);
	cp_cpuset_free(empty);
}

static void test_abi_bit_placement(void **state)
{
	struct cp_cpuset *set = parse_ok("0,63,64,8191");
	uint64_t words[CACHEPROBE_CPUMASK_MAX_BYTES / 8];

	(void)state;
	assert_int_equal(cp_cpuset_abi_words(set), 128);
	assert_int_equal(cp_cpuset_to_abi(set, words, 128), 0);
	assert_true(words[0] == (1ull | 1ull << 63));
	assert_true(words[1] == 1ull);
	for (size_t i = 2; i < 127; i++)
		assert_true(words[i] == 0);
	assert_true(words[127] == 1ull << 63);
	assert_int_equal(cp_cpuset_to_abi(set, words, 127), -ENOSPC);
	cp_cpuset_free(set);
}

static void test_abi_word_count(void **state)
{
	static const struct {
		const char *text;
		size_t words;
	} cases[] = {
		{ "0", 1 }, { "63", 1 }, { "64", 2 }, { "0-127", 2 },
		{ "128", 3 }, { "8191", 128 },
	};
	struct cp_cpuset *empty = cp_cpuset_new(CACHEPROBE_MAX_CPUS);

	(void)state;
	assert_int_equal(cp_cpuset_abi_words(empty), 0);
	cp_cpuset_free(empty);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cp_cpuset *set = parse_ok(cases[i].text);

		assert_int_equal(cp_cpuset_abi_words(set), cases[i].words);
		cp_cpuset_free(set);
	}
}

static void test_abi_to_fills_spare_words_with_zero(void **state)
{
	struct cp_cpuset *set = parse_ok("1");
	uint64_t words[3] = { ~0ull, ~0ull, ~0ull };

	(void)state;
	assert_int_equal(cp_cpuset_to_abi(set, words, 3), 0);
	assert_true(words[0] == 2 && words[1] == 0 && words[2] == 0);
	cp_cpuset_free(set);
}

static void test_abi_from_bitmap(void **state)
{
	/* Offset by 4 bytes: netlink attributes are only 4-byte aligned. */
	unsigned char buffer[4 + 16];
	uint64_t words[2] = { 1ull << 5 | 1ull << 63, 1ull << 0 };
	struct cp_cpuset *set = NULL;
	struct cp_cpuset *expected = parse_ok("5,63-64");

	(void)state;
	memcpy(buffer + 4, words, sizeof(words));
	assert_int_equal(cp_cpuset_from_abi(buffer + 4, 16, &set), 0);
	assert_int_equal(cp_cpuset_capacity(set), 128);
	assert_true(cp_cpuset_equal(set, expected));
	cp_cpuset_free(set);
	cp_cpuset_free(expected);
	set = NULL;
	assert_int_equal(cp_cpuset_from_abi(words, 0, &set), -EINVAL);
	assert_int_equal(cp_cpuset_from_abi(words, 12, &set), -EINVAL);
	assert_int_equal(cp_cpuset_from_abi(buffer, CACHEPROBE_CPUMASK_MAX_BYTES
					    + 8, &set), -EINVAL);
	assert_null(set);
}

static void test_abi_round_trip_at_the_limit(void **state)
{
	struct cp_cpuset *set = parse_ok("0-10,4000,8190-8191");
	uint64_t words[CACHEPROBE_CPUMASK_MAX_BYTES / 8];
	struct cp_cpuset *back = NULL;

	(void)state;
	assert_int_equal(cp_cpuset_to_abi(set, words, 128), 0);
	assert_int_equal(cp_cpuset_from_abi(words, sizeof(words), &back), 0);
	assert_true(cp_cpuset_equal(set, back));
	assert_formats_as(back, "0-10,4000,8190-8191");
	cp_cpuset_free(set);
	cp_cpuset_free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bits_and_capacity),
		cmocka_unit_test(test_equal_ignores_capacity),
		cmocka_unit_test(test_parse_valid_lists),
		cmocka_unit_test(test_parse_rejects_bad_input),
		cmocka_unit_test(test_parse_truncates_why),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_format_like_snprintf),
		cmocka_unit_test(test_abi_bit_placement),
		cmocka_unit_test(test_abi_word_count),
		cmocka_unit_test(test_abi_to_fills_spare_words_with_zero),
		cmocka_unit_test(test_abi_from_bitmap),
		cmocka_unit_test(test_abi_round_trip_at_the_limit),
	};

	return cmocka_run_group_tests_name("cpuset", tests, NULL, NULL);
}
