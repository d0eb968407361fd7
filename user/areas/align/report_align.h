/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The align area's sweeps as the report draws them: every measurement of
 * one access kind, width, stride and buffer in one mode, as its penalty
 * against the sweep's offset 0 (ratio of medians with a bootstrap 95 %
 * interval), in offset order.
 */
#ifndef CACHEPROBE_REPORT_ALIGN_H
#define CACHEPROBE_REPORT_ALIGN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results/results.h"

#define ALIGN_MAX_SWEEPS 96

struct align_sweep {
	char kind[24];		/* "load-latency" */
	const struct cp_measurement *base;	/* offset 0 */
	int64_t width, stride, buffer, line, detected;	/* -1: none */
	size_t n;
	double *offset, *ratio, *low, *high;	/* n each; NaN: no interval */
	int64_t *split;		/* n: the measurements' "split" param */
};

struct align_sweeps {
	size_t n;
	struct align_sweep sweep[ALIGN_MAX_SWEEPS];
};

/* The sweeps of @mode (classic pattern rows left out): 0, or -1 without
 * memory (free what was collected with align_sweeps_free either way). */
int align_sweeps_collect(const struct cp_results *results, const char *mode,
			 struct align_sweeps *sweeps);
void align_sweeps_free(struct align_sweeps *sweeps);

/* Whether @sweep walks slots a page apart (the page-split pair). */
bool align_sweep_is_page(const struct align_sweep *sweep);

/* Whether @sweep has offsets enough for a line through them (3): an
 * aligned access against one other offset is a step, drawn as a bar. */
bool align_sweep_is_swept(const struct align_sweep *sweep);

enum align_bars {
	ALIGN_BARS_PAGE,	/* the page-split pairs */
	ALIGN_BARS_LINE,	/* the short sweeps: the line's end */
};

/* Bars: the penalty by width, one series per kind and buffer. */
void align_bar_chart(FILE *out, const char *mode,
		     const struct align_sweeps *sweeps, enum align_bars kind);
#define ALIGN_CLASSIC_SHIFTS 3	/* 0, LINE/2 - 1, LINE/2 */

/* The classic pattern's measurements of @mode in shift order into @rows
 * (room for ALIGN_CLASSIC_SHIFTS); how many. */
size_t align_classic_rows(const struct cp_results *results, const char *mode,
			  const struct cp_measurement **rows);
/* Bars: ns per load of the classic pattern by base shift (user mode). */
void align_classic_chart(FILE *out, const struct cp_results *results,
			 const char *mode);

/* The tables beneath the charts: split against aligned per kind, buffer
 * and width; the line size read off each sweep; the classic pattern. */
void align_tables(FILE *out, const struct cp_results *results,
		  const char *mode, const struct align_sweeps *sweeps);

#endif
