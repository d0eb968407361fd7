// SPDX-License-Identifier: GPL-2.0
/*
 * The align area in the report: per access kind and buffer, the penalty
 * against offset 0 by offset, one line per width, the line boundaries
 * marked; per kind, the same as an offset x width heatmap; the page splits
 * by width; the classic pattern; the tables of the numbers beneath.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/format.h"
#include "areas/align/report_align.h"
#include "report/report_area.h"
#include "report/svg_chart.h"

#define MAX_SERIES 16
#define MAX_MARKERS 4

static void buffer_text(int64_t bytes, char *out, size_t len)
{
	cp_format_size(bytes > 0 ? (uint64_t)bytes : 0, out, len);
}

/* The line boundaries in a sweep's range, and the detected line size
 * where it differs from the system's. */
static size_t line_markers(const struct align_sweep *first,
			   struct svg_marker *markers,
			   char labels[][48])
{
	size_t n = 0;

	for (int64_t k = 1; k <= 2 && first->line > 0; k++) {
		snprintf(labels[n], 48, "%s%" PRId64 " B",
			 k == 1 ? "line boundary " : "", k * first->line);
		markers[n] = (struct svg_marker){
			.x = (double)(k * first->line), .label = labels[n] };
		n++;
	}
	if (first->detected > 0 && first->detected != first->line) {
		snprintf(labels[n], 48, "detected line %" PRId64 " B",
			 first->detected);
		markers[n] = (struct svg_marker){
			.x = (double)first->detected, .label = labels[n] };
		n++;
	}
	return n;
}

/* Offset charts draw the sweeps of three offsets or more; the others
 * are a step, in the line-end bars. */
static bool charted(const struct align_sweep *sweep)
{
	return !align_sweep_is_page(sweep) && align_sweep_is_swept(sweep);
}

static bool same_chart(const struct align_sweep *a,
		       const struct align_sweep *b)
{
	return charted(a) && charted(b) && strcmp(a->kind, b->kind) == 0 &&
	       a->buffer == b->buffer;
}

/* Whether an earlier sweep already drew @sweeps->sweep[i]'s chart. */
static bool drawn_before(const struct align_sweeps *sweeps, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (same_chart(&sweeps->sweep[k], &sweeps->sweep[i]))
			return true;
	return false;
}

/* Penalty against offset, one line per width, for the kind and buffer of
 * @sweeps->sweep[first]. */
static void offset_chart(FILE *out, const char *mode,
			 const struct align_sweeps *sweeps, size_t first)
{
	const struct align_sweep *head = &sweeps->sweep[first];
	struct svg_series series[MAX_SERIES];
	char names[MAX_SERIES][24], title[128], buffer[32];
	struct svg_marker markers[MAX_MARKERS];
	char labels[MAX_MARKERS][48];
	size_t n = 0;

	for (size_t i = first; i < sweeps->n && n < MAX_SERIES; i++) {
		const struct align_sweep *sweep = &sweeps->sweep[i];

		if (!same_chart(head, sweep))
			continue;
		snprintf(names[n], sizeof(names[n]), "%" PRId64 "-byte",
			 sweep->width);
		series[n] = (struct svg_series){
			.name = names[n], .n = sweep->n, .x = sweep->offset,
			.y = sweep->ratio, .y_low = sweep->low,
			.y_high = sweep->high,
		};
		n++;
	}
	buffer_text(head->buffer, buffer, sizeof(buffer));
	snprintf(title, sizeof(title), "%s by offset, %s buffer (%s mode)",
		 head->kind, buffer, mode);
	svg_line_chart_write(out, &(struct svg_line_chart){
		.title = title,
		.x = { .label = "offset of the access into its slot (bytes)",
		       .format = SVG_FORMAT_BYTES, .from_zero = true },
		.y = { .label = "penalty against offset 0 (x, 95 % interval)",
		       .from_zero = true },
		.nr_series = n, .series = series,
		.nr_markers = line_markers(head, markers, labels),
		.markers = markers,
	});
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The distinct offsets of the line sweeps of @kind, ascending. */
static size_t kind_offsets(const struct align_sweeps *sweeps,
			   const char *kind, double *offsets)
{
	size_t n = 0, distinct = 0;

	for (size_t i = 0; i < sweeps->n; i++) {
		const struct align_sweep *sweep = &sweeps->sweep[i];

		if (!charted(sweep) || strcmp(sweep->kind, kind))
			continue;
		memcpy(offsets + n, sweep->offset, sweep->n * sizeof(double));
		n += sweep->n;
	}
	qsort(offsets, n, sizeof(*offsets), compare_doubles);
	for (size_t i = 0; i < n; i++)
		if (!distinct || offsets[distinct - 1] != offsets[i])
			offsets[distinct++] = offsets[i];
	return distinct;
}

struct grid {
	size_t rows, cols;
	double *offsets, *values;
	char (*row_text)[48], (*col_text)[16];
	const char **row_names, **col_names;
};

static void grid_free(struct grid *grid)
{
	free(grid->offsets);
	free(grid->values);
	free(grid->row_text);
	free(grid->col_text);
	free(grid->row_names);
	free(grid->col_names);
}

static int grid_alloc(struct grid *grid, size_t rows, size_t points)
{
	*grid = (struct grid){
		.offsets = malloc((points ? points : 1) * sizeof(double)),
		.values = report_nans(rows * points),
		.row_text = calloc(rows ? rows : 1, sizeof(*grid->row_text)),
		.col_text = calloc(points ? points : 1,
				   sizeof(*grid->col_text)),
		.row_names = calloc(rows ? rows : 1, sizeof(char *)),
		.col_names = calloc(points ? points : 1, sizeof(char *)),
	};
	return grid->offsets && grid->values && grid->row_text &&
	       grid->col_text && grid->row_names && grid->col_names ? 0 : -1;
}

/* Row @row of the grid: @sweep's penalties in their offsets' columns. */
static void grid_row(struct grid *grid, size_t row,
		     const struct align_sweep *sweep)
{
	char buffer[32];

	buffer_text(sweep->buffer, buffer, sizeof(buffer));
	snprintf(grid->row_text[row], sizeof(grid->row_text[row]),
		 "%" PRId64 " B, %s", sweep->width, buffer);
	grid->row_names[row] = grid->row_text[row];
	for (size_t p = 0, c = 0; p < sweep->n; p++) {
		while (c < grid->cols && grid->offsets[c] < sweep->offset[p])
			c++;
		if (c < grid->cols)
			grid->values[row * grid->cols + c] = sweep->ratio[p];
	}
}

/* Offset x width: the penalty of every line sweep of @kind. */
static void kind_heatmap(FILE *out, const char *mode,
			 const struct align_sweeps *sweeps, const char *kind)
{
	size_t rows = 0, points = 0;
	struct grid grid;
	char title[128];

	for (size_t i = 0; i < sweeps->n; i++)
		if (charted(&sweeps->sweep[i]) &&
		    !strcmp(sweeps->sweep[i].kind, kind)) {
			rows++;
			points += sweeps->sweep[i].n;
		}
	if (grid_alloc(&grid, rows, points) == 0) {
		grid.cols = kind_offsets(sweeps, kind, grid.offsets);
		for (size_t c = 0; c < grid.cols; c++) {
			snprintf(grid.col_text[c], sizeof(grid.col_text[c]),
				 "%.0f", grid.offsets[c]);
			grid.col_names[c] = grid.col_text[c];
		}
		for (size_t i = 0; i < sweeps->n; i++)
			if (charted(&sweeps->sweep[i]) &&
			    !strcmp(sweeps->sweep[i].kind, kind))
				grid_row(&grid, grid.rows++, &sweeps->sweep[i]);
		snprintf(title, sizeof(title),
			 "%s: penalty by offset and width (%s mode)", kind,
			 mode);
		svg_heatmap_write(out, &(struct svg_heatmap){
			.title = title,
			.row_label = "access width, buffer",
			.col_label = "offset into the slot (bytes)",
			.nr_rows = grid.rows, .nr_cols = grid.cols,
			.row_names = grid.row_names,
			.col_names = grid.col_names,
			.values = grid.values,
			.value_axis = { .label = "penalty against offset 0 (x)" },
		});
	}
	grid_free(&grid);
}

/* Sweeps of @kind with three offsets or more. */
static size_t swept_of(const struct align_sweeps *sweeps, const char *kind)
{
	size_t n = 0;

	for (size_t i = 0; i < sweeps->n; i++)
		n += charted(&sweeps->sweep[i]) &&
		     !strcmp(sweeps->sweep[i].kind, kind);
	return n;
}

/* A heat map per kind where two widths or more were swept: with one, it
 * is the line chart again; with pairs, a grid of empty cells. */
static void heatmaps(FILE *out, const char *mode,
		     const struct align_sweeps *sweeps)
{
	for (size_t i = 0; i < sweeps->n; i++) {
		bool seen = false;

		if (!charted(&sweeps->sweep[i]))
			continue;
		for (size_t k = 0; k < i; k++)
			seen |= charted(&sweeps->sweep[k]) &&
				!strcmp(sweeps->sweep[k].kind,
					sweeps->sweep[i].kind);
		if (!seen && swept_of(sweeps, sweeps->sweep[i].kind) >= 2)
			kind_heatmap(out, mode, sweeps, sweeps->sweep[i].kind);
	}
}

static void render(FILE *out, const struct cp_results *results,
		   const char *mode)
{
	struct align_sweeps *sweeps = calloc(1, sizeof(*sweeps));

	if (!sweeps)
		return;
	if (align_sweeps_collect(results, mode, sweeps) == 0) {
		for (size_t i = 0; i < sweeps->n; i++)
			if (charted(&sweeps->sweep[i]) &&
			    !drawn_before(sweeps, i))
				offset_chart(out, mode, sweeps, i);
		heatmaps(out, mode, sweeps);
		align_bar_chart(out, mode, sweeps, ALIGN_BARS_LINE);
		align_bar_chart(out, mode, sweeps, ALIGN_BARS_PAGE);
		align_classic_chart(out, results, mode);
		align_tables(out, results, mode, sweeps);
	}
	align_sweeps_free(sweeps);
	free(sweeps);
}

const struct report_renderer report_align = {
	.area = "align",
	.question = "What does an access that straddles two cache lines, or two pages, cost? The same access at each offset into its slot, against offset 0.",
	.render = render,
};
