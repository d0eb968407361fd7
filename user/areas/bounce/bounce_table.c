// SPDX-License-Identifier: GPL-2.0
#include "areas/bounce/bounce_table.h"

#include <stdbool.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLUMNS 33

static bool is_sweep_row(const struct cp_measurement *m)
{
	return strcmp(m->area, "bounce") == 0 && m->nr_samples &&
	       cp_measurement_param(m, "distance_bytes", -1) >= 0;
}

/* The sweep a row belongs to: its name before " d=". */
static size_t stem_length(const struct cp_measurement *m)
{
	const char *mark = strstr(m->name, " d=");

	return mark ? (size_t)(mark - m->name) : strlen(m->name);
}

static bool same_sweep(const struct cp_measurement *a,
		       const struct cp_measurement *b)
{
	return strcmp(a->mode, b->mode) == 0 &&
	       stem_length(a) == stem_length(b) &&
	       strncmp(a->name, b->name, stem_length(a)) == 0;
}

static int compare_distances(const void *a, const void *b)
{
	int64_t left = *(const int64_t *)a, right = *(const int64_t *)b;

	return (left > right) - (left < right);
}

/* Every distance measured, ascending, into @columns. */
static size_t collect_columns(const struct cp_results *results,
			      int64_t *columns)
{
	size_t n = 0;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		int64_t d = cp_measurement_param(m, "distance_bytes", -1);
		bool known = false;

		if (!is_sweep_row(m))
			continue;
		for (size_t k = 0; k < n; k++)
			known |= columns[k] == d;
		if (!known && n < MAX_COLUMNS)
			columns[n++] = d;
	}
	qsort(columns, n, sizeof(*columns), compare_distances);
	return n;
}

/* The reason of an undetermined one is among the warnings beneath, where
 * a line has room for it. */
static void print_granularity(FILE *out, int64_t granularity,
			      bool undetermined)
{
	if (undetermined)
		fprintf(out, "  undetermined\n");
	else if (granularity > 0)
		fprintf(out, "  %" PRId64 " B\n", granularity);
	else
		fprintf(out, "  none\n");
}

/* The row of the sweep starting at measurement @first. */
static void print_sweep(FILE *out, const struct cp_results *results,
			size_t first, const int64_t *columns, size_t n)
{
	const struct cp_measurement *head = &results->measurements[first];
	int64_t granularity = -1;
	bool undetermined = false;

	fprintf(out, "  %-30.*s %-6s", (int)stem_length(head), head->name,
		head->mode);
	for (size_t c = 0; c < n; c++) {
		int64_t milli = -1;

		for (size_t i = first; i < results->nr_measurements; i++) {
			const struct cp_measurement *m =
				&results->measurements[i];

			if (!is_sweep_row(m) || !same_sweep(m, head) ||
			    cp_measurement_param(m, "distance_bytes", -1) !=
				    columns[c])
				continue;
			milli = cp_measurement_param(m, "slowdown_padded_milli",
						     -1);
			granularity = cp_measurement_param(
				m, "granularity_bytes", granularity);
			undetermined |= cp_measurement_param(
				m, "granularity_undetermined", 0) == 1;
		}
		if (milli < 0)
			fprintf(out, " %6s", "-");
		else
			fprintf(out, " %6.2f", (double)milli / 1000);
	}
	print_granularity(out, granularity, undetermined);
}

static bool first_of_sweep(const struct cp_results *results, size_t index)
{
	for (size_t i = 0; i < index; i++)
		if (is_sweep_row(&results->measurements[i]) &&
		    same_sweep(&results->measurements[i],
			       &results->measurements[index]))
			return false;
	return true;
}

/* The side-by-side runs' ratio against padded counters, when taken. */
static void print_classic_padded(FILE *out, const struct cp_measurement *m)
{
	int64_t milli = cp_measurement_param(m, "classic_padded_milli", -1);

	if (milli < 0)
		return;
	fprintf(out,
		"    against padded counters (%" PRId64 " bytes apart), runs side by side: %.2fx slower, 95%% interval %.2f..%.2f\n",
		cp_measurement_param(m, "classic_padded_bytes", 0),
		milli / 1000.0,
		cp_measurement_param(m, "classic_padded_low_milli", 0) / 1000.0,
		cp_measurement_param(m, "classic_padded_high_milli", 0) / 1000.0);
}

static void print_classic(FILE *out, const struct cp_results *results)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		double ratio, low, high;
		unsigned int apart;

		if (!is_sweep_row(m) ||
		    sscanf(m->note, "classic x%lf [%lf, %lf] vs %u B apart",
			   &ratio, &low, &high, &apart) != 4)
			continue;
		fprintf(out,
			"  classic case (%.*s, %s): two 4-byte counters side by side against %u bytes apart, %" PRId64 " threads: %.2fx slower, 95%% interval %.2f..%.2f\n",
			(int)stem_length(m), m->name, m->mode, apart,
			cp_measurement_param(m, "threads", 0), ratio, low,
			high);
		print_classic_padded(out, m);
	}
}

void cli_print_bounce(FILE *out, const struct cp_results *results)
{
	int64_t columns[MAX_COLUMNS];
	size_t n = collect_columns(results, columns);

	if (!n)
		return;
	fprintf(out, "\nbounce: slowdown against padded counters, by distance in bytes\n");
	fprintf(out, "  %-30s %-6s", "group, increments, counter", "mode");
	for (size_t c = 0; c < n; c++)
		fprintf(out, " %6" PRId64, columns[c]);
	fprintf(out, "  granularity\n");
	for (size_t i = 0; i < results->nr_measurements; i++)
		if (is_sweep_row(&results->measurements[i]) &&
		    first_of_sweep(results, i))
			print_sweep(out, results, i, columns, n);
	print_classic(out, results);
}
