// SPDX-License-Identifier: GPL-2.0
/* Bar charts over categories: grouped (side by side, with intervals) or
 * stacked (shares adding up). */
#include <math.h>
#include <string.h>

#include "report/html_text.h"
#include "report/svg_chart.h"
#include "report/svg_draw.h"

#define ROTATE_ABOVE 4		/* categories; more get slanted labels */
/* Pixels below the plot: straight labels and the axis title, or labels
 * slanted at 30 degrees (at most about 30 characters of 6 px). */
#define BELOW_STRAIGHT 52
#define BELOW_SLANTED 100

struct bar_layout {
	struct svg_plot plot;
	struct svg_scale y;
	double band;		/* pixels per category */
};

static double value_of(const struct svg_bar_chart *chart, size_t s, size_t c)
{
	const struct svg_series *series = &chart->series[s];

	return c < series->n ? series->y[c] : NAN;
}

static double stacked_total(const struct svg_bar_chart *chart, size_t c)
{
	double total = 0;

	for (size_t s = 0; s < chart->nr_series; s++) {
		double value = value_of(chart, s, c);

		if (isfinite(value) && value > 0)
			total += value;
	}
	return total;
}

/* The range of what will be drawn; false when nothing will. */
static bool value_range(const struct svg_bar_chart *chart, double *lo,
			double *hi)
{
	bool any = false;

	for (size_t c = 0; c < chart->nr_categories; c++) {
		for (size_t s = 0; s < chart->nr_series; s++) {
			const struct svg_series *series = &chart->series[s];
			double value = chart->stacked ? stacked_total(chart, c)
						      : value_of(chart, s, c);
			double top = value;

			if (!svg_axis_drawable(&chart->y, value))
				continue;
			if (!chart->stacked && series->y_high &&
			    c < series->n &&
			    svg_axis_drawable(&chart->y, series->y_high[c]))
				top = fmax(top, series->y_high[c]);
			if (!chart->stacked && chart->floor > 0)
				top = fmax(top, chart->floor);
			*lo = any ? fmin(*lo, value) : value;
			*hi = any ? fmax(*hi, top) : top;
			any = true;
		}
	}
	return any;
}

static void draw_bar(FILE *out, const struct svg_bar_chart *chart,
		     const struct bar_layout *layout, size_t s, size_t c,
		     double x, double width, double from, double to)
{
	char text[32];

	svg_format_value(chart->y.format, to - from, text, sizeof(text));
	if (!chart->stacked)
		svg_format_value(chart->y.format, to, text, sizeof(text));
	fprintf(out,
		"<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
		x, svg_scale_at(&layout->y, to), width,
		fmax(svg_scale_at(&layout->y, from) -
			     svg_scale_at(&layout->y, to), 0),
		svg_colour(s));
	html_printf(out, "%s, %s: %s", chart->categories[c],
		    chart->series[s].name, text);
	fputs("</title></rect>\n", out);
}

/* A value the instrument cannot tell from nothing: an outline up to the
 * floor, "< floor" above it, the value itself only in the tooltip. */
static void draw_below_floor(FILE *out, const struct svg_bar_chart *chart,
			     const struct bar_layout *layout, size_t s,
			     size_t c, double x, double width, double value)
{
	double base = layout->y.log ? layout->y.min : 0;
	double top = svg_scale_at(&layout->y, chart->floor);
	char text[32], floor[32];

	svg_format_value(chart->y.format, value, text, sizeof(text));
	svg_format_value(chart->y.format, chart->floor, floor, sizeof(floor));
	fprintf(out,
		"<rect class=\"bar below-floor\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"%s\" stroke-dasharray=\"3 2\"><title>",
		x, top, width, fmax(svg_scale_at(&layout->y, base) - top, 0),
		svg_colour(s));
	html_printf(out, "%s, %s: %s, below %s (%s)", chart->categories[c],
		    chart->series[s].name, text,
		    chart->floor_what ? chart->floor_what : "the floor", floor);
	fputs("</title></rect>\n", out);
	svg_text(out, x + width / 2, top - 3, "middle", "floorlabel",
		 "< floor");
}

static void draw_interval(FILE *out, const struct svg_bar_chart *chart,
			  const struct bar_layout *layout, size_t s, size_t c,
			  double x_mid)
{
	const struct svg_series *series = &chart->series[s];

	if (!series->y_low || !series->y_high || c >= series->n ||
	    !svg_axis_drawable(&chart->y, series->y_low[c]) ||
	    !svg_axis_drawable(&chart->y, series->y_high[c]))
		return;
	fprintf(out,
		"<path class=\"errorbar\" stroke=\"#333\" d=\"M%.1f %.1f V%.1f\"/>\n",
		x_mid, svg_scale_at(&layout->y, series->y_low[c]),
		svg_scale_at(&layout->y, series->y_high[c]));
}

static void draw_category(FILE *out, const struct svg_bar_chart *chart,
			  const struct bar_layout *layout, size_t c)
{
	double left = layout->plot.left + layout->band * (double)c;
	double base = layout->y.log ? layout->y.min : 0;
	double width = layout->band * 0.8 /
		       (chart->stacked ? 1 : (double)chart->nr_series);

	for (size_t s = 0; s < chart->nr_series; s++) {
		double value = value_of(chart, s, c);
		double x = left + layout->band * 0.1 +
			   (chart->stacked ? 0 : width * (double)s);

		if (!svg_axis_drawable(&chart->y, value) ||
		    (chart->stacked && value <= 0))
			continue;
		if (!chart->stacked && chart->floor > 0 &&
		    value <= chart->floor) {
			draw_below_floor(out, chart, layout, s, c, x, width,
					 value);
			continue;
		}
		draw_bar(out, chart, layout, s, c, x, width, base,
			 chart->stacked ? base + value : value);
		if (chart->stacked)
			base += value;
		else
			draw_interval(out, chart, layout, s, c, x + width / 2);
	}
}

static void category_labels(FILE *out, const struct svg_bar_chart *chart,
			    const struct bar_layout *layout)
{
	bool slanted = chart->nr_categories > ROTATE_ABOVE;
	size_t longest = 0;

	for (size_t c = 0; c < chart->nr_categories; c++) {
		double x = layout->plot.left + layout->band * ((double)c + 0.5);
		double y = layout->plot.bottom + 14;

		if (!slanted) {
			svg_text(out, x, y, "middle", "tick",
				 chart->categories[c]);
			continue;
		}
		fprintf(out,
			"<text class=\"tick\" text-anchor=\"end\" transform=\"translate(%.1f %.1f) rotate(-30)\">",
			x, y);
		html_escape(out, chart->categories[c]);
		fputs("</text>\n", out);
		if (strlen(chart->categories[c]) > longest)
			longest = strlen(chart->categories[c]);
	}
	/* Right under the labels: half of a slanted label's 6 px a
	 * character is its drop. */
	svg_text(out, (layout->plot.left + layout->plot.right) / 2,
		 fmin(layout->plot.bottom +
			      (slanted ? 30 + 3.0 * (double)longest : 36),
		      SVG_HEIGHT - 6),
		 "middle", "label", chart->category_label);
}

/* Whether series @s has anything drawn. */
static bool series_drawn(const struct svg_bar_chart *chart, size_t s)
{
	for (size_t c = 0; c < chart->nr_categories; c++) {
		double value = value_of(chart, s, c);

		if (svg_axis_drawable(&chart->y, value) &&
		    (!chart->stacked || value > 0))
			return true;
	}
	return false;
}

void svg_bar_chart_write(FILE *out, const struct svg_bar_chart *chart)
{
	struct bar_layout layout = { .plot = svg_standard_plot() };
	struct svg_ticks ticks;
	double lo = 0, hi = 0;

	layout.plot.bottom = SVG_HEIGHT - (chart->nr_categories > ROTATE_ABOVE
						   ? BELOW_SLANTED
						   : BELOW_STRAIGHT);
	layout.y = (struct svg_scale){ .log = chart->y.log,
				       .px_from = layout.plot.bottom,
				       .px_to = layout.plot.top };
	svg_begin(out, chart->title);
	if (!chart->nr_categories || !value_range(chart, &lo, &hi)) {
		svg_no_data(out, &layout.plot);
		svg_end(out);
		return;
	}
	if (chart->stacked)
		lo = 0;
	/* Medians of shares need not add up to exactly 100. */
	if (chart->stacked && chart->y.format == SVG_FORMAT_PERCENT)
		hi = fmin(hi, 100);
	svg_axis_range(&chart->y, lo, hi, &layout.y.min, &layout.y.max,
		       &ticks);
	layout.band = (layout.plot.right - layout.plot.left) /
		      (double)chart->nr_categories;
	svg_y_axis(out, &layout.plot, &layout.y, &ticks, &chart->y);
	fprintf(out,
		"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		layout.plot.left, layout.plot.bottom, layout.plot.right,
		layout.plot.bottom);
	for (size_t c = 0; c < chart->nr_categories; c++)
		draw_category(out, chart, &layout, c);
	category_labels(out, chart, &layout);
	for (size_t s = 0, shown = 0; s < chart->nr_series; s++)
		if (series_drawn(chart, s))
			svg_legend_entry(out, &layout.plot, shown++,
					 svg_colour(s), chart->series[s].name);
	svg_end(out);
}
