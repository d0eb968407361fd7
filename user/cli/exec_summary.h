/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec's console summary: what ran and how it was made cold, per kind the
 * median wall, user and system time with the 95 % interval of the median,
 * the evictions, and with both kinds the cold/warm ratio of the wall
 * times with its interval and the Mann-Whitney p-value.
 */
#ifndef CACHEPROBE_EXEC_SUMMARY_H
#define CACHEPROBE_EXEC_SUMMARY_H

#include <stdio.h>

#include "cli/exec_results.h"
#include "cli/exec_series.h"
#include "results/results.h"

struct exec_summary {
	const struct cp_results *results;	/* exec_results_add's */
	const struct exec_series *series;
	const char *command;
	const struct exec_eviction *eviction;	/* NULL: nothing evicted */
	const char *cpus;			/* NULL: the default */
	const struct exec_contrast *contrast;
	const char *stop_reason;		/* when the series stopped */
};

void exec_summary_print(FILE *out, const struct exec_summary *summary);

#endif
