// SPDX-License-Identifier: GPL-2.0
/* The TLB reach and the overlap factor read off hand-made latency
 * variants (areas/latency/latency_derive.h), and the console lines they give
 * (areas/latency/latency_table.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "areas/latency/latency_table.h"
#include "areas/latency/latency_derive.h"
#include "util/name_bytes.h"
#include "results_fixture.h"

#define KiB(n) ((uint64_t)(n) << 10)
#define MiB(n) ((uint64_t)(n) << 20)
#define PAGE_4K 4096ll
#define PAGE_2M (2ll << 20)
#define PAGE_1G (1ll << 30)
#define NR_SAMPLES 9

/* Eight sizes, an octave apart: 32 KiB to 4 MiB. */
static const uint64_t sizes[] = {
	KiB(32), KiB(64), KiB(128), KiB(256), KiB(512), MiB(1), MiB(2), MiB(4),
};
#define NR_SIZES (sizeof(sizes) / sizeof(sizes[0]))
/* The huge-page curve: L1d, L2, then L3. */
static const double huge_ns[NR_SIZES] = { 1, 1, 4, 4, 4, 20, 20, 20 };

struct variant {
	const char *mode;
	int64_t pages, backed, chases;
	double spread;		/* samples from ns*(1-spread) to ns*(1+spread) */
};

/* A measurement as the area records it: named after its choices, its
 * params, nine samples spread evenly around @ns. */
static struct cp_measurement *chase(struct cp_results *results,
				    const struct variant *v, uint64_t size,
				    double ns)
{
	static const char *const page_names[] = { "4k", "1g" };
	double samples[NR_SAMPLES];
	char name[64], text[32];
	struct cp_measurement *m;
	int len;

	for (int k = 0; k < NR_SAMPLES; k++)
		samples[k] = ns * (1 + v->spread * (k - 4) / 4.0);
	cp_name_bytes(size, text, sizeof(text));
	len = snprintf(name, sizeof(name), "chase %s", text);
	if (v->pages != PAGE_2M)
		len += snprintf(name + len, sizeof(name) - (size_t)len,
				" pages=%s", page_names[v->pages != PAGE_4K]);
	if (v->chases > 1)
		len += snprintf(name + len, sizeof(name) - (size_t)len,
				" chases=%lld", (long long)v->chases);
	if (strcmp(v->mode, "kernel") == 0)
		snprintf(name + len, sizeof(name) - (size_t)len, " (kernel)");
	m = fixture_area_measurement(results, "latency", v->mode, name,
				     samples, NR_SAMPLES);
	cp_measurement_add_param(m, "size_bytes", (int64_t)size);
	cp_measurement_add_param(m, "page_bytes", v->pages);
	cp_measurement_add_param(m, "page_bytes_backed", v->backed);
	cp_measurement_add_param(m, "chases", v->chases);
	return m;
}

/* The curve @v over every size, at @ns[i] plus @extra[i] (NULL: none). */
static void curve(struct cp_results *results, const struct variant *v,
		  const double *ns, const double *extra)
{
	for (size_t i = 0; i < NR_SIZES; i++)
		chase(results, v, sizes[i], ns[i] + (extra ? extra[i] : 0));
}

static const struct variant huge_user = { "user", PAGE_2M, PAGE_2M, 1, 0.01 };
static const struct variant small_user = { "user", PAGE_4K, PAGE_4K, 1, 0.01 };

/* Page walks from 256 KiB: +3 ns there and beyond. */
static const double departs_at_256k[NR_SIZES] = { 0, 0, 0, 3, 3, 3, 3, 3 };

static void tlb_of(const double *extra, const struct variant *small,
		   struct cp_tlb_reach *reach)
{
	struct cp_results results;

	fixture_results(&results);
	curve(&results, &huge_user, huge_ns, NULL);
	curve(&results, small, huge_ns, extra);
	cp_latency_tlb_reach(&results, "user", reach);
	cp_results_free(&results);
}

static void assert_near(double actual, double expected)
{
	if (fabs(actual - expected) > 1e-9)
		fail_msg("%.12g is not %.12g", actual, expected);
}

static void test_knee_where_4k_departs(void **state)
{
	struct cp_tlb_reach reach;

	(void)state;
	tlb_of(departs_at_256k, &small_user, &reach);
	assert_int_equal(reach.verdict, CP_TLB_KNEE);
	assert_int_equal(reach.huge_page_bytes, PAGE_2M);
	assert_int_equal(reach.nr_points, NR_SIZES);
	assert_int_equal(reach.nr_left_out, 0);
	assert_int_equal(reach.knee_bytes, KiB(256));
	assert_int_equal(reach.knee_pages, 64);
	assert_int_equal(reach.knee_index, 3);
	assert_false(reach.knee_at_first);
	for (size_t i = 0; i < NR_SIZES; i++)
		assert_int_equal(reach.points[i].slower, i >= 3);
	assert_near(reach.points[7].extra_ns, 3);
	assert_near(reach.points[7].ratio, 23.0 / 20.0);
	assert_near(reach.points[2].extra_ns, 0);
}

/* 1 % slower everywhere, with samples spread 10 % either way: the
 * medians' intervals overlap at every size. */
static void test_no_knee_inside_noise(void **state)
{
	static const double one_percent[NR_SIZES] = {
		0.01, 0.01, 0.04, 0.04, 0.04, 0.2, 0.2, 0.2,
	};
	struct variant noisy = small_user;
	struct cp_tlb_reach reach;

	(void)state;
	noisy.spread = 0.10;
	tlb_of(one_percent, &noisy, &reach);
	assert_int_equal(reach.verdict, CP_TLB_NO_KNEE);
	assert_int_equal(reach.nr_points, NR_SIZES);
	for (size_t i = 0; i < NR_SIZES; i++)
		assert_false(reach.points[i].slower);
	assert_non_null(strstr(reach.why, "beyond the noise"));
}

/* A difference is judged against the run's own spread, not a ratio: the
 * same +3 % is beyond the noise of steady samples. */
static void test_same_difference_beyond_steady_noise(void **state)
{
	static const double three_percent[NR_SIZES] = {
		0.03, 0.03, 0.12, 0.12, 0.12, 0.6, 0.6, 0.6,
	};
	struct variant noisy = small_user;
	struct cp_tlb_reach reach;

	(void)state;
	noisy.spread = 0.10;
	tlb_of(three_percent, &noisy, &reach);
	assert_int_equal(reach.verdict, CP_TLB_NO_KNEE);
	tlb_of(three_percent, &small_user, &reach);
	assert_int_equal(reach.verdict, CP_TLB_KNEE);
	assert_true(reach.knee_at_first);
	assert_int_equal(reach.knee_bytes, KiB(32));
}

static void test_one_size_blip_is_no_knee(void **state)
{
	static const double blip[NR_SIZES] = { 0, 0, 3, 0, 0, 0, 0, 0 };
	static const double blip_then_knee[NR_SIZES] = { 0, 0, 3, 0, 0, 3, 3, 3 };
	static const double last_only[NR_SIZES] = { 0, 0, 0, 0, 0, 0, 0, 3 };
	struct cp_tlb_reach reach;

	(void)state;
	tlb_of(blip, &small_user, &reach);
	assert_int_equal(reach.verdict, CP_TLB_NO_KNEE);
	assert_true(reach.points[2].slower);
	tlb_of(blip_then_knee, &small_user, &reach);
	assert_int_equal(reach.verdict, CP_TLB_KNEE);
	assert_int_equal(reach.knee_bytes, MiB(1));
	assert_int_equal(reach.knee_pages, 256);
	/* Slower at the last size: nothing after it to confirm. */
	tlb_of(last_only, &small_user, &reach);
	assert_int_equal(reach.verdict, CP_TLB_NO_KNEE);
}

/* A file read without the bootstrap intervals (NaN): the quartiles are
 * the noise instead. */
static void test_quartiles_without_intervals(void **state)
{
	struct cp_results results;
	struct cp_tlb_reach reach;

	(void)state;
	fixture_results(&results);
	curve(&results, &huge_user, huge_ns, NULL);
	curve(&results, &small_user, huge_ns, departs_at_256k);
	for (size_t i = 0; i < results.nr_measurements; i++) {
		results.measurements[i].stats_ns.median_ci_low = NAN;
		results.measurements[i].stats_ns.median_ci_high = NAN;
	}
	cp_latency_tlb_reach(&results, "user", &reach);
	assert_int_equal(reach.verdict, CP_TLB_KNEE);
	assert_int_equal(reach.knee_bytes, KiB(256));
	cp_results_free(&results);
}

/* The 2 MiB request fell back to 4 KiB pages at every size. */
static void test_not_backed(void **state)
{
	struct variant fell_back = huge_user;
	struct cp_results results;
	struct cp_tlb_reach reach;

	(void)state;
	fell_back.backed = PAGE_4K;
	fixture_results(&results);
	curve(&results, &fell_back, huge_ns, NULL);
	curve(&results, &small_user, huge_ns, departs_at_256k);
	cp_latency_tlb_reach(&results, "user", &reach);
	assert_int_equal(reach.verdict, CP_TLB_NOT_BACKED);
	assert_int_equal(reach.nr_points, 0);
	assert_int_equal(reach.nr_left_out, NR_SIZES);
	assert_string_equal(reach.why,
			    "the 2 MiB-page chase got 4 KiB pages (no huge pages given)");
	cp_results_free(&results);
}

/* 2 MiB not given, 1 GiB given: the knee against 1 GiB pages. */
static void test_1g_when_2m_not_backed(void **state)
{
	struct variant fell_back = huge_user, gigantic = huge_user;
	struct cp_results results;
	struct cp_tlb_reach reach;

	(void)state;
	fell_back.backed = PAGE_4K;
	gigantic.pages = gigantic.backed = PAGE_1G;
	fixture_results(&results);
	curve(&results, &fell_back, huge_ns, NULL);
	curve(&results, &gigantic, huge_ns, NULL);
	curve(&results, &small_user, huge_ns, departs_at_256k);
	cp_latency_tlb_reach(&results, "user", &reach);
	assert_int_equal(reach.verdict, CP_TLB_KNEE);
	assert_int_equal(reach.huge_page_bytes, PAGE_1G);
	assert_int_equal(reach.knee_bytes, KiB(256));
	cp_results_free(&results);
}

/* Huge pages given up to 512 KiB only: the sizes beyond are left out,
 * and a departure there is not a knee. */
static void test_partly_backed(void **state)
{
	struct variant fell_back = huge_user;
	static const double late[NR_SIZES] = { 0, 0, 0, 0, 0, 3, 3, 3 };
	struct cp_results results;
	struct cp_tlb_reach reach;

	(void)state;
	fell_back.backed = PAGE_4K;
	fixture_results(&results);
	for (size_t i = 0; i < NR_SIZES; i++)
		chase(&results, sizes[i] <= KiB(512) ? &huge_user : &fell_back,
		      sizes[i], huge_ns[i]);
	curve(&results, &small_user, huge_ns, late);
	cp_latency_tlb_reach(&results, "user", &reach);
	assert_int_equal(reach.verdict, CP_TLB_NO_KNEE);
	assert_int_equal(reach.nr_points, 5);
	assert_int_equal(reach.nr_left_out, 3);
	cp_results_free(&results);
}

static void test_tlb_not_measured(void **state)
{
	struct cp_results results;
	struct cp_tlb_reach reach;
	struct cp_measurement *m;

	(void)state;
	fixture_results(&results);
	/* A file from before the variants: the classic curve alone. */
	m = fixture_area_measurement(&results, "latency", "user",
				     "chase 8 KiB", huge_ns, 3);
	cp_measurement_add_param(m, "size_bytes", KiB(8));
	cp_latency_tlb_reach(&results, "user", &reach);
	assert_int_equal(reach.verdict, CP_TLB_NOT_MEASURED);
	assert_string_equal(reach.why, "no chase on 4 KiB pages");
	cp_results_free(&results);

	fixture_results(&results);
	curve(&results, &small_user, huge_ns, NULL);
	cp_latency_tlb_reach(&results, "user", &reach);
	assert_int_equal(reach.verdict, CP_TLB_NOT_MEASURED);
	assert_non_null(strstr(reach.why, "no chase on huge pages"));
	/* Both pages in user mode do not make a kernel-mode knee. */
	curve(&results, &huge_user, huge_ns, NULL);
	cp_latency_tlb_reach(&results, "kernel", &reach);
	assert_int_equal(reach.verdict, CP_TLB_NOT_MEASURED);
	cp_results_free(&results);
}

/* ns per load at 1, 2 and 4 chases: memory (4 MiB) overlaps 1.9 and 3.6
 * misses; the caches less. */
static const double two_chases_ns[NR_SIZES] = {
	1, 1, 4, 4, 4, 20 / 1.5, 20 / 1.5, 20 / 1.9,
};
static const double four_chases_ns[NR_SIZES] = {
	1, 1, 4, 4, 4, 20 / 2.0, 20 / 2.0, 20 / 3.6,
};

static void add_chases(struct cp_results *results, const char *mode,
		       int64_t pages)
{
	struct variant v = { mode, pages, pages, 2, 0.01 };

	curve(results, &v, two_chases_ns, NULL);
	v.chases = 4;
	/* Four chases at the three largest sizes only. */
	for (size_t i = NR_SIZES - 3; i < NR_SIZES; i++)
		chase(results, &v, sizes[i], four_chases_ns[i]);
}

static void test_overlap_pairs(void **state)
{
	struct variant small_2 = { "user", PAGE_4K, PAGE_4K, 2, 0.01 };
	struct cp_overlap_curve overlap;
	struct cp_results results;
	int64_t chases[8];
	static const double slow_4k[NR_SIZES] = { 0, 0, 0, 0, 0, 0, 0, 20 };

	(void)state;
	fixture_results(&results);
	curve(&results, &huge_user, huge_ns, NULL);
	add_chases(&results, "user", PAGE_2M);
	/* 4 KiB pages: one chase at 40 ns at 4 MiB, two at 40 / 1.2. */
	curve(&results, &small_user, huge_ns, slow_4k);
	chase(&results, &small_2, MiB(4), 40 / 1.2);
	assert_int_equal(cp_latency_chase_counts(&results, "user", PAGE_2M,
						 chases, 8), 3);
	assert_int_equal(chases[0], 1);
	assert_int_equal(chases[1], 2);
	assert_int_equal(chases[2], 4);

	assert_int_equal(cp_latency_overlap(&results, "user", PAGE_2M, 2,
					    &overlap), NR_SIZES);
	assert_int_equal(overlap.chases, 2);
	assert_near(overlap.points[0].factor, 1.0);
	assert_near(overlap.points[5].factor, 1.5);
	assert_int_equal(overlap.points[NR_SIZES - 1].size_bytes, MiB(4));
	assert_near(overlap.points[NR_SIZES - 1].factor, 1.9);
	assert_near(overlap.points[NR_SIZES - 1].single_ns, 20);

	assert_int_equal(cp_latency_overlap(&results, "user", PAGE_2M, 4,
					    &overlap), 3);
	assert_int_equal(overlap.points[0].size_bytes, MiB(1));
	assert_near(overlap.points[2].factor, 3.6);

	/* Each page size against its own single chase. */
	assert_int_equal(cp_latency_overlap(&results, "user", PAGE_4K, 2,
					    &overlap), 1);
	assert_near(overlap.points[0].factor, 1.2);
	/* Nothing across modes, nothing for a count not measured. */
	assert_int_equal(cp_latency_overlap(&results, "kernel", PAGE_2M, 2,
					    &overlap), 0);
	assert_int_equal(cp_latency_overlap(&results, "user", PAGE_2M, 8,
					    &overlap), 0);
	cp_results_free(&results);
}

static void test_overlap_missing(void **state)
{
	struct cp_overlap_curve overlap;
	struct cp_results results;
	int64_t chases[8];
	struct variant v = { "user", PAGE_2M, PAGE_2M, 2, 0.01 };

	(void)state;
	fixture_results(&results);
	curve(&results, &huge_user, huge_ns, NULL);
	assert_int_equal(cp_latency_chase_counts(&results, "user", PAGE_2M,
						 chases, 8), 1);
	assert_int_equal(cp_latency_overlap(&results, "user", PAGE_2M, 2,
					    &overlap), 0);
	cp_results_free(&results);
	/* Two chases without the single one to compare with. */
	fixture_results(&results);
	curve(&results, &v, two_chases_ns, NULL);
	assert_int_equal(cp_latency_overlap(&results, "user", PAGE_2M, 2,
					    &overlap), 0);
	cp_results_free(&results);
}

/* Measurements from before the variants read as 2 MiB pages, 1 chase. */
static void test_old_file_is_classic(void **state)
{
	struct cp_results results;
	struct cp_latency_curve classic;
	struct cp_latency_variant variant;
	struct cp_measurement *m;

	(void)state;
	fixture_results(&results);
	m = fixture_area_measurement(&results, "latency", "user",
				     "chase 8 KiB", huge_ns, 3);
	cp_measurement_add_param(m, "size_bytes", KiB(8));
	cp_measurement_add_param(m, "huge_pages_requested", 1);
	m = fixture_area_measurement(&results, "latency", "user",
				     "chase 4 KiB", huge_ns, 3);
	cp_measurement_add_param(m, "size_bytes", KiB(4));
	variant = cp_latency_variant_of(m);
	assert_int_equal(variant.page_bytes, PAGE_2M);
	assert_int_equal(variant.page_bytes_backed, 0);
	assert_int_equal(variant.chases, 1);
	assert_int_equal(cp_latency_curve_collect(&results, "user", PAGE_2M,
						  1, &classic), 2);
	/* Sorted by size, whatever the order of recording. */
	assert_int_equal(classic.size_bytes[0], KiB(4));
	assert_string_equal(classic.points[0]->name, "chase 4 KiB");
	assert_int_equal(classic.size_bytes[1], KiB(8));
	cp_results_free(&results);
}

static char *console_of(const struct cp_results *results)
{
	struct text_capture capture;

	capture_text_begin(&capture);
	cli_print_latency_summary(capture.stream, results);
	capture_text_end(&capture);
	return capture.text;
}

static void test_console_lines(void **state)
{
	struct variant huge_kernel = huge_user, small_kernel = small_user;
	struct cp_results results;
	char *text;

	(void)state;
	huge_kernel.mode = small_kernel.mode = "kernel";
	fixture_results(&results);
	curve(&results, &huge_user, huge_ns, NULL);
	curve(&results, &small_user, huge_ns, departs_at_256k);
	add_chases(&results, "user", PAGE_2M);
	curve(&results, &huge_kernel, huge_ns, NULL);
	curve(&results, &small_kernel, huge_ns, NULL);
	text = console_of(&results);
	assert_string_equal(text,
		"\n"
		"TLB reach (4 KiB pages): page walks from 256 KiB (64 pages)\n"
		"  4 KiB pages cost +3.0 ns (1.15x) over 2 MiB pages at 4 MiB\n"
		"memory-level parallelism at 4 MiB: 2 chases 1.9x, 4 chases 3.6x (overlap against one chase)\n"
		"TLB reach (4 KiB pages, kernel mode):\n"
		"  no knee: not slower than 2 MiB pages beyond the noise at two sizes in a row\n"
		"  4 KiB pages cost +0.0 ns (1.00x) over 2 MiB pages at 4 MiB\n");
	free(text);
	cp_results_free(&results);
}

static void test_console_not_backed_and_4k_chases(void **state)
{
	struct variant fell_back = huge_user;
	struct cp_results results;
	char *text;

	(void)state;
	fell_back.backed = PAGE_4K;
	fixture_results(&results);
	curve(&results, &fell_back, huge_ns, NULL);
	curve(&results, &small_user, huge_ns, departs_at_256k);
	add_chases(&results, "user", PAGE_4K);
	text = console_of(&results);
	/* At 4 MiB one chase on 4 KiB pages takes 23 ns: 23 / (20 / 1.9)
	 * and 23 / (20 / 3.6). */
	assert_string_equal(text,
		"\n"
		"TLB reach (4 KiB pages):\n"
		"  not measured: the 2 MiB-page chase got 4 KiB pages (no huge pages given)\n"
		"memory-level parallelism at 4 MiB (4 KiB pages): 2 chases 2.2x, 4 chases 4.1x (overlap against one chase)\n");
	free(text);
	cp_results_free(&results);
}

/* A count whose largest size is another says so; kernel mode is named. */
static void test_console_overlap_sizes_differ(void **state)
{
	struct variant huge_kernel = huge_user, two = huge_user;
	struct cp_results results;
	char *text;

	(void)state;
	huge_kernel.mode = two.mode = "kernel";
	two.chases = 2;
	fixture_results(&results);
	curve(&results, &huge_kernel, huge_ns, NULL);
	curve(&results, &two, two_chases_ns, NULL);
	two.chases = 4;
	chase(&results, &two, MiB(2), 20 / 2.0);
	text = console_of(&results);
	assert_string_equal(text,
		"\n"
		"memory-level parallelism at 4 MiB (kernel mode): 2 chases 1.9x, 4 chases 2.0x at 2 MiB (overlap against one chase)\n");
	free(text);
	cp_results_free(&results);
}

/* The classic curve alone: the console says nothing more than before. */
static void test_console_quiet_without_variants(void **state)
{
	struct cp_results results;
	char *text;

	(void)state;
	fixture_results(&results);
	curve(&results, &huge_user, huge_ns, NULL);
	text = console_of(&results);
	assert_string_equal(text, "");
	free(text);
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knee_where_4k_departs),
		cmocka_unit_test(test_no_knee_inside_noise),
		cmocka_unit_test(test_same_difference_beyond_steady_noise),
		cmocka_unit_test(test_one_size_blip_is_no_knee),
		cmocka_unit_test(test_quartiles_without_intervals),
		cmocka_unit_test(test_not_backed),
		cmocka_unit_test(test_1g_when_2m_not_backed),
		cmocka_unit_test(test_partly_backed),
		cmocka_unit_test(test_tlb_not_measured),
		cmocka_unit_test(test_overlap_pairs),
		cmocka_unit_test(test_overlap_missing),
		cmocka_unit_test(test_old_file_is_classic),
		cmocka_unit_test(test_console_lines),
		cmocka_unit_test(test_console_not_backed_and_4k_chases),
		cmocka_unit_test(test_console_overlap_sizes_differ),
		cmocka_unit_test(test_console_quiet_without_variants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
