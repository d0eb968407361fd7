// SPDX-License-Identifier: GPL-2.0
#include "report/svg_draw.h"

#include <string.h>

#include "report/html_text.h"

#define LEGEND_WIDTH 150
#define LEGEND_LINE 16
#define LEGEND_MAX_CHARS 22

struct svg_plot svg_standard_plot(void)
{
	return (struct svg_plot){
		.left = 78, .top = 40,
		.right = SVG_WIDTH - LEGEND_WIDTH - 12,
		.bottom = SVG_HEIGHT - 52,
	};
}

void svg_begin(FILE *out, const char *title)
{
	fprintf(out,
		"<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
		SVG_WIDTH, SVG_HEIGHT);
	html_escape(out, title);
	fputs("\"><title>", out);
	html_escape(out, title);
	fputs("</title>\n", out);
	svg_text(out, SVG_WIDTH / 2.0, 20, "middle", "title", title);
}

void svg_end(FILE *out)
{
	fputs("</svg>\n", out);
}

void svg_text(FILE *out, double x, double y, const char *anchor,
	      const char *css_class, const char *text)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y,
		anchor);
	if (css_class)
		fprintf(out, " class=\"%s\"", css_class);
	fputc('>', out);
	html_escape(out, text);
	fputs("</text>\n", out);
}

void svg_no_data(FILE *out, const struct svg_plot *plot)
{
	svg_text(out, (plot->left + plot->right) / 2,
		 (plot->top + plot->bottom) / 2, "middle", "nodata",
		 "no data");
}

void svg_y_axis(FILE *out, const struct svg_plot *plot,
		const struct svg_scale *scale, const struct svg_ticks *ticks,
		const struct svg_axis *axis)
{
	char label[32];

	for (size_t i = 0; i < ticks->n; i++) {
		double y = svg_scale_at(scale, ticks->at[i]);

		fprintf(out,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			plot->left, y, plot->right, y);
		svg_format_value(axis->format, ticks->at[i], label,
				 sizeof(label));
		svg_text(out, plot->left - 6, y + 4, "end", "tick", label);
	}
	fprintf(out,
		"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		plot->left, plot->top, plot->left, plot->bottom);
	fprintf(out,
		"<text class=\"label\" text-anchor=\"middle\" transform=\"translate(14 %.1f) rotate(-90)\">",
		(plot->top + plot->bottom) / 2);
	html_escape(out, axis->label);
	fputs("</text>\n", out);
}

void svg_x_axis(FILE *out, const struct svg_plot *plot,
		const struct svg_scale *scale, const struct svg_ticks *ticks,
		const struct svg_axis *axis)
{
	char label[32];

	for (size_t i = 0; i < ticks->n; i++) {
		double x = svg_scale_at(scale, ticks->at[i]);

		fprintf(out,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			x, plot->top, x, plot->bottom);
		svg_format_value(axis->format, ticks->at[i], label,
				 sizeof(label));
		svg_text(out, x, plot->bottom + 16, "middle", "tick", label);
	}
	fprintf(out,
		"<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		plot->left, plot->bottom, plot->right, plot->bottom);
	svg_text(out, (plot->left + plot->right) / 2, plot->bottom + 38,
		 "middle", "label", axis->label);
}

void svg_legend_entry(FILE *out, const struct svg_plot *plot, size_t index,
		      const char *colour, const char *name)
{
	double x = plot->right + 14, y = plot->top + 6 + LEGEND_LINE * index;

	fprintf(out,
		"<rect class=\"key\" x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"%s\"/>\n",
		x, y - 9, colour);
	/* Long names are cut to the legend's width; the full name is the
	 * tooltip. */
	fprintf(out, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\"><title>",
		x + 17, y);
	html_escape(out, name);
	fputs("</title>", out);
	html_printf(out, "%.*s%s", LEGEND_MAX_CHARS, name,
		    strlen(name) > LEGEND_MAX_CHARS ? "…" : "");
	fputs("</text>\n", out);
}

const char *svg_colour(size_t index)
{
	static const char *const palette[] = {
		"#0072b2", "#e69f00", "#009e73", "#cc79a7",
		"#d55e00", "#56b4e9", "#f0e442", "#000000",
	};

	return palette[index % (sizeof(palette) / sizeof(palette[0]))];
}
