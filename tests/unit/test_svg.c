// SPDX-License-Identifier: GPL-2.0
/* The SVG chart writer of the HTML report: escaping, axis ticks, charts
 * without data, intervals and markers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "report/html_text.h"
#include "report/svg_axis.h"
#include "report/svg_chart.h"

static size_t count_of(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *at = strstr(text, what); at;
	     at = strstr(at + 1, what))
		n++;
	return n;
}

static void test_escape_every_special_character(void **state)
{
	struct text_capture capture;

	(void)state;
	capture_text_begin(&capture);
	html_escape(capture.stream, "a<b>&\"c\"'d'");
	html_printf(capture.stream, "|%s|", "<script>");
	capture_text_end(&capture);
	assert_string_equal(capture.text,
			    "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;|&lt;script&gt;|");
	free(capture.text);
}

static void test_escape_long_printf(void **state)
{
	struct text_capture capture;
	char long_text[1000];

	(void)state;
	memset(long_text, 'x', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = '\0';
	long_text[500] = '<';
	capture_text_begin(&capture);
	html_printf(capture.stream, "%s", long_text);
	capture_text_end(&capture);
	assert_int_equal(strlen(capture.text), 999 - 1 + strlen("&lt;"));
	assert_non_null(strstr(capture.text, "&lt;"));
	free(capture.text);
}

/* A chart's title and series names are text from the results. */
static void test_chart_text_is_escaped(void **state)
{
	const double x[] = { 1, 2 }, y[] = { 3, 4 };
	struct svg_series series = { .name = "<b>&amp", .n = 2, .x = x,
				     .y = y };
	struct svg_line_chart chart = {
		.title = "a < b", .x = { .label = "x \"in\" units" },
		.y = { .label = "y" }, .nr_series = 1, .series = &series,
	};
	struct text_capture capture;

	(void)state;
	capture_text_begin(&capture);
	svg_line_chart_write(capture.stream, &chart);
	capture_text_end(&capture);
	assert_null(strstr(capture.text, "<b>"));
	assert_null(strstr(capture.text, "a < b"));
	assert_non_null(strstr(capture.text, "&lt;b&gt;&amp;amp"));
	assert_non_null(strstr(capture.text, "x &quot;in&quot; units"));
	free(capture.text);
}

static void test_log_ticks_bytes_are_powers_of_two(void **state)
{
	struct svg_axis axis = { .log = true, .format = SVG_FORMAT_BYTES };
	struct svg_ticks ticks;
	double min, max;
	char label[32];

	(void)state;
	svg_axis_range(&axis, 4096, 256.0 * 1024 * 1024, &min, &max, &ticks);
	assert_true(min == 4096);
	assert_true(max == 256.0 * 1024 * 1024);
	/* 2^12..2^28: 17 powers, thinned to every second one. */
	assert_int_equal(ticks.n, 9);
	for (size_t i = 0; i < ticks.n; i++)
		assert_true(ticks.at[i] == pow(2, 12 + 2 * (double)i));
	svg_format_value(SVG_FORMAT_BYTES, ticks.at[0], label, sizeof(label));
	assert_string_equal(label, "4 KiB");
	svg_format_value(SVG_FORMAT_BYTES, ticks.at[ticks.n - 1], label,
			 sizeof(label));
	assert_string_equal(label, "256 MiB");
}

static void test_log_ticks_decades(void **state)
{
	struct svg_axis axis = { .log = true, .format = SVG_FORMAT_NS };
	struct svg_ticks ticks;
	double min, max;
	char label[32];

	(void)state;
	svg_axis_range(&axis, 1.6, 150, &min, &max, &ticks);
	assert_true(min == 1);
	assert_true(max == 1000);
	assert_int_equal(ticks.n, 4);
	assert_true(fabs(ticks.at[2] - 100) < 1e-9);
	svg_format_value(SVG_FORMAT_NS, ticks.at[3], label, sizeof(label));
	assert_string_equal(label, "1 us");
	/* Within one decade: 1-2-5 ticks so the axis can be read. */
	svg_axis_range(&axis, 12, 80, &min, &max, &ticks);
	assert_int_equal(ticks.n, 4);
	assert_true(ticks.at[0] == 10 && ticks.at[3] == 100);
	assert_true(fabs(ticks.at[1] - 20) < 1e-9);
}

static void test_linear_ticks_are_round(void **state)
{
	struct svg_axis axis = { .from_zero = true };
	struct svg_ticks ticks;
	double min, max;

	(void)state;
	svg_axis_range(&axis, 0.3, 5.4, &min, &max, &ticks);
	assert_true(min == 0);
	assert_true(max == 6);
	assert_int_equal(ticks.n, 7);
	assert_true(ticks.at[3] == 3);
	/* One value only: still a range, around it. */
	axis.from_zero = false;
	svg_axis_range(&axis, 5, 5, &min, &max, &ticks);
	assert_true(min < 5 && max > 5);
}

static void test_empty_charts_say_no_data(void **state)
{
	const double nan_values[] = { NAN, -1 };
	const double x[] = { 1, 2 };
	struct svg_series series = { .name = "s", .n = 2, .x = x,
				     .y = nan_values };
	struct svg_line_chart line = {
		.title = "line", .x = { .label = "x" },
		.y = { .label = "y", .log = true },	/* -1: not on a log axis */
		.nr_series = 1, .series = &series,
	};
	struct svg_bar_chart bars = { .title = "bars", .y = { .label = "y" } };
	struct svg_heatmap heatmap = { .title = "heat" };
	struct text_capture capture;

	(void)state;
	capture_text_begin(&capture);
	svg_line_chart_write(capture.stream, &line);
	svg_bar_chart_write(capture.stream, &bars);
	svg_heatmap_write(capture.stream, &heatmap);
	capture_text_end(&capture);
	assert_int_equal(count_of(capture.text, "<svg "), 3);
	assert_int_equal(count_of(capture.text, "</svg>"), 3);
	assert_int_equal(count_of(capture.text, ">no data<"), 3);
	assert_null(strstr(capture.text, "nan"));
	assert_null(strstr(capture.text, "inf"));
	assert_null(strstr(capture.text, "<circle"));
	free(capture.text);
}

static void test_line_with_intervals_gaps_and_markers(void **state)
{
	const double x[] = { 4096, 8192, 16384, 32768 };
	const double y[] = { 1.5, NAN, 5, 40 };
	const double low[] = { 1.4, NAN, NAN, 35 }, high[] = { 1.6, NAN, NAN, 45 };
	const struct svg_series series = { .name = "median", .n = 4, .x = x,
					   .y = y, .y_low = low,
					   .y_high = high };
	const struct svg_marker markers[] = { { 16384, "L1d 16 KiB" },
					      { 1 << 30, "outside" } };
	struct svg_line_chart chart = {
		.title = "t",
		.x = { .label = "bytes", .log = true,
		       .format = SVG_FORMAT_BYTES },
		.y = { .label = "ns", .log = true, .format = SVG_FORMAT_NS },
		.nr_series = 1, .series = &series,
		.nr_markers = 2, .markers = markers,
	};
	struct text_capture capture;
	char *line;

	(void)state;
	capture_text_begin(&capture);
	svg_line_chart_write(capture.stream, &chart);
	capture_text_end(&capture);
	assert_int_equal(count_of(capture.text, "<circle"), 3);
	assert_int_equal(count_of(capture.text, "class=\"errorbar\""), 2);
	assert_int_equal(count_of(capture.text, "class=\"marker\""), 1);
	assert_non_null(strstr(capture.text, ">L1d 16 KiB<"));
	assert_null(strstr(capture.text, "outside"));
	assert_non_null(strstr(capture.text, "median: 40 ns at 32 KiB"));
	/* The NaN breaks the line: two moves, one line segment. */
	line = strstr(capture.text, "class=\"line\"");
	assert_non_null(line);
	*strchr(line, '>') = '\0';
	assert_int_equal(count_of(line, "M"), 2);
	assert_int_equal(count_of(line, "L"), 1);
	free(capture.text);
}

static void test_stacked_bars_and_heatmap(void **state)
{
	const char *const categories[] = { "warm", "clflush" };
	const double l1[] = { 90, 0 }, memory[] = { 10, 100 };
	const struct svg_series series[] = {
		{ .name = "L1d", .n = 2, .y = l1 },
		{ .name = "memory", .n = 2, .y = memory },
	};
	struct svg_bar_chart bars = {
		.title = "warmth", .category_label = "method",
		.nr_categories = 2, .categories = categories,
		.y = { .label = "%", .format = SVG_FORMAT_PERCENT },
		.stacked = true, .nr_series = 2, .series = series,
	};
	const char *const rows[] = { "0", "1" }, *const cols[] = { "0", "1" };
	const double values[] = { NAN, 50, 60, NAN };
	struct svg_heatmap heatmap = {
		.title = "c2c", .row_label = "cpu", .col_label = "cpu",
		.nr_rows = 2, .nr_cols = 2, .row_names = rows,
		.col_names = cols, .values = values,
		.value_axis = { .label = "round trip (ns)",
				.format = SVG_FORMAT_NS },
	};
	struct text_capture capture;

	(void)state;
	capture_text_begin(&capture);
	svg_bar_chart_write(capture.stream, &bars);
	svg_heatmap_write(capture.stream, &heatmap);
	capture_text_end(&capture);
	/* 0 % of clflush in L1d draws no bar. */
	assert_int_equal(count_of(capture.text, "class=\"bar\""), 3);
	assert_non_null(strstr(capture.text, "clflush, memory: 100 %"));
	assert_int_equal(count_of(capture.text, "class=\"cell\""), 4);
	assert_int_equal(count_of(capture.text, ": no value<"), 2);
	assert_non_null(strstr(capture.text, "class=\"scale\""));
	assert_non_null(strstr(capture.text, ">round trip (ns)<"));
	free(capture.text);
}

/* Shares whose medians add up past 100 end the axis at 100 %; a level
 * with no bar anywhere (merged) is not in the legend. */
static void test_stacked_shares_end_at_100(void **state)
{
	const char *const categories[] = { "warm", "clflush" };
	const double l2[] = { NAN, NAN }, l3[] = { 60, 0 },
		     memory[] = { 41, 100 };
	const struct svg_series series[] = {
		{ .name = "L2", .n = 2, .y = l2 },
		{ .name = "L3", .n = 2, .y = l3 },
		{ .name = "memory", .n = 2, .y = memory },
	};
	struct svg_bar_chart bars = {
		.title = "warmth", .category_label = "method",
		.nr_categories = 2, .categories = categories,
		.y = { .label = "%", .format = SVG_FORMAT_PERCENT },
		.stacked = true, .nr_series = 3, .series = series,
	};
	struct text_capture capture;

	(void)state;
	capture_text_begin(&capture);
	svg_bar_chart_write(capture.stream, &bars);
	capture_text_end(&capture);
	assert_non_null(strstr(capture.text, ">100 %<"));
	assert_null(strstr(capture.text, ">120 %<"));
	assert_int_equal(count_of(capture.text, "class=\"legend\""), 2);
	assert_null(strstr(capture.text, "<title>L2</title>"));
	assert_non_null(strstr(capture.text, "<title>L3</title>"));
	free(capture.text);
}

/* A bar at or under the floor is an outline marked "< floor", its value
 * only in the tooltip; one above it is a bar. */
static void test_bars_under_the_floor(void **state)
{
	const char *const categories[] = { "warm", "clflush" };
	double small[] = { 1.2, 150 };
	const struct svg_series series[] = {
		{ .name = "24 KiB", .n = 2, .y = small },
	};
	struct svg_bar_chart bars = {
		.title = "first pass", .category_label = "method",
		.nr_categories = 2, .categories = categories,
		.y = { .label = "ns", .log = true, .format = SVG_FORMAT_NS },
		.floor = 1.5, .floor_what = "the timer's spread",
		.nr_series = 1, .series = series,
	};
	struct text_capture capture;

	(void)state;
	capture_text_begin(&capture);
	svg_bar_chart_write(capture.stream, &bars);
	capture_text_end(&capture);
	assert_int_equal(count_of(capture.text, "class=\"bar\""), 1);
	assert_int_equal(count_of(capture.text, "class=\"bar below-floor\""), 1);
	assert_int_equal(count_of(capture.text, ">&lt; floor<"), 1);
	assert_non_null(strstr(capture.text,
			       "warm, 24 KiB: 1.2 ns, below the timer&#39;s spread (1.5 ns)"));
	free(capture.text);
	/* No floor: a zero on a linear axis is a value like any other. */
	bars.floor = 0;
	bars.y.log = false;
	bars.y.from_zero = true;
	capture_text_begin(&capture);
	svg_bar_chart_write(capture.stream, &bars);
	capture_text_end(&capture);
	assert_int_equal(count_of(capture.text, "below-floor"), 0);
	free(capture.text);
	small[0] = 0;
	capture_text_begin(&capture);
	svg_bar_chart_write(capture.stream, &bars);
	capture_text_end(&capture);
	assert_int_equal(count_of(capture.text, "below-floor"), 0);
	assert_int_equal(count_of(capture.text, "class=\"bar\""), 2);
	free(capture.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_every_special_character),
		cmocka_unit_test(test_escape_long_printf),
		cmocka_unit_test(test_chart_text_is_escaped),
		cmocka_unit_test(test_log_ticks_bytes_are_powers_of_two),
		cmocka_unit_test(test_log_ticks_decades),
		cmocka_unit_test(test_linear_ticks_are_round),
		cmocka_unit_test(test_empty_charts_say_no_data),
		cmocka_unit_test(test_line_with_intervals_gaps_and_markers),
		cmocka_unit_test(test_stacked_bars_and_heatmap),
		cmocka_unit_test(test_stacked_shares_end_at_100),
		cmocka_unit_test(test_bars_under_the_floor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
