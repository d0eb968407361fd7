/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an area's part of the report is made of.  A renderer draws the
 * charts of one area in one mode ("user" or "kernel") and the tables of
 * their numbers; the report puts modes side by side and adds the table of
 * every measurement.  An area without a renderer still appears, as that
 * table.  An area names its renderer in its struct cp_area
 * (areas/area.h), which defines it in areas/<area>/report_<area>.c.
 */
#ifndef CACHEPROBE_REPORT_AREA_H
#define CACHEPROBE_REPORT_AREA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/results.h"

struct report_renderer {
	const char *area;
	const char *question;	/* one line under the heading */
	void (*render)(FILE *out, const struct cp_results *results,
		       const char *mode);
};

/* Whether @m belongs to @area and was measured in @mode. */
bool report_is(const struct cp_measurement *m, const char *area,
	       const char *mode);

/* n doubles, all NaN ("no value"); NULL without memory. */
double *report_nans(size_t n);

/* Tables: headers given as one string, columns separated by '|'. */
void report_table_open(FILE *out, const char *caption, const char *headers);
void report_table_close(FILE *out);
void report_row_open(FILE *out);
void report_row_close(FILE *out);
void report_cell(FILE *out, const char *text);
void report_cell_ns(FILE *out, double ns);		/* "-" for NaN */
void report_cell_interval_ns(FILE *out, double low, double high);
void report_cell_percent(FILE *out, double percent);	/* "-" for NaN */
/* "x1.62 [1.58, 1.66]": the ratio of the medians of @m and @base with its
 * bootstrap 95 % interval; "-" when either is NULL or has no samples. */
void report_cell_ratio(FILE *out, const struct cp_measurement *m,
		       const struct cp_measurement *base);

/* The table of every measurement of @area in @mode, statistics, params,
 * notes and warnings. */
void report_measurement_table(FILE *out, const struct cp_results *results,
			      const char *area, const char *mode);

#endif
