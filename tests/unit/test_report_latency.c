// SPDX-License-Identifier: GPL-2.0
/* The latency section of the HTML report with the page and chase
 * variants: the 4 KiB curve beside the huge-page one with the TLB knee
 * marked, the overlap chart, each only when its data is there, and the
 * same from a saved JSON file. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "util/name_bytes.h"
#include "results/results_json.h"
#include "report/report.h"
#include "results_fixture.h"

#define KiB(n) ((uint64_t)(n) << 10)
#define PAGE_4K 4096
#define PAGE_2M (2 << 20)

static const uint64_t sizes[] = { KiB(64), KiB(128), KiB(256), KiB(512),
				  KiB(1024) };
#define NR_SIZES (sizeof(sizes) / sizeof(sizes[0]))
static const double huge_ns[NR_SIZES] = { 1, 4, 4, 4, 20 };

/* One curve in @mode on @pages with @chases, @extra ns above huge_ns
 * from size @from on, named as the area names it. */
static void curve(struct cp_results *results, const char *mode, int pages,
		  int chases, double divide, size_t from, double extra)
{
	for (size_t i = 0; i < NR_SIZES; i++) {
		double ns = huge_ns[i] / divide + (i >= from ? extra : 0);
		const double samples[] = { ns, ns * 1.01, ns * 0.99, ns * 1.005,
					   ns * 0.995 };
		char name[64], size[32], count[32] = "";
		struct cp_measurement *m;

		cp_name_bytes(sizes[i], size, sizeof(size));
		if (chases > 1)
			snprintf(count, sizeof(count), " chases=%d", chases);
		snprintf(name, sizeof(name), "chase %s%s%s%s", size,
			 pages == PAGE_4K ? " pages=4k" : "", count,
			 strcmp(mode, "kernel") == 0 ? " (kernel)" : "");
		m = fixture_area_measurement(results, "latency", mode, name,
					     samples, 5);
		cp_measurement_add_param(m, "size_bytes", (int64_t)sizes[i]);
		cp_measurement_add_param(m, "page_bytes", pages);
		cp_measurement_add_param(m, "page_bytes_backed", pages);
		cp_measurement_add_param(m, "chases", chases);
	}
}

/* User mode: both page sizes (4 KiB slower from 256 KiB), chases 1, 2,
 * 4; kernel mode: the classic curve alone. */
static void build(struct cp_results *results)
{
	fixture_results(results);
	curve(results, "user", PAGE_2M, 1, 1, 0, 0);
	curve(results, "user", PAGE_4K, 1, 1, 2, 3);
	curve(results, "user", PAGE_2M, 2, 1.8, 0, 0);
	curve(results, "user", PAGE_2M, 4, 3.2, 0, 0);
	curve(results, "kernel", PAGE_2M, 1, 1, 0, 0);
}

static char *report_of(const struct cp_results *results)
{
	struct text_capture capture;

	capture_text_begin(&capture);
	assert_int_equal(cp_report_write(results, capture.stream), 0);
	capture_text_end(&capture);
	return capture.text;
}

/* How often @what occurs in @html between @from and the next @to. */
static size_t count_between(const char *html, const char *from,
			    const char *to, const char *what)
{
	const char *start = strstr(html, from), *end;
	size_t n = 0;

	assert_non_null(start);
	end = strstr(start + strlen(from), to);
	assert_non_null(end);
	for (const char *at = strstr(start, what); at && at < end;
	     at = strstr(at + 1, what))
		n++;
	return n;
}

static size_t in_user(const char *html, const char *what)
{
	const char *kernel = "<h3>kernel mode</h3>";

	return count_between(html, "<h3>user mode</h3>",
			     strstr(html, kernel) ? kernel : "</section>",
			     what);
}

static size_t in_kernel(const char *html, const char *what)
{
	return count_between(html, "<h3>kernel mode</h3>", "</section>",
			     what);
}

static void assert_variants_shown(const char *html)
{
	/* User: the latency chart with both page sizes and the knee, the
	 * overlap chart with 1, 2 and 4 chases and its table. */
	assert_int_equal(in_user(html, "<svg "), 2);
	assert_int_equal(in_user(html, "</title>4 KiB pages</text>"), 1);
	assert_int_equal(in_user(html, "</title>2 MiB pages</text>"), 1);
	assert_int_equal(in_user(html, ">TLB knee 256 KiB<"), 1);
	assert_int_equal(in_user(html, "TLB reach (4 KiB pages): page walks from 256 KiB (64 pages)"), 1);
	assert_int_equal(in_user(html, "<title>Overlap factor of N chases against one (2 MiB pages, user mode)"), 1);
	assert_int_equal(in_user(html, "</title>1 chase</text>"), 1);
	assert_int_equal(in_user(html, "</title>4 chases</text>"), 1);
	assert_int_equal(in_user(html, "<td>3.20</td>"), 1);
	/* The variants' raw rows in the table of every measurement. */
	assert_int_equal(in_user(html, "<td>chase 256 KiB pages=4k</td>"), 1);
	assert_int_equal(in_user(html, "<td>chase 1 MiB chases=4</td>"), 1);
	/* Kernel: the classic curve alone, named as before. */
	assert_int_equal(in_kernel(html, "<svg "), 1);
	assert_int_equal(in_kernel(html, "</title>median, 95 % interval</text>"), 1);
	assert_int_equal(in_kernel(html, "TLB"), 0);
	assert_int_equal(in_kernel(html, "Overlap"), 0);
	assert_null(strstr(html, "nan"));
}

static void test_variants_charted(void **state)
{
	struct cp_results results;
	char *html;

	(void)state;
	build(&results);
	html = report_of(&results);
	assert_variants_shown(html);
	free(html);
	cp_results_free(&results);
}

static void test_variants_from_saved_json(void **state)
{
	struct cp_results results, read_back;
	struct cp_error error;
	char *path, *html;

	(void)state;
	build(&results);
	path = fixture_write_json(&results, "results.json");
	assert_int_equal(cp_results_read_json(path, &read_back, &error), 0);
	html = report_of(&read_back);
	assert_variants_shown(html);
	free(html);
	fixture_remove(path);
	cp_results_free(&read_back);
	cp_results_free(&results);
}

/* 4 KiB pages alone: their curve, no knee, the reason; no overlap chart
 * without a second chase count. */
static void test_small_pages_alone(void **state)
{
	struct cp_results results;
	char *html;

	(void)state;
	fixture_results(&results);
	curve(&results, "user", PAGE_4K, 1, 1, 0, 0);
	html = report_of(&results);
	assert_int_equal(in_user(html, "<svg "), 1);
	assert_int_equal(in_user(html, "TLB knee"), 0);
	assert_int_equal(in_user(html, "TLB reach (4 KiB pages): not measured: no chase on huge pages"), 1);
	assert_int_equal(in_user(html, "Overlap"), 0);
	free(html);
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants_charted),
		cmocka_unit_test(test_variants_from_saved_json),
		cmocka_unit_test(test_small_pages_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
