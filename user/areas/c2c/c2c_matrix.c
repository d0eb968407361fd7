// SPDX-License-Identifier: GPL-2.0
#include "areas/c2c/c2c_matrix.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine/cpu_pairs.h"
#include "stats/stats.h"

static bool is_c2c(const struct cp_measurement *m)
{
	return strcmp(m->area, "c2c") == 0 && m->nr_samples &&
	       cp_measurement_param(m, "first", -1) >= 0;
}

static const char *variant_of(const struct cp_measurement *m)
{
	return cp_measurement_param(m, "cas", 0) ? "cas" : "flag";
}

static struct cp_c2c_matrix *find(struct cp_c2c_matrix *matrices, size_t nr,
				  const struct cp_measurement *m)
{
	for (size_t i = 0; i < nr; i++)
		if (strcmp(matrices[i].mode, m->mode) == 0 &&
		    strcmp(matrices[i].variant, variant_of(m)) == 0)
			return &matrices[i];
	return NULL;
}

static void add_cpu(struct cp_c2c_matrix *matrix, unsigned int cpu)
{
	size_t i = 0;

	while (i < matrix->n && matrix->cpus[i] < cpu)
		i++;
	if (i < matrix->n && matrix->cpus[i] == cpu)
		return;
	memmove(&matrix->cpus[i + 1], &matrix->cpus[i],
		(matrix->n - i) * sizeof(*matrix->cpus));
	matrix->cpus[i] = cpu;
	matrix->n++;
}

static size_t index_of(const struct cp_c2c_matrix *matrix, unsigned int cpu)
{
	for (size_t i = 0; i < matrix->n; i++)
		if (matrix->cpus[i] == cpu)
			return i;
	return 0;
}

/* Matrices (mode, variant) and their CPUs, before the cells. */
static int collect(const struct cp_results *results,
		   struct cp_c2c_matrix *matrices, size_t *nr, size_t most)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		struct cp_c2c_matrix *matrix;

		if (!is_c2c(m))
			continue;
		matrix = find(matrices, *nr, m);
		if (!matrix) {
			matrix = &matrices[(*nr)++];
			snprintf(matrix->mode, sizeof(matrix->mode), "%s",
				 m->mode);
			snprintf(matrix->variant, sizeof(matrix->variant), "%s",
				 variant_of(m));
			matrix->cpus = calloc(2 * most, sizeof(*matrix->cpus));
			if (!matrix->cpus)
				return -ENOMEM;
		}
		add_cpu(matrix, (unsigned int)cp_measurement_param(m, "first", 0));
		add_cpu(matrix, (unsigned int)cp_measurement_param(m, "second", 0));
	}
	return 0;
}

static int allocate_cells(struct cp_c2c_matrix *matrix)
{
	size_t cells = matrix->n * matrix->n;

	matrix->median_ns = malloc(cells * sizeof(double));
	matrix->low_ns = malloc(cells * sizeof(double));
	matrix->high_ns = malloc(cells * sizeof(double));
	matrix->min_ns = malloc(cells * sizeof(double));
	matrix->pair_class = malloc(cells * sizeof(int));
	if (!matrix->median_ns || !matrix->low_ns || !matrix->high_ns ||
	    !matrix->min_ns || !matrix->pair_class)
		return -ENOMEM;
	for (size_t c = 0; c < cells; c++) {
		matrix->median_ns[c] = matrix->low_ns[c] = NAN;
		matrix->high_ns[c] = matrix->min_ns[c] = NAN;
		matrix->pair_class[c] = -1;
	}
	return 0;
}

static void fill(const struct cp_results *results,
		 struct cp_c2c_matrix *matrices, size_t nr)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		struct cp_c2c_matrix *x = is_c2c(m) ? find(matrices, nr, m)
						    : NULL;
		size_t a, b;

		if (!x)
			continue;
		a = index_of(x, (unsigned int)cp_measurement_param(m, "first", 0));
		b = index_of(x, (unsigned int)cp_measurement_param(m, "second", 0));
		for (int k = 0; k < 2; k++) {
			size_t cell = k ? b * x->n + a : a * x->n + b;

			x->median_ns[cell] = m->stats_ns.median;
			x->low_ns[cell] = m->stats_ns.median_ci_low;
			x->high_ns[cell] = m->stats_ns.median_ci_high;
			x->min_ns[cell] = m->stats_ns.min;
			x->pair_class[cell] =
				(int)cp_measurement_param(m, "pair_class", -1);
		}
	}
}

/* The line spreads of @matrix's pairs, summarized; @work holds one per
 * measurement. */
static int summarize_spreads(const struct cp_results *results,
			     struct cp_c2c_matrix *matrices, size_t nr,
			     struct cp_c2c_matrix *matrix,
			     struct cp_c2c_line_spread *work)
{
	size_t k = 0;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (is_c2c(m) && find(matrices, nr, m) == matrix &&
		    cp_c2c_line_spread_load(m, &work[k]))
			k++;
	}
	return cp_c2c_spread_summarize(work, k, &matrix->spread);
}

int cp_c2c_matrices(const struct cp_results *results,
		    struct cp_c2c_matrix **out, size_t *nr)
{
	struct cp_c2c_line_spread *spreads;
	size_t most = 0;
	struct cp_c2c_matrix *matrices;
	int ret;

	*out = NULL;
	*nr = 0;
	for (size_t i = 0; i < results->nr_measurements; i++)
		most += is_c2c(&results->measurements[i]);
	if (!most)
		return 0;
	matrices = calloc(most, sizeof(*matrices));
	if (!matrices)
		return -ENOMEM;
	ret = collect(results, matrices, nr, most);
	for (size_t i = 0; !ret && i < *nr; i++)
		ret = allocate_cells(&matrices[i]);
	if (ret) {
		cp_c2c_matrices_free(matrices, *nr);
		*nr = 0;
		return ret;
	}
	fill(results, matrices, *nr);
	spreads = malloc(most * sizeof(*spreads));
	ret = spreads ? 0 : -ENOMEM;
	for (size_t i = 0; !ret && i < *nr; i++)
		ret = summarize_spreads(results, matrices, *nr, &matrices[i],
					spreads);
	free(spreads);
	if (ret) {
		cp_c2c_matrices_free(matrices, *nr);
		*nr = 0;
		return ret;
	}
	*out = matrices;
	return 0;
}

void cp_c2c_matrices_free(struct cp_c2c_matrix *matrices, size_t nr)
{
	for (size_t i = 0; matrices && i < nr; i++) {
		free(matrices[i].cpus);
		free(matrices[i].median_ns);
		free(matrices[i].low_ns);
		free(matrices[i].high_ns);
		free(matrices[i].min_ns);
		free(matrices[i].pair_class);
	}
	free(matrices);
}

static void range_of(const struct cp_c2c_matrix *x, double *low, double *high)
{
	*low = INFINITY;
	*high = -INFINITY;
	for (size_t c = 0; c < x->n * x->n; c++) {
		if (isnan(x->median_ns[c]))
			continue;
		*low = fmin(*low, x->median_ns[c]);
		*high = fmax(*high, x->median_ns[c]);
	}
}

/* ANSI 256-colour background from green (fastest) to red (slowest). */
static int heat_colour(double value, double low, double high)
{
	static const int ramp[] = { 22, 28, 34, 70, 106, 142, 178, 172, 166,
				    160, 124 };
	size_t steps = sizeof(ramp) / sizeof(ramp[0]);
	double share = high > low ? (value - low) / (high - low) : 0;
	size_t k = (size_t)(share * (double)(steps - 1) + 0.5);

	return ramp[k < steps ? k : steps - 1];
}

void cp_c2c_matrix_print(FILE *out, const struct cp_c2c_matrix *x,
			 bool heatmap)
{
	double low, high;

	range_of(x, &low, &high);
	fprintf(out,
		"  %s, %s round trip, median ns (row: first CPU; one-way: half)\n",
		x->variant, x->mode);
	fprintf(out, "  %5s", "cpu");
	for (size_t j = 0; j < x->n; j++)
		fprintf(out, " %6u", x->cpus[j]);
	fputc('\n', out);
	for (size_t i = 0; i < x->n; i++) {
		fprintf(out, "  %5u", x->cpus[i]);
		for (size_t j = 0; j < x->n; j++) {
			double v = x->median_ns[i * x->n + j];

			if (isnan(v))
				fprintf(out, " %6s", "-");
			else if (heatmap)
				fprintf(out, " \033[48;5;%dm%6.0f\033[0m",
					heat_colour(v, low, high), v);
			else
				fprintf(out, " %6.0f", v);
		}
		fputc('\n', out);
	}
}

static int compare_doubles(const void *a, const void *b)
{
	double left = *(const double *)a, right = *(const double *)b;

	return (left > right) - (left < right);
}

size_t cp_c2c_class_values(const struct cp_c2c_matrix *x, int cls,
			   double *medians, double *fastest)
{
	size_t k = 0;

	*fastest = INFINITY;
	for (size_t i = 0; i < x->n; i++)
		for (size_t j = i + 1; j < x->n; j++) {
			size_t c = i * x->n + j;

			if (x->pair_class[c] != cls ||
			    !isfinite(x->median_ns[c]))
				continue;
			medians[k++] = x->median_ns[c];
			*fastest = fmin(*fastest, x->min_ns[c]);
		}
	qsort(medians, k, sizeof(*medians), compare_doubles);
	return k;
}

void cp_c2c_summary_print(FILE *out, const struct cp_c2c_matrix *x)
{
	double *values = malloc(x->n * x->n * sizeof(*values));

	if (!values)
		return;
	for (int cls = 0; cls < CP_NR_PAIR_CLASSES; cls++) {
		double fastest, median;
		size_t k = cp_c2c_class_values(x, cls, values, &fastest);

		if (!k)
			continue;
		median = cp_stats_median(values, k);
		fprintf(out,
			"  %-6s %-6s %-14s %6zu pairs  min %7.1f  median %7.1f  max %7.1f ns\n",
			x->variant, x->mode,
			cp_pair_class_name((enum cp_pair_class)cls), k,
			values[0], median, values[k - 1]);
		fprintf(out,
			"         one-way median %.1f ns; fastest sample %.1f ns, one-way %.1f ns\n",
			median / 2, fastest, fastest / 2);
	}
	free(values);
	cp_c2c_spread_print(out, x->variant, x->mode, &x->spread);
}

void cp_c2c_matrices_csv(FILE *out, const struct cp_c2c_matrix *matrices,
			 size_t nr)
{
	fprintf(out, "mode,variant,first,second,pair_class,median_ns,ci95_low_ns,ci95_high_ns,min_ns,one_way_median_ns,one_way_min_ns\n");
	for (size_t m = 0; m < nr; m++) {
		const struct cp_c2c_matrix *x = &matrices[m];

		for (size_t i = 0; i < x->n; i++)
			for (size_t j = i + 1; j < x->n; j++) {
				size_t c = i * x->n + j;

				if (isnan(x->median_ns[c]))
					continue;
				fprintf(out,
					"%s,%s,%u,%u,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n",
					x->mode, x->variant, x->cpus[i],
					x->cpus[j],
					cp_pair_class_name((enum cp_pair_class)
								   x->pair_class[c]),
					x->median_ns[c], x->low_ns[c],
					x->high_ns[c], x->min_ns[c],
					x->median_ns[c] / 2, x->min_ns[c] / 2);
			}
	}
}

/* The cells scaled by @factor (1/2: one-way), null where not measured. */
static json_object *rows_of(const struct cp_c2c_matrix *x, const double *cells,
			    double factor)
{
	json_object *rows = json_object_new_array();

	for (size_t i = 0; rows && i < x->n; i++) {
		json_object *row = json_object_new_array();

		for (size_t j = 0; row && j < x->n; j++) {
			double v = cells[i * x->n + j] * factor;

			json_object_array_add(row, isnan(v) ? NULL
						 : json_object_new_double(v));
		}
		json_object_array_add(rows, row);
	}
	return rows;
}

static json_object *matrix_json(const struct cp_c2c_matrix *x)
{
	json_object *object = json_object_new_object();
	json_object *cpus = json_object_new_array();

	for (size_t i = 0; cpus && i < x->n; i++)
		json_object_array_add(cpus, json_object_new_int64(x->cpus[i]));
	json_object_object_add(object, "mode", json_object_new_string(x->mode));
	json_object_object_add(object, "variant",
			       json_object_new_string(x->variant));
	json_object_object_add(object, "cpus", cpus);
	json_object_object_add(object, "median_ns",
			       rows_of(x, x->median_ns, 1));
	json_object_object_add(object, "ci95_low_ns", rows_of(x, x->low_ns, 1));
	json_object_object_add(object, "ci95_high_ns",
			       rows_of(x, x->high_ns, 1));
	json_object_object_add(object, "min_ns", rows_of(x, x->min_ns, 1));
	json_object_object_add(object, "one_way_median_ns",
			       rows_of(x, x->median_ns, 0.5));
	json_object_object_add(object, "one_way_min_ns",
			       rows_of(x, x->min_ns, 0.5));
	return object;
}

int cp_c2c_matrices_json(FILE *out, const struct cp_c2c_matrix *matrices,
			 size_t nr)
{
	json_object *root = json_object_new_object();
	json_object *list = json_object_new_array();
	int ret = 0;

	if (!root || !list) {
		json_object_put(root);
		json_object_put(list);
		return -ENOMEM;
	}
	json_object_object_add(root, "schema",
			       json_object_new_string("cacheprobe-c2c-matrix/1"));
	for (size_t i = 0; i < nr; i++)
		json_object_array_add(list, matrix_json(&matrices[i]));
	json_object_object_add(root, "matrices", list);
	if (fprintf(out, "%s\n",
		    json_object_to_json_string_ext(root,
						   JSON_C_TO_STRING_PLAIN |
						   JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		ret = -EIO;
	json_object_put(root);
	return ret;
}

static json_object *pair_json(const struct cp_measurement *m)
{
	json_object *pair = json_object_new_object();
	struct cp_c2c_line_spread spread;

	json_object_object_add(pair, "mode", json_object_new_string(m->mode));
	json_object_object_add(pair, "variant",
			       json_object_new_string(variant_of(m)));
	json_object_object_add(pair, "first", json_object_new_int64(
			cp_measurement_param(m, "first", 0)));
	json_object_object_add(pair, "second", json_object_new_int64(
			cp_measurement_param(m, "second", 0)));
	json_object_object_add(pair, "pair_class", json_object_new_string(
			cp_pair_class_name((enum cp_pair_class)
					   cp_measurement_param(m, "pair_class",
								0))));
	json_object_object_add(pair, "round_trip_median_ns",
			       json_object_new_double(m->stats_ns.median));
	json_object_object_add(pair, "round_trip_min_ns",
			       json_object_new_double(m->stats_ns.min));
	json_object_object_add(pair, "one_way_median_ns",
			       json_object_new_double(m->stats_ns.median / 2));
	json_object_object_add(pair, "one_way_min_ns",
			       json_object_new_double(m->stats_ns.min / 2));
	if (cp_c2c_line_spread_load(m, &spread))
		json_object_object_add(pair, "line_spread",
				       cp_c2c_line_spread_json(&spread));
	return pair;
}

json_object *cp_c2c_pairs_json(const struct cp_results *results)
{
	json_object *pairs = NULL;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (!is_c2c(m))
			continue;
		if (!pairs)
			pairs = json_object_new_array();
		json_object_array_add(pairs, pair_json(m));
	}
	return pairs;
}
