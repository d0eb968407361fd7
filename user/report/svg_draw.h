/* SPDX-License-Identifier: GPL-2.0 */
/* What every SVG chart is made of: the frame with its title, the axes with
 * gridlines, tick labels and unit labels, the legend and the colours. */
#ifndef CACHEPROBE_SVG_DRAW_H
#define CACHEPROBE_SVG_DRAW_H

#include <stddef.h>
#include <stdio.h>

#include "report/svg_axis.h"

#define SVG_WIDTH 640
#define SVG_HEIGHT 360

/* The plotting area in pixels; the rest holds title, axes and legend. */
struct svg_plot {
	double left, top, right, bottom;
};

/* The standard plot area: room for a title above, tick and axis labels
 * left and below, a legend on the right. */
struct svg_plot svg_standard_plot(void);

/* <svg> with a viewBox (scales with the page), an accessible name and the
 * title printed above the plot. */
void svg_begin(FILE *out, const char *title);
void svg_end(FILE *out);

/* Escaped text at (@x, @y); @anchor "start", "middle" or "end". */
void svg_text(FILE *out, double x, double y, const char *anchor,
	      const char *css_class, const char *text);

/* "no data" in the middle of the plot. */
void svg_no_data(FILE *out, const struct svg_plot *plot);

/* Gridlines, tick labels and the axis label. */
void svg_y_axis(FILE *out, const struct svg_plot *plot,
		const struct svg_scale *scale, const struct svg_ticks *ticks,
		const struct svg_axis *axis);
void svg_x_axis(FILE *out, const struct svg_plot *plot,
		const struct svg_scale *scale, const struct svg_ticks *ticks,
		const struct svg_axis *axis);

/* Legend entry @index (from the top, right of the plot). */
void svg_legend_entry(FILE *out, const struct svg_plot *plot, size_t index,
		      const char *colour, const char *name);

/* Colour of series @index: a palette that colour-blind readers can
 * separate (Okabe-Ito), repeated when there are more series. */
const char *svg_colour(size_t index);

#endif
