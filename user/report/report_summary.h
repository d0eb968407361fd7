/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CACHEPROBE_REPORT_SUMMARY_H
#define CACHEPROBE_REPORT_SUMMARY_H

#include <stdio.h>

#include "results/results.h"

/* The report's first section, <section id="summary">: the run's findings
 * (results/summary.h) as a table of topic, answer and interval, then the
 * run's doubts. */
void report_summary(FILE *out, const struct cp_results *results);

#endif
