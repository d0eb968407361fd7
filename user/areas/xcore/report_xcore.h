/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The xcore area's curves as the report draws them: one per producer,
 * consumer, action and delay (the baselines included), ns per line at
 * each block size in the order measured.
 */
#ifndef CACHEPROBE_REPORT_XCORE_H
#define CACHEPROBE_REPORT_XCORE_H

#include <stdint.h>
#include <stdio.h>

#include "results/results.h"

#define XCORE_MAX_CURVES 24
#define XCORE_MAX_SIZES 40	/* sizes double from 8 KiB */

struct xcore_curve {
	char name[48];		/* "shared-l3 0>1", "same CPU 0>0" */
	int64_t producer;	/* -1: the memory baseline */
	int64_t consumer, pair_class, delay, modify;	/* class -1: baseline */
	size_t n;
	const struct cp_measurement *at[XCORE_MAX_SIZES];
	double size[XCORE_MAX_SIZES], median[XCORE_MAX_SIZES];
	double low[XCORE_MAX_SIZES], high[XCORE_MAX_SIZES];
};

struct xcore_curves {
	size_t n;
	struct xcore_curve curve[XCORE_MAX_CURVES];
};

void xcore_curves_collect(const struct cp_results *results, const char *mode,
			  struct xcore_curves *curves);

/* Per pair and block size: ns per line against the same CPU and memory,
 * the penalty with its bootstrap 95 % interval. */
void xcore_penalty_table(FILE *out, const char *mode,
			 const struct xcore_curves *curves);

#endif
