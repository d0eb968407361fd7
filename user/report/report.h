/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HTML report of a run: one self-contained page (styles inline, charts
 * as inline SVG, no scripts, nothing fetched when it is opened) with the
 * machine and its warnings at the top and one section per area that ran.
 */
#ifndef CACHEPROBE_REPORT_H
#define CACHEPROBE_REPORT_H

#include <stdio.h>

#include "results/results.h"

/* 0, or -EIO when @out could not be written. */
int cp_report_write(const struct cp_results *results, FILE *out);

#endif
