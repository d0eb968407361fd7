/* SPDX-License-Identifier: GPL-2.0 */
/* Axis ranges, ticks and value labels of the SVG charts, and the mapping
 * from values to pixels. */
#ifndef CACHEPROBE_SVG_AXIS_H
#define CACHEPROBE_SVG_AXIS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/svg_chart.h"

#define SVG_MAX_TICKS 16

struct svg_ticks {
	size_t n;
	double at[SVG_MAX_TICKS];
};

/* A range of values laid onto a range of pixels. */
struct svg_scale {
	bool log;
	double min, max;
	double px_from, px_to;
};

/* Whether @value can be placed on @axis: finite, and above 0 on a log
 * axis. */
bool svg_axis_drawable(const struct svg_axis *axis, double value);

/* The data range [@lo, @hi] (drawable values) widened to round bounds
 * [*min, *max], with the ticks inside them: at 1-2-5 steps on linear
 * axes, at powers of 10 (of 2 for bytes) on log axes, thinned to at most
 * about 10 labels. */
void svg_axis_range(const struct svg_axis *axis, double lo, double hi,
		    double *min, double *max, struct svg_ticks *ticks);

/* The pixel of @value (clamped to the scale's ends). */
double svg_scale_at(const struct svg_scale *scale, double value);

/* "4 KiB", "1.5 us", "25 %", "0.5": a tick or value label. */
void svg_format_value(enum svg_format format, double value, char *buf,
		      size_t len);

#endif
