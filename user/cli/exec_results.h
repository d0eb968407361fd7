/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec's series as results (schema cacheprobe-results/1, area "exec"), so
 * that compare, report and the JSON and CSV readers take them like any
 * run's: per kind "cold wall", "cold user", "cold sys" (and "warm ..."),
 * one sample per run in ns; "evict", the eviction before each cold run.
 * With both kinds, the cold/warm contrast of the wall times: the ratio
 * with its interval (stats/ratio_interval.h) and the Mann-Whitney test.
 */
#ifndef CACHEPROBE_EXEC_RESULTS_H
#define CACHEPROBE_EXEC_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/exec_series.h"
#include "stats/ratio_interval.h"
#include "results/results.h"

#define EXEC_AREA "exec"
#define EXEC_CONFIDENCE 0.95

/* How the cold runs were made cold. */
struct exec_eviction {
	int method;		/* enum cacheprobe_method; 0 when none ran */
	const char *name;	/* "garbage", ... */
	const char *reason;	/* why that method ("" for none) */
	uint64_t garbage_bytes;	/* read per eviction; 0: other methods */
};

/* Cold against warm wall time. */
struct exec_contrast {
	bool valid;		/* both kinds have samples */
	struct cp_ratio_interval ratio;	/* cold/warm, EXEC_CONFIDENCE */
	double p_value;		/* two-sided Mann-Whitney */
	bool exact;
};

/*
 * @argv joined by spaces, as snprintf into @buf; a command longer than
 * @len is cut, ending "...".  What a measurement's note holds.
 */
void exec_command_text(char *const argv[], char *buf, size_t len);

/* The contrast of @series' cold and warm wall times; 0, or -ENOMEM. */
int exec_contrast_compute(const struct exec_series *series,
			  struct exec_contrast *out);

/*
 * Add the measurements of @series to @results (environment and clock
 * already there; @tsc_hz turns ns into samples_ticks): @command as each
 * one's note, @eviction's method on the cold ones, @contrast on "cold
 * wall".  Marks @results interrupted when the series stopped early, with
 * @stop_reason.  0, or -ENOMEM.
 */
int exec_results_add(struct cp_results *results,
		     const struct exec_series *series, const char *command,
		     const struct exec_eviction *eviction,
		     const struct exec_contrast *contrast, double tsc_hz,
		     const char *stop_reason);

#endif
