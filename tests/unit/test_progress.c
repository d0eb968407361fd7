// SPDX-License-Identifier: GPL-2.0
/* The progress line: what it says about the area and the time left, and
 * that it is silent when disabled (--quiet, or stderr not a terminal). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "cli/progress.h"
#include "capture.h"

/* What cli_progress_update prints for @done of @total, the area having
 * started 10 s ago (a quarter done in 10 s leaves about 30 s). */
static char *line_after_10_s(struct cli_progress *progress, double done,
			     double total)
{
	struct stderr_capture capture;

	progress->started.tv_sec -= 10;
	capture_stderr_begin(&capture);
	cli_progress_update(progress, "chase 4 MiB", done, total);
	return capture_stderr_end(&capture);
}

/* Enabled as on a terminal, whatever stderr is during the test. */
static void start(struct cli_progress *progress, size_t index, size_t count)
{
	cli_progress_init(progress, false);
	progress->enabled = true;
	progress->dumb = false;
	progress->columns = 120;
	cli_progress_area(progress, "latency", index, count);
}

/* A narrow terminal: the line is cut one short of its width, so the
 * cursor never wraps to a line that \r cannot reach. */
static void test_cut_to_the_width(void **state)
{
	struct cli_progress progress;
	char *line;

	(void)state;
	start(&progress, 0, 3);
	progress.columns = 30;
	line = line_after_10_s(&progress, 1, 4);
	assert_string_equal(line, "\r\033[K[ 25%] latency (area 1 of 3):");
	free(line);
}

/* TERM=dumb: no escape sequence; a shorter line is padded over the old
 * one, and clearing writes spaces. */
static void test_dumb_terminal(void **state)
{
	struct cli_progress progress;
	struct stderr_capture capture;
	char *line;

	(void)state;
	start(&progress, 0, 1);
	progress.dumb = true;
	line = line_after_10_s(&progress, 1, 4);
	assert_string_equal(line, "\r[ 25%] latency: chase 4 MiB, about 30 s left");
	free(line);
	line = line_after_10_s(&progress, 0, 4);
	assert_string_equal(line, "\r[  0%] latency: chase 4 MiB                 ");
	free(line);
	capture_stderr_begin(&capture);
	cli_progress_clear(&progress);
	line = capture_stderr_end(&capture);
	assert_null(strchr(line, '\033'));
	/* What is on screen now: the shorter line, then blanks. */
	assert_int_equal(strlen(line), 2 + strlen("[  0%] latency: chase 4 MiB"));
	free(line);
}

/* The only area: its time left is the run's. */
static void test_single_area(void **state)
{
	struct cli_progress progress;
	char *line;

	(void)state;
	start(&progress, 0, 1);
	line = line_after_10_s(&progress, 1, 4);
	assert_string_equal(line,
			    "\r\033[K[ 25%] latency: chase 4 MiB, about 30 s left");
	free(line);
}

/* Areas follow: the estimate says it is this area's. */
static void test_areas_to_come(void **state)
{
	struct cli_progress progress;
	char *line;

	(void)state;
	start(&progress, 0, 3);
	line = line_after_10_s(&progress, 1, 4);
	assert_string_equal(line,
			    "\r\033[K[ 25%] latency (area 1 of 3): chase 4 MiB, about 30 s left in this area");
	free(line);
	/* In the last area what is left of it is what is left of the run. */
	start(&progress, 2, 3);
	line = line_after_10_s(&progress, 1, 4);
	assert_string_equal(line,
			    "\r\033[K[ 25%] latency (area 3 of 3): chase 4 MiB, about 30 s left");
	free(line);
}

/* Nothing done yet: no estimate to extrapolate. */
static void test_no_estimate_at_the_start(void **state)
{
	struct cli_progress progress;
	char *line;

	(void)state;
	start(&progress, 1, 2);
	line = line_after_10_s(&progress, 0, 4);
	assert_string_equal(line,
			    "\r\033[K[  0%] latency (area 2 of 2): chase 4 MiB");
	free(line);
}

static void test_quiet_is_silent(void **state)
{
	struct cli_progress progress;
	char *line;

	(void)state;
	cli_progress_init(&progress, true);
	cli_progress_area(&progress, "latency", 0, 1);
	line = line_after_10_s(&progress, 1, 4);
	assert_string_equal(line, "");
	free(line);
	cli_progress_clear(&progress);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_area),
		cmocka_unit_test(test_areas_to_come),
		cmocka_unit_test(test_no_estimate_at_the_start),
		cmocka_unit_test(test_quiet_is_silent),
		cmocka_unit_test(test_cut_to_the_width),
		cmocka_unit_test(test_dumb_terminal),
	};

	return cmocka_run_group_tests_name("progress", tests, NULL, NULL);
}
