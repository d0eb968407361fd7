// SPDX-License-Identifier: GPL-2.0
/* The c2c matrix from results: cells filled both ways, the diagonal empty;
 * the table plain and as a heatmap, the per-class summary, CSV and JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "areas/c2c/c2c_matrix.h"
#include "machine/cpu_pairs.h"
#include "results/results_json.h"

/* A c2c measurement of @first:@second whose samples are all @ns. */
static void add_pair(struct cp_results *results, const char *mode, int cas,
		     unsigned int first, unsigned int second, int pair_class,
		     double ns)
{
	struct cp_measurement *m = cp_results_add(results);
	double *ticks = malloc(5 * sizeof(*ticks));

	assert_non_null(m);
	assert_non_null(ticks);
	snprintf(m->area, sizeof(m->area), "c2c");
	snprintf(m->mode, sizeof(m->mode), "%s", mode);
	snprintf(m->name, sizeof(m->name), "%s %u:%u", cas ? "cas" : "flag",
		 first, second);
	cp_measurement_add_param(m, "first", first);
	cp_measurement_add_param(m, "second", second);
	cp_measurement_add_param(m, "pair_class", pair_class);
	cp_measurement_add_param(m, "cas", cas);
	for (int i = 0; i < 5; i++)
		ticks[i] = ns;		/* 1 GHz: ticks are ns */
	assert_int_equal(cp_measurement_set_samples(m, ticks, 5, 1e9), 0);
}

static struct cp_results results;

static int setup(void **state)
{
	(void)state;
	cp_results_init(&results);
	add_pair(&results, "user", 1, 0, 1, CP_PAIR_SAME_CORE, 40);
	add_pair(&results, "user", 1, 0, 2, CP_PAIR_SHARED_L3, 100);
	add_pair(&results, "user", 1, 1, 2, CP_PAIR_SHARED_L3, 120);
	add_pair(&results, "user", 0, 0, 1, CP_PAIR_SAME_CORE, 50);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	cp_results_free(&results);
	return 0;
}

static char *capture(void (*print)(FILE *, const struct cp_c2c_matrix *,
				   bool), const struct cp_c2c_matrix *m,
		     bool heat)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	print(out, m, heat);
	fclose(out);
	return text;
}

static void summary(FILE *out, const struct cp_c2c_matrix *m, bool unused)
{
	(void)unused;
	cp_c2c_summary_print(out, m);
}

static void test_cells(void **state)
{
	struct cp_c2c_matrix *m;
	size_t nr;

	(void)state;
	assert_int_equal(cp_c2c_matrices(&results, &m, &nr), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(m[0].variant, "cas");
	assert_int_equal(m[0].n, 3);
	assert_true(m[0].median_ns[0 * 3 + 2] == 100);
	assert_true(m[0].median_ns[2 * 3 + 0] == 100);
	assert_true(m[0].median_ns[1 * 3 + 2] == 120);
	assert_true(m[0].median_ns[1 * 3 + 1] != m[0].median_ns[1 * 3 + 1]);
	assert_string_equal(m[1].variant, "flag");
	assert_int_equal(m[1].n, 2);
	cp_c2c_matrices_free(m, nr);
}

static void test_table_and_heatmap(void **state)
{
	struct cp_c2c_matrix *m;
	char *plain, *heat, *sum;
	size_t nr;

	(void)state;
	assert_int_equal(cp_c2c_matrices(&results, &m, &nr), 0);
	plain = capture(cp_c2c_matrix_print, &m[0], false);
	heat = capture(cp_c2c_matrix_print, &m[0], true);
	sum = capture(summary, &m[0], false);
	assert_non_null(strstr(plain, "cas, user round trip"));
	assert_non_null(strstr(plain, "      0      -     40    100\n"));
	assert_null(strchr(plain, '\033'));
	/* Fastest green (22), slowest red (124). */
	assert_non_null(strstr(heat, "\033[48;5;22m    40\033[0m"));
	assert_non_null(strstr(heat, "\033[48;5;124m   120\033[0m"));
	assert_non_null(strstr(sum, "smt"));
	assert_non_null(strstr(sum, "shared-l3"));
	assert_non_null(strstr(sum, "2 pairs  min   100.0  median   110.0  max   120.0 ns"));
	free(plain);
	free(heat);
	free(sum);
	cp_c2c_matrices_free(m, nr);
}

static void test_csv_and_json(void **state)
{
	struct cp_c2c_matrix *m;
	char *text = NULL;
	size_t len = 0, nr;
	FILE *out;
	json_object *root, *list, *first, *rows;

	(void)state;
	assert_int_equal(cp_c2c_matrices(&results, &m, &nr), 0);
	out = open_memstream(&text, &len);
	cp_c2c_matrices_csv(out, m, nr);
	fclose(out);
	assert_non_null(strstr(text, "mode,variant,first,second,pair_class,median_ns,ci95_low_ns,ci95_high_ns,min_ns,one_way_median_ns,one_way_min_ns\n"));
	assert_non_null(strstr(text, "user,cas,1,2,shared-l3,120,120,120,120,60,60\n"));
	assert_non_null(strstr(text, "user,flag,0,1,smt,50,50,50,50,25,25\n"));
	free(text);
	text = NULL;
	out = open_memstream(&text, &len);
	assert_int_equal(cp_c2c_matrices_json(out, m, nr), 0);
	fclose(out);
	root = json_tokener_parse(text);
	assert_non_null(root);
	assert_string_equal(json_object_get_string(json_object_object_get(root, "schema")),
			    "cacheprobe-c2c-matrix/1");
	list = json_object_object_get(root, "matrices");
	assert_int_equal(json_object_array_length(list), 2);
	first = json_object_array_get_idx(list, 0);
	rows = json_object_object_get(first, "median_ns");
	assert_null(json_object_array_get_idx(json_object_array_get_idx(rows, 1), 1));
	assert_true(json_object_get_double(json_object_array_get_idx(
			    json_object_array_get_idx(rows, 2), 0)) == 100);
	rows = json_object_object_get(first, "one_way_median_ns");
	assert_true(json_object_get_double(json_object_array_get_idx(
			    json_object_array_get_idx(rows, 2), 0)) == 50);
	assert_null(json_object_array_get_idx(json_object_array_get_idx(rows, 0), 0));
	rows = json_object_object_get(first, "one_way_min_ns");
	assert_true(json_object_get_double(json_object_array_get_idx(
			    json_object_array_get_idx(rows, 1), 2)) == 60);
	json_object_put(root);
	free(text);
	cp_c2c_matrices_free(m, nr);
}

static json_object *member(json_object *object, const char *key)
{
	json_object *value = NULL;

	if (!json_object_object_get_ex(object, key, &value))
		fail_msg("no \"%s\"", key);
	return value;
}

/*
 * What a reader holds against c2clat or multichase: the results file has,
 * for every pair, the round trip and the one-way figure (half of it), the
 * median and the fastest sample; the console summary says them too.
 */
static void test_one_way_and_fastest(void **state)
{
	struct cp_results spread;
	double *ticks = malloc(5 * sizeof(*ticks));
	struct cp_c2c_matrix *m;
	json_object *root, *pairs;
	char *text = NULL, *sum;
	size_t len = 0, nr;
	FILE *out;

	(void)state;
	assert_non_null(ticks);
	cp_results_init(&spread);
	add_pair(&spread, "user", 1, 0, 1, CP_PAIR_SAME_CORE, 40);
	add_pair(&spread, "user", 0, 0, 2, CP_PAIR_SHARED_L3, 100);
	/* Samples 100, 110, ... 140 for "cas 1:2": median 120, fastest 100. */
	add_pair(&spread, "user", 1, 1, 2, CP_PAIR_SHARED_L3, 100);
	for (int i = 0; i < 5; i++)
		ticks[i] = 100 + 10 * i;
	assert_int_equal(cp_measurement_set_samples(&spread.measurements[2],
						    ticks, 5, 1e9), 0);
	out = open_memstream(&text, &len);
	assert_int_equal(cp_results_write_json(&spread, out), 0);
	fclose(out);
	root = json_tokener_parse(text);
	assert_non_null(root);
	pairs = member(root, "c2c_pairs");
	assert_int_equal(json_object_array_length(pairs), 3);
	for (size_t i = 0; i < 3; i++) {
		json_object *pair = json_object_array_get_idx(pairs, i);
		double median = json_object_get_double(
			member(pair, "round_trip_median_ns"));
		double fastest = json_object_get_double(
			member(pair, "round_trip_min_ns"));

		assert_true(json_object_get_double(
				    member(pair, "one_way_median_ns")) ==
			    median / 2);
		assert_true(json_object_get_double(
				    member(pair, "one_way_min_ns")) ==
			    fastest / 2);
		assert_true(fastest <= median);
	}
	pairs = json_object_array_get_idx(pairs, 2);
	assert_string_equal(json_object_get_string(member(pairs, "variant")),
			    "cas");
	assert_int_equal(json_object_get_int(member(pairs, "second")), 2);
	assert_true(json_object_get_double(member(pairs, "round_trip_median_ns")) == 120);
	assert_true(json_object_get_double(member(pairs, "round_trip_min_ns")) == 100);
	assert_true(json_object_get_double(member(pairs, "one_way_min_ns")) == 50);
	json_object_put(root);
	free(text);
	assert_int_equal(cp_c2c_matrices(&spread, &m, &nr), 0);
	sum = capture(summary, &m[0], false);
	assert_non_null(strstr(sum, "one-way median 60.0 ns; fastest sample 100.0 ns, one-way 50.0 ns"));
	free(sum);
	cp_c2c_matrices_free(m, nr);
	cp_results_free(&spread);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_table_and_heatmap),
		cmocka_unit_test(test_csv_and_json),
		cmocka_unit_test(test_one_way_and_fastest),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
