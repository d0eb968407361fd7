/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report's charts, written as inline SVG: nothing is fetched when the
 * page is opened.  Three kinds cover every area: line charts (linear or
 * log axes, intervals as error bars, vertical markers such as cache sizes),
 * bar charts (grouped or stacked, linear or log) and heatmaps with a colour
 * scale.  Every chart has a title, labelled axes with units and a legend;
 * points carry a <title> with their exact value for a hover tooltip.
 * Values that are NaN or, on a log axis, not above 0 are left out; a chart
 * with nothing to draw says "no data".
 */
#ifndef CACHEPROBE_SVG_CHART_H
#define CACHEPROBE_SVG_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How an axis writes its values. */
enum svg_format {
	SVG_FORMAT_NUMBER,	/* 0.5, 12, 1.5e+06 */
	SVG_FORMAT_BYTES,	/* 4 KiB, 2 MiB; log axes tick at powers of 2 */
	SVG_FORMAT_NS,		/* 850 ns, 1.2 us, 3 ms */
	SVG_FORMAT_PERCENT,	/* 25 % */
};

struct svg_axis {
	const char *label;	/* with the unit: "working set (bytes)" */
	bool log;
	enum svg_format format;
	bool from_zero;		/* linear: the range includes 0 */
};

/* One line (or one bar series): y[i] at x[i]; y_low/y_high, when not
 * NULL, an interval drawn as an error bar (NaN where there is none). */
struct svg_series {
	const char *name;
	size_t n;
	const double *x;		/* line charts only */
	const double *y;
	const double *y_low, *y_high;
};

/* A vertical line at @x with a label: a cache size, a granularity. */
struct svg_marker {
	double x;
	const char *label;
};

struct svg_line_chart {
	const char *title;
	struct svg_axis x, y;
	size_t nr_series;
	const struct svg_series *series;
	size_t nr_markers;
	const struct svg_marker *markers;
};

void svg_line_chart_write(FILE *out, const struct svg_line_chart *chart);

/* Bars over categories: series[s].y[c] is series s in category c.  Stacked
 * bars add up the series of a category (intervals are then not drawn);
 * stacked percentages end at 100 %.  Grouped bars at or below @floor
 * (when above 0: what the instrument cannot tell from nothing) are drawn
 * as an outline up to the floor labelled "< floor", not as a figure.  The
 * legend lists the series that have a bar. */
struct svg_bar_chart {
	const char *title;
	const char *category_label;	/* the x axis */
	size_t nr_categories;
	const char *const *categories;
	struct svg_axis y;
	bool stacked;
	double floor;			/* in y's unit; 0: none */
	const char *floor_what;		/* the tooltip: "the timer's floor" */
	size_t nr_series;
	const struct svg_series *series;
};

void svg_bar_chart_write(FILE *out, const struct svg_bar_chart *chart);

/* values[r * nr_cols + c] coloured on a scale from its minimum to its
 * maximum (log when value_axis.log), NaN for a cell without a value. */
struct svg_heatmap {
	const char *title;
	const char *row_label, *col_label;	/* the axes */
	size_t nr_rows, nr_cols;
	const char *const *row_names, *const *col_names;
	const double *values;
	struct svg_axis value_axis;	/* the colour scale's label and format */
};

void svg_heatmap_write(FILE *out, const struct svg_heatmap *chart);

#endif
