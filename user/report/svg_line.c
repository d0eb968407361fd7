// SPDX-License-Identifier: GPL-2.0
/* Line charts: one line per series, points with tooltips, intervals as
 * error bars, vertical markers; the legend names the series drawn. */
#include <math.h>

#include "report/html_text.h"
#include "report/svg_chart.h"
#include "report/svg_draw.h"

#define MARKER_LABEL_ROOM 80	/* pixels a marker's label needs */

struct extent {
	double lo, hi;
	bool any;
};

static void extend(struct extent *extent, double value)
{
	if (!extent->any || value < extent->lo)
		extent->lo = value;
	if (!extent->any || value > extent->hi)
		extent->hi = value;
	extent->any = true;
}

static bool point_drawable(const struct svg_line_chart *chart,
			   const struct svg_series *series, size_t i)
{
	return svg_axis_drawable(&chart->x, series->x[i]) &&
	       svg_axis_drawable(&chart->y, series->y[i]);
}

static bool series_drawn(const struct svg_line_chart *chart,
			 const struct svg_series *series)
{
	for (size_t i = 0; i < series->n; i++)
		if (point_drawable(chart, series, i))
			return true;
	return false;
}

/* The interval of point @i, when it has one that can be drawn. */
static bool interval_of(const struct svg_line_chart *chart,
			const struct svg_series *series, size_t i,
			double *low, double *high)
{
	if (!series->y_low || !series->y_high)
		return false;
	*low = series->y_low[i];
	*high = series->y_high[i];
	return svg_axis_drawable(&chart->y, *low) &&
	       svg_axis_drawable(&chart->y, *high);
}

static void data_extent(const struct svg_line_chart *chart,
			struct extent *x, struct extent *y)
{
	for (size_t s = 0; s < chart->nr_series; s++) {
		const struct svg_series *series = &chart->series[s];

		for (size_t i = 0; i < series->n; i++) {
			double low, high;

			if (!point_drawable(chart, series, i))
				continue;
			extend(x, series->x[i]);
			extend(y, series->y[i]);
			if (interval_of(chart, series, i, &low, &high)) {
				extend(y, low);
				extend(y, high);
			}
		}
	}
}

static void draw_markers(FILE *out, const struct svg_line_chart *chart,
			 const struct svg_plot *plot,
			 const struct svg_scale *x_scale)
{
	for (size_t i = 0; i < chart->nr_markers; i++) {
		const struct svg_marker *marker = &chart->markers[i];
		bool right_edge;
		double x;

		/* Markers outside the data are left out, not clamped to the
		 * edge where they would mislead. */
		if (!svg_axis_drawable(&chart->x, marker->x) ||
		    marker->x < x_scale->min || marker->x > x_scale->max)
			continue;
		x = svg_scale_at(x_scale, marker->x);
		fprintf(out,
			"<line class=\"marker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			x, plot->top, x, plot->bottom);
		/* Labels near the right edge go left of their line, clear
		 * of the legend. */
		right_edge = x > plot->right - MARKER_LABEL_ROOM;
		svg_text(out, right_edge ? x - 3 : x + 3,
			 plot->top + 10 + 11 * (double)(i % 3),
			 right_edge ? "end" : "start", "markerlabel",
			 marker->label);
	}
}

static void draw_line(FILE *out, const struct svg_line_chart *chart,
		      const struct svg_series *series, const char *colour,
		      const struct svg_scale *x_scale,
		      const struct svg_scale *y_scale)
{
	bool pen_down = false;

	fprintf(out, "<path class=\"line\" stroke=\"%s\" d=\"", colour);
	for (size_t i = 0; i < series->n; i++) {
		if (!point_drawable(chart, series, i)) {
			pen_down = false;	/* a gap, not a bridge */
			continue;
		}
		fprintf(out, "%s%.1f %.1f ", pen_down ? "L" : "M",
			svg_scale_at(x_scale, series->x[i]),
			svg_scale_at(y_scale, series->y[i]));
		pen_down = true;
	}
	fputs("\"/>\n", out);
}

static void draw_points(FILE *out, const struct svg_line_chart *chart,
			const struct svg_series *series, const char *colour,
			const struct svg_scale *x_scale,
			const struct svg_scale *y_scale)
{
	for (size_t i = 0; i < series->n; i++) {
		char x_text[32], y_text[32];
		double x, low, high;

		if (!point_drawable(chart, series, i))
			continue;
		x = svg_scale_at(x_scale, series->x[i]);
		if (interval_of(chart, series, i, &low, &high))
			fprintf(out,
				"<path class=\"errorbar\" stroke=\"%s\" d=\"M%.1f %.1f V%.1f M%.1f %.1f h6 M%.1f %.1f h6\"/>\n",
				colour, x, svg_scale_at(y_scale, low),
				svg_scale_at(y_scale, high), x - 3,
				svg_scale_at(y_scale, low), x - 3,
				svg_scale_at(y_scale, high));
		svg_format_value(chart->x.format, series->x[i], x_text,
				 sizeof(x_text));
		svg_format_value(chart->y.format, series->y[i], y_text,
				 sizeof(y_text));
		fprintf(out,
			"<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>",
			x, svg_scale_at(y_scale, series->y[i]), colour);
		html_printf(out, "%s: %s at %s", series->name, y_text, x_text);
		fputs("</title></circle>\n", out);
	}
}

void svg_line_chart_write(FILE *out, const struct svg_line_chart *chart)
{
	struct svg_plot plot = svg_standard_plot();
	struct extent x = { 0 }, y = { 0 };
	struct svg_scale x_scale = { .log = chart->x.log,
				     .px_from = plot.left,
				     .px_to = plot.right };
	struct svg_scale y_scale = { .log = chart->y.log,
				     .px_from = plot.bottom,
				     .px_to = plot.top };
	struct svg_ticks x_ticks, y_ticks;

	svg_begin(out, chart->title);
	data_extent(chart, &x, &y);
	if (!x.any) {
		svg_no_data(out, &plot);
		svg_end(out);
		return;
	}
	svg_axis_range(&chart->x, x.lo, x.hi, &x_scale.min, &x_scale.max,
		       &x_ticks);
	svg_axis_range(&chart->y, y.lo, y.hi, &y_scale.min, &y_scale.max,
		       &y_ticks);
	svg_y_axis(out, &plot, &y_scale, &y_ticks, &chart->y);
	svg_x_axis(out, &plot, &x_scale, &x_ticks, &chart->x);
	draw_markers(out, chart, &plot, &x_scale);
	for (size_t s = 0, shown = 0; s < chart->nr_series; s++) {
		const char *colour = svg_colour(s);

		if (!series_drawn(chart, &chart->series[s]))
			continue;
		draw_line(out, chart, &chart->series[s], colour, &x_scale,
			  &y_scale);
		draw_points(out, chart, &chart->series[s], colour, &x_scale,
			    &y_scale);
		svg_legend_entry(out, &plot, shown++, colour,
				 chart->series[s].name);
	}
	svg_end(out);
}
