// SPDX-License-Identifier: GPL-2.0
/* Option values, error reports and exit codes of the CLI. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cli/cli_util.h"
#include "cli/size_option.h"
#include "util/parse_number.h"

static const struct cli_choice methods[] = {
	{ "wbinvd", 1 },
	{ "wbnoinvd", 2 },
};

static void test_u64_accepts_numbers_in_range(void **state)
{
	uint64_t value = 0;
	char why[128];

	(void)state;
	assert_int_equal(cp_parse_u64("0", 0, 10, &value, why, sizeof(why)), 0);
	assert_true(value == 0);
	assert_int_equal(cp_parse_u64("10", 0, 10, &value, why, sizeof(why)), 0);
	assert_true(value == 10);
	assert_int_equal(cp_parse_u64("007", 1, 10, &value, why, sizeof(why)), 0);
	assert_true(value == 7);
	assert_int_equal(cp_parse_u64("18446744073709551615", 0, UINT64_MAX,
				      &value, why, sizeof(why)), 0);
	assert_true(value == UINT64_MAX);
}

static void test_u64_rejects_bad_values(void **state)
{
	static const struct {
		const char *text;
		const char *why;
	} cases[] = {
		{ "", "empty value (expected a number)" },
		{ "-1", "'-1' is not a number (digits only)" },
		{ "+1", "'+1' is not a number (digits only)" },
		{ "1x", "'1x' is not a number (digits only)" },
		{ " 1", "' 1' is not a number (digits only)" },
		{ "0x10", "'0x10' is not a number (digits only)" },
		{ "11", "11 is out of range (1 to 10)" },
		{ "0", "0 is out of range (1 to 10)" },
		{ "18446744073709551616",
		  "18446744073709551616 is out of range (1 to 10)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t value = 99;
		char why[128];

		assert_int_equal(cp_parse_u64(cases[i].text, 1, 10, &value,
					      why, sizeof(why)), -EINVAL);
		assert_string_equal(why, cases[i].why);
		assert_true(value == 99);
	}
}

static void test_u64_overflow_is_out_of_range(void **state)
{
	uint64_t value = 0;
	char why[128];

	(void)state;
	assert_int_equal(cp_parse_u64("18446744073709551616", 0, UINT64_MAX,
				      &value, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "out of range"));
}

static void test_choice_by_exact_name(void **state)
{
	int value = 0;
	char why[128];

	(void)state;
	assert_int_equal(cli_parse_choice("wbnoinvd", methods, 2, &value, why,
					  sizeof(why)), 0);
	assert_int_equal(value, 2);
	assert_int_equal(cli_parse_choice("wbinvd", methods, 2, &value, why,
					  sizeof(why)), 0);
	assert_int_equal(value, 1);
}

static void test_choice_rejection_names_value_and_choices(void **state)
{
	static const char *const bad[] = { "WBINVD", "wb", "", "wbinvd " };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char why[128], expected[128];
		int value = 7;

		snprintf(expected, sizeof(expected),
			 "unknown value '%s' (valid: wbinvd, wbnoinvd)", bad[i]);
		assert_int_equal(cli_parse_choice(bad[i], methods, 2, &value,
						  why, sizeof(why)), -EINVAL);
		assert_string_equal(why, expected);
		assert_int_equal(value, 7);
	}
}

static void test_choice_name_and_list(void **state)
{
	char list[8];

	(void)state;
	assert_string_equal(cli_choice_name(methods, 2, 2), "wbnoinvd");
	assert_null(cli_choice_name(methods, 2, 3));
	assert_int_equal(cli_choice_list(methods, 2, list, sizeof(list)),
			 strlen("wbinvd, wbnoinvd"));
	assert_string_equal(list, "wbinvd,");
}

static void test_exit_status_for_errno(void **state)
{
	(void)state;
	assert_int_equal(cli_exit_status_for(EINVAL), CLI_EXIT_USAGE);
	assert_int_equal(cli_exit_status_for(EPERM), CLI_EXIT_FAILURE);
	assert_int_equal(cli_exit_status_for(ENOENT), CLI_EXIT_FAILURE);
	assert_int_equal(cli_exit_status_for(EOPNOTSUPP), CLI_EXIT_FAILURE);
	assert_int_equal(cli_exit_status_for(ENOMEM), CLI_EXIT_FAILURE);
}

static void test_report_error_format(void **state)
{
	struct cp_error error = { .err = EINVAL, .msg = "CPU 7 is not online" };
	struct stderr_capture capture;
	char *text;

	(void)state;
	capture_stderr_begin(&capture);
	cli_report_error("flush", &error);
	text = capture_stderr_end(&capture);
	assert_string_equal(text, "cacheprobe-run: flush: CPU 7 is not online "
			    "(EINVAL: Invalid argument)\n");
	free(text);
}

static void test_report_error_without_message(void **state)
{
	struct cp_error error = { .err = EOPNOTSUPP, .msg = "" };
	struct stderr_capture capture;
	char *text;

	(void)state;
	capture_stderr_begin(&capture);
	cli_report_error("flush", &error);
	text = capture_stderr_end(&capture);
	assert_string_equal(text, "cacheprobe-run: flush: Operation not "
			    "supported (EOPNOTSUPP: Operation not supported)\n");
	free(text);
}

static void test_option_errors(void **state)
{
	static const struct {
		int getopt_result;
		int optopt;
		const char *word;
		const char *expected;
	} cases[] = {
		{ '?', 0, "--bogus", "option '--bogus' is unknown" },
		{ '?', 0, "--bogus=1", "option '--bogus' is unknown" },
		{ '?', 'x', "-x", "option '-x' is unknown" },
		{ '?', 'x', "-hx", "option '-x' is unknown" },
		{ ':', 'c', "--cpus", "option '--cpus' needs a value" },
		{ ':', 'c', "-c", "option '-c' needs a value" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct stderr_capture capture;
		char expected[256];
		char *text;

		snprintf(expected, sizeof(expected),
			 "cacheprobe-run: flush: %s\n"
			 "Try 'cacheprobe-run flush --help'.\n",
			 cases[i].expected);
		capture_stderr_begin(&capture);
		assert_int_equal(cli_option_error("flush",
						  cases[i].getopt_result,
						  cases[i].optopt,
						  cases[i].word),
				 CLI_EXIT_USAGE);
		text = capture_stderr_end(&capture);
		assert_string_equal(text, expected);
		free(text);
	}
}

static void test_usage_error_without_command(void **state)
{
	struct stderr_capture capture;
	char *text;

	(void)state;
	capture_stderr_begin(&capture);
	assert_int_equal(cli_usage_error(NULL, "unknown command '%s'", "x"),
			 CLI_EXIT_USAGE);
	text = capture_stderr_end(&capture);
	assert_string_equal(text, "cacheprobe-run: unknown command 'x'\n"
			    "Try 'cacheprobe-run --help'.\n");
	free(text);
}

/* Sizes no machine has are refused, with the text as the user wrote it. */
static void test_size_beyond_memory(void **state)
{
	char why[160] = "";

	(void)state;
	assert_int_equal(cli_check_size_fits_memory(1ull << 20, "1M", why,
						     sizeof(why)), 0);
	assert_int_equal(cli_check_size_fits_memory(1ull << 60, "1073741824G",
						     why, sizeof(why)), -E2BIG);
	assert_non_null(strstr(why, "1073741824G is more than this machine's memory ("));
	assert_non_null(strstr(why, " GiB)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64_accepts_numbers_in_range),
		cmocka_unit_test(test_u64_rejects_bad_values),
		cmocka_unit_test(test_u64_overflow_is_out_of_range),
		cmocka_unit_test(test_choice_by_exact_name),
		cmocka_unit_test(test_choice_rejection_names_value_and_choices),
		cmocka_unit_test(test_choice_name_and_list),
		cmocka_unit_test(test_exit_status_for_errno),
		cmocka_unit_test(test_report_error_format),
		cmocka_unit_test(test_report_error_without_message),
		cmocka_unit_test(test_option_errors),
		cmocka_unit_test(test_usage_error_without_command),
		cmocka_unit_test(test_size_beyond_memory),
	};

	return cmocka_run_group_tests_name("cli_util", tests, NULL, NULL);
}
