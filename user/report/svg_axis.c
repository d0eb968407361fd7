// SPDX-License-Identifier: GPL-2.0
#include "report/svg_axis.h"

#include <math.h>
#include <stdio.h>

#include "util/format.h"

#define MAX_LABELS 10

bool svg_axis_drawable(const struct svg_axis *axis, double value)
{
	return isfinite(value) && (!axis->log || value > 0);
}

/* 1, 2 or 5 times a power of ten, at least @raw. */
static double nice_step(double raw)
{
	double magnitude = pow(10, floor(log10(raw)));
	double fraction = raw / magnitude;

	if (fraction <= 1)
		return magnitude;
	if (fraction <= 2)
		return 2 * magnitude;
	if (fraction <= 5)
		return 5 * magnitude;
	return 10 * magnitude;
}

static void linear_range(const struct svg_axis *axis, double lo, double hi,
			 double *min, double *max, struct svg_ticks *ticks)
{
	double step;

	if (axis->from_zero) {
		lo = fmin(lo, 0);
		hi = fmax(hi, 0);
	}
	if (hi <= lo) {
		/* One value: a band around it. */
		double pad = lo ? fabs(lo) / 10 : 1;

		lo -= pad;
		hi += pad;
	}
	step = nice_step((hi - lo) / 6);
	*min = floor(lo / step) * step;
	*max = ceil(hi / step) * step;
	ticks->n = 0;
	for (double at = *min; at <= *max + step / 2 &&
	     ticks->n < SVG_MAX_TICKS; at += step)
		/* Rounded so that 0.1 + 0.2 prints as 0.3, and -0 as 0. */
		ticks->at[ticks->n++] = fabs(at) < step / 1e6
						? 0 : round(at / step) * step;
}

static void log_range(const struct svg_axis *axis, double lo, double hi,
		      double *min, double *max, struct svg_ticks *ticks)
{
	double base = axis->format == SVG_FORMAT_BYTES ? 2 : 10;
	int first = (int)floor(log(lo) / log(base) + 1e-9);
	int last = (int)ceil(log(hi) / log(base) - 1e-9);
	int stride;

	if (last <= first)
		last = first + 1;
	stride = (last - first + MAX_LABELS) / MAX_LABELS;
	*min = pow(base, first);
	*max = pow(base, last);
	ticks->n = 0;
	for (int e = first; e <= last && ticks->n < SVG_MAX_TICKS; e += stride)
		ticks->at[ticks->n++] = pow(base, e);
	/* One decade only: 2 and 5 between, so the axis can be read. */
	if (base == 10 && last - first == 1) {
		ticks->n = 0;
		ticks->at[ticks->n++] = *min;
		ticks->at[ticks->n++] = 2 * *min;
		ticks->at[ticks->n++] = 5 * *min;
		ticks->at[ticks->n++] = *max;
	}
}

void svg_axis_range(const struct svg_axis *axis, double lo, double hi,
		    double *min, double *max, struct svg_ticks *ticks)
{
	if (axis->log)
		log_range(axis, lo, hi, min, max, ticks);
	else
		linear_range(axis, lo, hi, min, max, ticks);
}

static double position(const struct svg_scale *scale, double value)
{
	if (scale->log)
		return (log(value) - log(scale->min)) /
		       (log(scale->max) - log(scale->min));
	return (value - scale->min) / (scale->max - scale->min);
}

double svg_scale_at(const struct svg_scale *scale, double value)
{
	double share = position(scale, value);

	if (!isfinite(share) || share < 0)
		share = 0;
	if (share > 1)
		share = 1;
	return scale->px_from + share * (scale->px_to - scale->px_from);
}

static void format_bytes(double bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	size_t unit = 0;

	while (unit + 1 < sizeof(units) / sizeof(units[0]) &&
	       fabs(bytes) >= 1024) {
		bytes /= 1024;
		unit++;
	}
	snprintf(buf, len, "%.4g %s", bytes, units[unit]);
}

void svg_format_value(enum svg_format format, double value, char *buf,
		      size_t len)
{
	switch (format) {
	case SVG_FORMAT_BYTES:
		format_bytes(value, buf, len);
		return;
	case SVG_FORMAT_NS:
		cp_format_ns(value, buf, len);
		return;
	case SVG_FORMAT_PERCENT:
		snprintf(buf, len, "%.3g %%", value);
		return;
	case SVG_FORMAT_NUMBER:
	default:
		snprintf(buf, len, "%.3g", value);
		return;
	}
}
