// SPDX-License-Identifier: GPL-2.0
/* The align area's bar charts: page splits and the line's end by width,
 * and the classic pattern by base shift. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "areas/align/report_align.h"
#include "report/report_area.h"
#include "report/svg_chart.h"

#define MAX_WIDTHS 8		/* 1 to 64 bytes */
#define MAX_SERIES 16

/* Whether @sweep belongs in the bars of @kind: the page pairs, or the
 * sweeps of the line too short to draw as a line (aligned and one
 * offset at the line's end). */
static bool in_bars(const struct align_sweep *sweep, enum align_bars kind)
{
	if (kind == ALIGN_BARS_PAGE)
		return align_sweep_is_page(sweep);
	return !align_sweep_is_page(sweep) && !align_sweep_is_swept(sweep);
}

/* The widths of the sweeps in the bars, ascending. */
static size_t bar_widths(const struct align_sweeps *sweeps,
			 enum align_bars kind, int64_t *widths)
{
	size_t n = 0;

	for (size_t i = 0; i < sweeps->n; i++) {
		const struct align_sweep *sweep = &sweeps->sweep[i];
		size_t at = n;
		bool known = false;

		for (size_t k = 0; k < n; k++)
			known |= widths[k] == sweep->width;
		if (!in_bars(sweep, kind) || known || n == MAX_WIDTHS)
			continue;
		for (; at > 0 && widths[at - 1] > sweep->width; at--)
			widths[at] = widths[at - 1];
		widths[at] = sweep->width;
		n++;
	}
	return n;
}

/* The series of @sweep's kind and buffer, opened when new. */
static size_t series_index(const struct align_sweeps *sweeps, size_t i,
			   size_t *owner, size_t *n)
{
	const struct align_sweep *sweep = &sweeps->sweep[i];

	for (size_t s = 0; s < *n; s++) {
		const struct align_sweep *other = &sweeps->sweep[owner[s]];

		if (!strcmp(other->kind, sweep->kind) &&
		    other->buffer == sweep->buffer)
			return s;
	}
	if (*n == MAX_SERIES)
		return MAX_SERIES;
	owner[*n] = i;
	return (*n)++;
}

/* @sweep's point into cell @cell of the bars: the page split, or the
 * last offset of a short line sweep (the line's end; a 1-byte access
 * there does not split). */
static void bar_point(const struct align_sweep *sweep, enum align_bars kind,
		      double *y, double *low, double *high, size_t cell)
{
	for (size_t p = sweep->n; p-- > 0;) {
		if (kind == ALIGN_BARS_PAGE ? sweep->split[p] != 2
					    : sweep->offset[p] == 0)
			continue;
		y[cell] = sweep->ratio[p];
		low[cell] = sweep->low[p];
		high[cell] = sweep->high[p];
		return;
	}
}

static const char *const bar_titles[] = {
	[ALIGN_BARS_PAGE] = "Page splits: penalty against the page-aligned access (%s mode)",
	[ALIGN_BARS_LINE] = "Line ends: penalty of the access at the end of the line against offset 0 (%s mode)",
};

void align_bar_chart(FILE *out, const char *mode,
		     const struct align_sweeps *sweeps, enum align_bars kind)
{
	int64_t widths[MAX_WIDTHS];
	size_t nr_widths = bar_widths(sweeps, kind, widths), nr_series = 0;
	size_t owner[MAX_SERIES];
	char categories[MAX_WIDTHS][16], names[MAX_SERIES][40], title[128];
	const char *category_names[MAX_WIDTHS];
	struct svg_series series[MAX_SERIES];
	double *y = report_nans(MAX_SERIES * MAX_WIDTHS),
	       *low = report_nans(MAX_SERIES * MAX_WIDTHS),
	       *high = report_nans(MAX_SERIES * MAX_WIDTHS);

	for (size_t i = 0; y && low && high && i < sweeps->n; i++) {
		const struct align_sweep *sweep = &sweeps->sweep[i];
		size_t s, c = 0;

		if (!in_bars(sweep, kind))
			continue;
		s = series_index(sweeps, i, owner, &nr_series);
		while (c < nr_widths && widths[c] != sweep->width)
			c++;
		if (s < MAX_SERIES && c < nr_widths)
			bar_point(sweep, kind, y, low, high,
				  s * MAX_WIDTHS + c);
	}
	for (size_t c = 0; c < nr_widths; c++) {
		snprintf(categories[c], sizeof(categories[c]), "%" PRId64 " B",
			 widths[c]);
		category_names[c] = categories[c];
	}
	for (size_t s = 0; s < nr_series; s++) {
		const struct align_sweep *sweep = &sweeps->sweep[owner[s]];
		int64_t buffer = sweep->buffer;

		/* "store-throughput 24K": legends show 22 characters. */
		if (buffer % (1 << 20) == 0)
			snprintf(names[s], sizeof(names[s]), "%s %" PRId64 "M",
				 sweep->kind, buffer >> 20);
		else
			snprintf(names[s], sizeof(names[s]), "%s %" PRId64 "K",
				 sweep->kind, buffer >> 10);
		series[s] = (struct svg_series){
			.name = names[s], .n = nr_widths,
			.y = y + s * MAX_WIDTHS, .y_low = low + s * MAX_WIDTHS,
			.y_high = high + s * MAX_WIDTHS,
		};
	}
	snprintf(title, sizeof(title), bar_titles[kind], mode);
	if (nr_series && nr_widths)
		svg_bar_chart_write(out, &(struct svg_bar_chart){
			.title = title, .category_label = "access width",
			.nr_categories = nr_widths,
			.categories = category_names,
			.y = { .label = "penalty (x, 95 % interval)",
			       .from_zero = true },
			.nr_series = nr_series, .series = series,
		});
	free(y);
	free(low);
	free(high);
}

size_t align_classic_rows(const struct cp_results *results, const char *mode,
			   const struct cp_measurement **rows)
{
	size_t n = 0;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		size_t at = n;

		if (!report_is(m, "align", mode) || !m->nr_samples ||
		    strncmp(m->name, "classic ", 8) != 0 ||
		    n == ALIGN_CLASSIC_SHIFTS)
			continue;
		for (; at > 0 && cp_measurement_param(rows[at - 1],
						       "shift_bytes", 0) >
				 cp_measurement_param(m, "shift_bytes", 0);
		     at--)
			rows[at] = rows[at - 1];
		rows[at] = m;
		n++;
	}
	return n;
}

void align_classic_chart(FILE *out, const struct cp_results *results,
			 const char *mode)
{
	const struct cp_measurement *rows[ALIGN_CLASSIC_SHIFTS];
	size_t n = align_classic_rows(results, mode, rows);
	char categories[ALIGN_CLASSIC_SHIFTS][48], title[96];
	const char *names[ALIGN_CLASSIC_SHIFTS];
	double y[ALIGN_CLASSIC_SHIFTS], low[ALIGN_CLASSIC_SHIFTS], high[ALIGN_CLASSIC_SHIFTS];

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		snprintf(categories[i], sizeof(categories[i]),
			 "shift %" PRId64 ": %" PRId64 " line%s/step",
			 cp_measurement_param(rows[i], "shift_bytes", 0),
			 cp_measurement_param(rows[i], "lines_per_step", 1),
			 cp_measurement_param(rows[i], "lines_per_step", 1) > 1
				 ? "s" : "");
		names[i] = categories[i];
		y[i] = rows[i]->stats_ns.median;
		low[i] = rows[i]->stats_ns.median_ci_low;
		high[i] = rows[i]->stats_ns.median_ci_high;
	}
	snprintf(title, sizeof(title),
		 "Classic pattern: time per 1-byte load by base shift (%s mode)",
		 mode);
	svg_bar_chart_write(out, &(struct svg_bar_chart){
		.title = title, .category_label = "shift of the base (bytes)",
		.nr_categories = n, .categories = names,
		.y = { .label = "time per load (ns, median, 95 % interval)",
		       .format = SVG_FORMAT_NS, .from_zero = true },
		.nr_series = 1,
		.series = &(struct svg_series){
			.name = "median", .n = n, .y = y, .y_low = low,
			.y_high = high },
	});
}
