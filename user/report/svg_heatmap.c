// SPDX-License-Identifier: GPL-2.0
/* Heatmaps: a grid of cells coloured by value, with a colour scale that
 * has ticks and a label with the unit. */
#include <math.h>

#include "report/html_text.h"
#include "report/svg_chart.h"
#include "report/svg_draw.h"

#define SCALE_STEPS 24
#define MAX_COL_LABELS 16
#define MAX_ROW_LABELS 20

/* Colour at @share (0..1) along a perceptually ordered scale (viridis
 * stops), readable in grey and by colour-blind readers. */
static void colour_at(double share, char *buf, size_t len)
{
	static const unsigned char stops[][3] = {
		{ 68, 1, 84 }, { 59, 82, 139 }, { 33, 145, 140 },
		{ 94, 201, 98 }, { 253, 231, 37 },
	};
	const size_t last = sizeof(stops) / sizeof(stops[0]) - 1;
	double at = fmin(fmax(share, 0), 1) * (double)last;
	size_t i = (size_t)floor(at);
	double t;
	int rgb[3];

	if (i >= last)
		i = last - 1;
	t = at - (double)i;
	for (int k = 0; k < 3; k++)
		rgb[k] = (int)lround(stops[i][k] +
				     t * (stops[i + 1][k] - stops[i][k]));
	snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static bool value_range(const struct svg_heatmap *chart, double *lo,
			double *hi)
{
	bool any = false;

	for (size_t i = 0; i < chart->nr_rows * chart->nr_cols; i++) {
		double value = chart->values[i];

		if (!svg_axis_drawable(&chart->value_axis, value))
			continue;
		*lo = any ? fmin(*lo, value) : value;
		*hi = any ? fmax(*hi, value) : value;
		any = true;
	}
	return any;
}

static double share_of(const struct svg_scale *scale, double value)
{
	return (svg_scale_at(scale, value) - scale->px_from) /
	       (scale->px_to - scale->px_from);
}

static void draw_cells(FILE *out, const struct svg_heatmap *chart,
		       const struct svg_plot *plot,
		       const struct svg_scale *scale)
{
	double width = (plot->right - plot->left) / (double)chart->nr_cols;
	double height = (plot->bottom - plot->top) / (double)chart->nr_rows;

	for (size_t r = 0; r < chart->nr_rows; r++) {
		for (size_t c = 0; c < chart->nr_cols; c++) {
			double value = chart->values[r * chart->nr_cols + c];
			char colour[8] = "#dddddd", text[32] = "no value";

			if (svg_axis_drawable(&chart->value_axis, value)) {
				colour_at(share_of(scale, value), colour,
					  sizeof(colour));
				svg_format_value(chart->value_axis.format,
						 value, text, sizeof(text));
			}
			fprintf(out,
				"<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
				plot->left + width * (double)c,
				plot->top + height * (double)r, width, height,
				colour);
			html_printf(out, "%s %s, %s %s: %s", chart->row_label,
				    chart->row_names[r], chart->col_label,
				    chart->col_names[c], text);
			fputs("</title></rect>\n", out);
		}
	}
}

static void draw_labels(FILE *out, const struct svg_heatmap *chart,
			const struct svg_plot *plot)
{
	double width = (plot->right - plot->left) / (double)chart->nr_cols;
	double height = (plot->bottom - plot->top) / (double)chart->nr_rows;
	size_t col_stride = (chart->nr_cols + MAX_COL_LABELS - 1) /
			    MAX_COL_LABELS;
	size_t row_stride = (chart->nr_rows + MAX_ROW_LABELS - 1) /
			    MAX_ROW_LABELS;

	for (size_t c = 0; c < chart->nr_cols; c += col_stride)
		svg_text(out, plot->left + width * ((double)c + 0.5),
			 plot->bottom + 16, "middle", "tick",
			 chart->col_names[c]);
	for (size_t r = 0; r < chart->nr_rows; r += row_stride)
		svg_text(out, plot->left - 6,
			 plot->top + height * ((double)r + 0.5) + 4, "end",
			 "tick", chart->row_names[r]);
	svg_text(out, (plot->left + plot->right) / 2, plot->bottom + 38,
		 "middle", "label", chart->col_label);
	fprintf(out,
		"<text class=\"label\" text-anchor=\"middle\" transform=\"translate(14 %.1f) rotate(-90)\">",
		(plot->top + plot->bottom) / 2);
	html_escape(out, chart->row_label);
	fputs("</text>\n", out);
}

/* The colour scale right of the grid: steps of colour, ticks, label. */
static void draw_scale(FILE *out, const struct svg_heatmap *chart,
		       const struct svg_plot *plot,
		       const struct svg_scale *scale,
		       const struct svg_ticks *ticks)
{
	double x = plot->right + 24, step = (plot->bottom - plot->top) /
					      SCALE_STEPS;
	struct svg_plot bar = { .left = x, .right = x + 14, .top = plot->top,
				.bottom = plot->bottom };
	char colour[8], label[32];

	for (int i = 0; i < SCALE_STEPS; i++) {
		colour_at(((double)i + 0.5) / SCALE_STEPS, colour,
			  sizeof(colour));
		fprintf(out,
			"<rect class=\"scale\" x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.1f\" fill=\"%s\"/>\n",
			x, plot->bottom - step * (i + 1), step + 0.5, colour);
	}
	for (size_t i = 0; i < ticks->n; i++) {
		double y = svg_scale_at(scale, ticks->at[i]);

		svg_format_value(chart->value_axis.format, ticks->at[i], label,
				 sizeof(label));
		fprintf(out,
			"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			bar.right, y, bar.right + 4, y);
		svg_text(out, bar.right + 6, y + 4, "start", "tick", label);
	}
	fprintf(out,
		"<text class=\"label\" text-anchor=\"middle\" transform=\"translate(%.1f %.1f) rotate(-90)\">",
		(double)SVG_WIDTH - 8, (plot->top + plot->bottom) / 2);
	html_escape(out, chart->value_axis.label);
	fputs("</text>\n", out);
}

void svg_heatmap_write(FILE *out, const struct svg_heatmap *chart)
{
	struct svg_plot plot = { .left = 110, .top = 40,
				 .right = SVG_WIDTH - 120,
				 .bottom = SVG_HEIGHT - 56 };
	struct svg_scale scale = { .log = chart->value_axis.log,
				   .px_from = plot.bottom,
				   .px_to = plot.top };
	struct svg_ticks ticks;
	double lo = 0, hi = 0;

	svg_begin(out, chart->title);
	if (!chart->nr_rows || !chart->nr_cols ||
	    !value_range(chart, &lo, &hi)) {
		svg_no_data(out, &plot);
		svg_end(out);
		return;
	}
	svg_axis_range(&chart->value_axis, lo, hi, &scale.min, &scale.max,
		       &ticks);
	draw_cells(out, chart, &plot, &scale);
	draw_labels(out, chart, &plot);
	draw_scale(out, chart, &plot, &scale, &ticks);
	svg_end(out);
}
