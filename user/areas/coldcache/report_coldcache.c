// SPDX-License-Identifier: GPL-2.0
/*
 * The coldcache area in the report: per eviction method, the cost of one
 * eviction and the residual warmth (share of the working set's lines each
 * level still served in the first pass, stacked), the factor sweep when it
 * ran; in kernel mode the first-pass cost the module timed and, where
 * it timed lines one by one (warm, wbinvd), their shares.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "areas/coldcache/coldcache_floor.h"
#include "report/report_area.h"
#include "report/svg_chart.h"

#define PASS " first pass"
#define EVICT " evict"
#define SWEEP_PREFIX "garbage-planned x"
#define MAX_ITEMS 16
#define MAX_LEVELS 6

/* Methods (categories) and working-set sizes (series) of the passes. */
struct grid {
	size_t nr_methods, nr_sizes;
	char methods[MAX_ITEMS][32], sizes[MAX_ITEMS][32];
	const char *method_names[MAX_ITEMS];
};

static bool ends_with(const char *text, const char *suffix)
{
	size_t len = strlen(text), suffix_len = strlen(suffix);

	return len >= suffix_len &&
	       strcmp(text + len - suffix_len, suffix) == 0;
}

/* A first pass of the main table: "<method> <size> first pass". */
static bool is_pass(const struct cp_measurement *m, const char *mode)
{
	return report_is(m, "coldcache", mode) && m->nr_samples &&
	       ends_with(m->name, PASS) &&
	       strncmp(m->name, SWEEP_PREFIX, strlen(SWEEP_PREFIX)) != 0;
}

static size_t index_of(char list[][32], size_t *n, const char *item)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(list[i], item) == 0)
			return i;
	if (*n == MAX_ITEMS)
		return MAX_ITEMS;
	snprintf(list[*n], 32, "%s", item);
	return (*n)++;
}

/* Split "garbage-naive 1 MiB first pass" into method and size. */
static void split(const char *name, char *method, char *size)
{
	size_t method_len = strcspn(name, " ");
	size_t end = strlen(name) - strlen(PASS);

	snprintf(method, 32, "%.*s", (int)method_len, name);
	snprintf(size, 32, "%.*s", (int)(end - method_len - 1),
		 name + method_len + 1);
}

static void grid_collect(const struct cp_results *results, const char *mode,
			 struct grid *grid)
{
	memset(grid, 0, sizeof(*grid));
	for (size_t i = 0; i < results->nr_measurements; i++) {
		char method[32], size[32];

		if (!is_pass(&results->measurements[i], mode))
			continue;
		split(results->measurements[i].name, method, size);
		index_of(grid->methods, &grid->nr_methods, method);
		index_of(grid->sizes, &grid->nr_sizes, size);
	}
	for (size_t i = 0; i < grid->nr_methods; i++)
		grid->method_names[i] = grid->methods[i];
}

static const struct cp_measurement *
find(const struct cp_results *results, const char *mode, const char *method,
     const char *size, const char *what)
{
	char name[96];

	snprintf(name, sizeof(name), "%s %s%s", method, size, what);
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (report_is(m, "coldcache", mode) && m->nr_samples &&
		    strcmp(m->name, name) == 0)
			return m;
	}
	return NULL;
}

/* Bars of @what ("evict" or "first pass") per method, one series per size:
 * medians with their intervals. */
static void cost_chart(FILE *out, const struct cp_results *results,
		       const char *mode, const struct grid *grid,
		       const char *what, const char *title, const char *label,
		       double floor_ns)
{
	size_t cells = MAX_ITEMS * MAX_ITEMS;
	double *y = report_nans(cells), *low = report_nans(cells),
	       *high = report_nans(cells);
	struct svg_series series[MAX_ITEMS];

	for (size_t s = 0; y && low && high && s < grid->nr_sizes; s++) {
		double *row = y + s * MAX_ITEMS;

		for (size_t c = 0; c < grid->nr_methods; c++) {
			const struct cp_measurement *m = find(
				results, mode, grid->methods[c],
				grid->sizes[s], what);

			if (!m)
				continue;
			row[c] = m->stats_ns.median;
			low[s * MAX_ITEMS + c] = m->stats_ns.median_ci_low;
			high[s * MAX_ITEMS + c] = m->stats_ns.median_ci_high;
		}
		series[s] = (struct svg_series){
			.name = grid->sizes[s], .n = grid->nr_methods,
			.y = row, .y_low = low + s * MAX_ITEMS,
			.y_high = high + s * MAX_ITEMS,
		};
	}
	if (y && low && high)
		svg_bar_chart_write(out, &(struct svg_bar_chart){
			.title = title, .category_label = "eviction method",
			.nr_categories = grid->nr_methods,
			.categories = grid->method_names,
			.y = { .label = label, .log = true,
			       .format = SVG_FORMAT_NS },
			.floor = floor_ns,
			.floor_what = "the line timer's spread",
			.nr_series = grid->nr_sizes, .series = series,
		});
	free(y);
	free(low);
	free(high);
}

/* A residual-share parameter: "<level>_ppm", not "cached_..._ppm". */
static bool is_level_param(const char *name)
{
	return ends_with(name, "_ppm") && strncmp(name, "cached_", 7) != 0;
}

/* "L1d" from "l1d_ppm", "memory" from "memory_ppm". */
static void level_name(const char *param, char *out, size_t len)
{
	size_t n = strlen(param) - strlen("_ppm");

	snprintf(out, len, "%.*s", (int)n, param);
	if (out[0] == 'l' && isdigit((unsigned char)out[1]))
		out[0] = 'L';
}

struct warmth {
	size_t nr_bars, nr_levels;
	char bar_names[MAX_ITEMS * MAX_ITEMS][64];
	const char *bars[MAX_ITEMS * MAX_ITEMS];
	char param[MAX_LEVELS][32], level[MAX_LEVELS][32];
	double share[MAX_LEVELS][MAX_ITEMS * MAX_ITEMS];
};

static void warmth_add(struct warmth *warmth, const struct cp_measurement *m)
{
	size_t bar = warmth->nr_bars++;
	size_t stem = strlen(m->name) - strlen(PASS);

	snprintf(warmth->bar_names[bar], sizeof(warmth->bar_names[bar]),
		 "%.*s", (int)stem, m->name);
	warmth->bars[bar] = warmth->bar_names[bar];
	for (size_t p = 0; p < m->nr_params; p++) {
		const struct cp_param *param = &m->params[p];
		size_t l;

		if (!is_level_param(param->name))
			continue;
		l = index_of(warmth->param, &warmth->nr_levels, param->name);
		if (l >= MAX_LEVELS)
			continue;
		/* -1: merged into the next level, whose share holds it. */
		warmth->share[l][bar] = param->value < 0
						? NAN : (double)param->value / 1e4;
	}
}

/* Kernel mode classifies the lines of some methods only (warm, wbinvd). */
static bool has_level_params(const struct cp_measurement *m)
{
	for (size_t p = 0; p < m->nr_params; p++)
		if (is_level_param(m->params[p].name))
			return true;
	return false;
}

static void warmth_chart(FILE *out, const struct cp_results *results,
			 const char *mode)
{
	bool kernel = strcmp(mode, "kernel") == 0;
	struct warmth *warmth = calloc(1, sizeof(*warmth));
	struct svg_series series[MAX_LEVELS];
	char title[96];

	if (!warmth)
		return;
	for (size_t l = 0; l < MAX_LEVELS; l++)
		for (size_t b = 0; b < MAX_ITEMS * MAX_ITEMS; b++)
			warmth->share[l][b] = NAN;
	for (size_t i = 0; i < results->nr_measurements &&
	     warmth->nr_bars < MAX_ITEMS * MAX_ITEMS; i++)
		if (is_pass(&results->measurements[i], mode) &&
		    has_level_params(&results->measurements[i]))
			warmth_add(warmth, &results->measurements[i]);
	for (size_t l = 0; l < warmth->nr_levels; l++) {
		level_name(warmth->param[l], warmth->level[l],
			   sizeof(warmth->level[l]));
		series[l] = (struct svg_series){
			.name = warmth->level[l], .n = warmth->nr_bars,
			.y = warmth->share[l] };
	}
	snprintf(title, sizeof(title),
		 "Residual warmth: where the first pass found the lines (%s mode)",
		 mode);
	if (warmth->nr_levels)
		svg_bar_chart_write(out, &(struct svg_bar_chart){
			.title = title,
			.category_label = "method and working set",
			.nr_categories = warmth->nr_bars,
			.categories = warmth->bars,
			.y = { .label = kernel ? "share of the lines timed one by one (%)"
					       : "share of lines served (%, median)",
			       .format = SVG_FORMAT_PERCENT },
			.stacked = true,
			.nr_series = warmth->nr_levels, .series = series,
		});
	free(warmth);
}

/* "garbage-planned x0.25 1 MiB first pass": factor 0.25, size "1 MiB". */
static bool sweep_point(const struct cp_measurement *m, const char *mode,
			double *factor, char *size)
{
	int used = 0;

	if (!report_is(m, "coldcache", mode) || !m->nr_samples ||
	    !ends_with(m->name, PASS) ||
	    sscanf(m->name, SWEEP_PREFIX "%lf %n", factor, &used) != 1 ||
	    !used)
		return false;
	snprintf(size, 32, "%.*s",
		 (int)(strlen(m->name) - strlen(PASS) - (size_t)used),
		 m->name + used);
	return true;
}

struct sweep {
	size_t nr_sizes;
	char sizes[MAX_ITEMS][32];
	size_t n[MAX_ITEMS];
	double factor[MAX_ITEMS][MAX_ITEMS], cached[MAX_ITEMS][MAX_ITEMS];
};

static void sweep_chart(FILE *out, const struct cp_results *results,
			const char *mode)
{
	struct sweep *sweep = calloc(1, sizeof(*sweep));
	struct svg_series series[MAX_ITEMS];
	char title[96];

	if (!sweep)
		return;
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		double factor;
		char size[32];
		size_t s, k;

		if (!sweep_point(m, mode, &factor, size))
			continue;
		s = index_of(sweep->sizes, &sweep->nr_sizes, size);
		if (s == MAX_ITEMS || sweep->n[s] == MAX_ITEMS)
			continue;
		k = sweep->n[s]++;
		sweep->factor[s][k] = factor;
		sweep->cached[s][k] =
			(double)cp_measurement_param(m, "cached_median_ppm", 0) /
			1e4;
	}
	for (size_t s = 0; s < sweep->nr_sizes; s++)
		series[s] = (struct svg_series){
			.name = sweep->sizes[s], .n = sweep->n[s],
			.x = sweep->factor[s], .y = sweep->cached[s] };
	snprintf(title, sizeof(title),
		 "garbage-planned: lines still cached by garbage size (%s mode)",
		 mode);
	if (sweep->nr_sizes)
		svg_line_chart_write(out, &(struct svg_line_chart){
			.title = title,
			.x = { .label = "garbage read (times the last-level cache, log scale)",
			       .log = true },
			.y = { .label = "lines served by a cache (%, median)",
			       .format = SVG_FORMAT_PERCENT, .from_zero = true },
			.nr_series = sweep->nr_sizes, .series = series,
		});
	free(sweep);
}

/* The pass whose levels are the table's columns: the first with any
 * (kernel mode classifies the lines of some methods only), or NULL. */
static const struct cp_measurement *
columns_of(const struct cp_results *results, const char *mode)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (is_pass(m, mode) && has_level_params(m))
			return m;
	}
	return NULL;
}

static void table_headers(const struct cp_measurement *columns,
			  char *headers, size_t len)
{
	snprintf(headers, len,
		 "method|working set|eviction (median)|95 %% interval|first pass (per access)");
	for (size_t p = 0; columns && p < columns->nr_params; p++) {
		char level[32];

		if (!is_level_param(columns->params[p].name))
			continue;
		level_name(columns->params[p].name, level, sizeof(level));
		snprintf(headers + strlen(headers), len - strlen(headers),
			 "|%s", level);
	}
	snprintf(headers + strlen(headers), len - strlen(headers),
		 "|worst repetition: cached|verdict");
}

/* @pass's share of each level of @columns, "-" where it has none. */
static void level_cells(FILE *out, const struct cp_measurement *columns,
			const struct cp_measurement *pass)
{
	for (size_t p = 0; columns && p < columns->nr_params; p++) {
		const char *name = columns->params[p].name;
		int64_t ppm = cp_measurement_param(pass, name, INT64_MIN);

		if (!is_level_param(name))
			continue;
		if (ppm == INT64_MIN)
			report_cell(out, "-");
		else if (ppm < 0)
			report_cell(out, "merged into the next");
		else
			report_cell_percent(out, (double)ppm / 1e4);
	}
}

static void table_row(FILE *out, const struct cp_results *results,
		      const char *mode, const struct grid *grid, size_t c,
		      size_t s, const struct cp_measurement *columns)
{
	const struct cp_measurement *pass = find(
		results, mode, grid->methods[c], grid->sizes[s], PASS);
	const struct cp_measurement *evict = find(
		results, mode, grid->methods[c], grid->sizes[s], EVICT);

	if (!pass)
		return;
	report_row_open(out);
	report_cell(out, grid->methods[c]);
	report_cell(out, grid->sizes[s]);
	report_cell_ns(out, evict ? evict->stats_ns.median : NAN);
	if (evict)
		report_cell_interval_ns(out, evict->stats_ns.median_ci_low,
					evict->stats_ns.median_ci_high);
	else
		report_cell(out, "-");
	if (cp_coldcache_under_floor(results, pass))
		report_cell(out, "< floor");
	else
		report_cell_ns(out, pass->stats_ns.median);
	level_cells(out, columns, pass);
	report_cell_percent(out,
			    cp_measurement_param(pass, "cached_worst_ppm", -1) < 0
				    ? NAN
				    : (double)cp_measurement_param(
					      pass, "cached_worst_ppm", 0) / 1e4);
	report_cell(out, pass->note);
	report_row_close(out);
}

static void table(FILE *out, const struct cp_results *results,
		  const char *mode, const struct grid *grid)
{
	const struct cp_measurement *columns = columns_of(results, mode);
	char headers[512], caption[96];

	table_headers(columns, headers, sizeof(headers));
	snprintf(caption, sizeof(caption),
		 "coldcache, %s mode: eviction cost and residual warmth",
		 mode);
	report_table_open(out, caption, headers);
	for (size_t c = 0; c < grid->nr_methods; c++)
		for (size_t s = 0; s < grid->nr_sizes; s++)
			table_row(out, results, mode, grid, c, s, columns);
	report_table_close(out);
}

static bool any_eviction(const struct cp_results *results, const char *mode,
			 const struct grid *grid)
{
	for (size_t c = 0; c < grid->nr_methods; c++)
		for (size_t s = 0; s < grid->nr_sizes; s++)
			if (find(results, mode, grid->methods[c],
				 grid->sizes[s], EVICT))
				return true;
	return false;
}

static void render(FILE *out, const struct cp_results *results,
		   const char *mode)
{
	struct grid grid;
	char title[96];

	grid_collect(results, mode, &grid);
	if (!grid.nr_methods)
		return;
	if (any_eviction(results, mode, &grid)) {
		snprintf(title, sizeof(title),
			 "Cost of one eviction, by method (%s mode)", mode);
		cost_chart(out, results, mode, &grid, EVICT, title,
			   "time of one eviction (ns, log scale)", 0);
	}
	warmth_chart(out, results, mode);
	snprintf(title, sizeof(title),
		 "First pass after eviction, per access (%s mode)", mode);
	cost_chart(out, results, mode, &grid, PASS, title,
		   "time per access (ns, log scale)",
		   cp_coldcache_floor_ns(results, mode));
	sweep_chart(out, results, mode);
	table(out, results, mode, &grid);
}

const struct report_renderer report_coldcache = {
	.area = "coldcache",
	.question = "How cold is \"cold\"? Cost and effectiveness of each way of evicting a working set from the caches.",
	.render = render,
};
