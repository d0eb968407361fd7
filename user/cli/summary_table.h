/* SPDX-License-Identifier: GPL-2.0 */
/* The run's findings (results/summary.h) on the console, before the tables
 * that are their evidence: one finding a line, wrapped to 80 columns,
 * its interval after it when it has one, the run's doubts last. */
#ifndef CACHEPROBE_SUMMARY_TABLE_H
#define CACHEPROBE_SUMMARY_TABLE_H

#include <stdio.h>

#include "results/results.h"

void cli_print_summary(FILE *out, const struct cp_results *results);

/* The console's short form after the summary (a terminal without
 * --verbose): one line per area that measured, its measurements, the
 * modes, how many carry warnings and the run's notes on it, and where
 * the rest is. */
void cli_print_area_lines(FILE *out, const struct cp_results *results);

#endif
