// SPDX-License-Identifier: GPL-2.0
#include "cli/exec_series.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/progress.h"
#include "harness/interrupt.h"

static const char *const kind_names[EXEC_NR_KINDS] = {
	[EXEC_KIND_COLD] = "cold",
	[EXEC_KIND_WARM] = "warm",
};

const char *exec_kind_name(enum exec_kind kind)
{
	return kind_names[kind];
}

static bool has_kind(const struct exec_series *series, enum exec_kind kind)
{
	return series->kinds & (1u << kind);
}

int exec_series_init(struct exec_series *series, unsigned int kinds,
		     size_t runs)
{
	memset(series, 0, sizeof(*series));
	series->kinds = kinds;
	series->runs = runs;
	for (int k = 0; k < EXEC_NR_KINDS; k++) {
		struct exec_samples *samples = &series->samples[k];

		if (!has_kind(series, k))
			continue;
		samples->wall_ns = calloc(runs, sizeof(double));
		samples->user_ns = calloc(runs, sizeof(double));
		samples->sys_ns = calloc(runs, sizeof(double));
		if (k == EXEC_KIND_COLD)
			samples->evict_ns = calloc(runs, sizeof(double));
		if (!samples->wall_ns || !samples->user_ns ||
		    !samples->sys_ns ||
		    (k == EXEC_KIND_COLD && !samples->evict_ns))
			return -ENOMEM;
	}
	return 0;
}

void exec_series_free(struct exec_series *series)
{
	for (int k = 0; k < EXEC_NR_KINDS; k++) {
		free(series->samples[k].wall_ns);
		free(series->samples[k].user_ns);
		free(series->samples[k].sys_ns);
		free(series->samples[k].evict_ns);
	}
	memset(series->samples, 0, sizeof(series->samples));
}

size_t exec_series_length(const struct exec_series *series)
{
	return series->kinds == EXEC_BOTH ? 2 * series->runs : series->runs;
}

enum exec_kind exec_series_kind(const struct exec_series *series,
				size_t position)
{
	if (series->kinds == EXEC_BOTH)
		return position % 2 ? EXEC_KIND_WARM : EXEC_KIND_COLD;
	return has_kind(series, EXEC_KIND_COLD) ? EXEC_KIND_COLD
						: EXEC_KIND_WARM;
}

size_t exec_series_measured(const struct exec_series *series)
{
	return series->samples[EXEC_KIND_COLD].nr +
	       series->samples[EXEC_KIND_WARM].nr;
}

static double ns_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) * 1e9 +
	       (double)(now.tv_nsec - start->tv_nsec);
}

static void show_progress(struct exec_series *series, size_t position)
{
	char what[64];

	if (!series->progress)
		return;
	snprintf(what, sizeof(what), "run %zu of %zu, %s", position + 1,
		 exec_series_length(series),
		 exec_kind_name(exec_series_kind(series, position)));
	cli_progress_update(series->progress, what, (double)position,
			    (double)exec_series_length(series));
}

static bool stop_for(struct exec_series *series, enum exec_stop stop,
		     size_t position)
{
	series->stop = stop;
	series->stopped_at = position + 1;
	return false;
}

/* Evict and time it, into *@evict_ns; false when the series stops. */
static bool evict(struct exec_series *series, size_t position,
		  double *evict_ns)
{
	struct timespec started;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &started);
	ret = series->evict(series->evict_context, series->why,
			    sizeof(series->why));
	*evict_ns = ns_since(&started);
	if (cp_interrupt_requested())
		return stop_for(series, EXEC_STOP_SIGNAL, position);
	if (ret)
		return stop_for(series, EXEC_STOP_EVICT, position);
	return true;
}

/* Run once; false when the series stops. */
static bool run(struct exec_series *series, size_t position,
		struct exec_timing *timing)
{
	int ret;

	if (cp_interrupt_requested())
		return stop_for(series, EXEC_STOP_SIGNAL, position);
	/* The command's output follows ours, and the line is clear of
	 * progress for it, before the clock starts. */
	if (series->progress && !series->progress_during_runs)
		cli_progress_clear(series->progress);
	fflush(stdout);
	fflush(stderr);
	ret = exec_run_once(series->argv, series->stdout_to_stderr, timing,
			    &series->outcome);
	if (ret) {
		snprintf(series->why, sizeof(series->why),
			 "cannot wait for the command: %s", strerror(-ret));
		return stop_for(series, EXEC_STOP_WAIT, position);
	}
	/* A run a signal came during is not a measurement. */
	if (cp_interrupt_requested())
		return stop_for(series, EXEC_STOP_SIGNAL, position);
	if (!exec_outcome_succeeded(&series->outcome))
		return stop_for(series, EXEC_STOP_COMMAND, position);
	return true;
}

static void record(struct exec_samples *samples,
		   const struct exec_timing *timing, double evict_ns)
{
	size_t i = samples->nr++;

	samples->wall_ns[i] = timing->wall_ns;
	samples->user_ns[i] = timing->user_ns;
	samples->sys_ns[i] = timing->sys_ns;
	if (samples->evict_ns)
		samples->evict_ns[i] = evict_ns;
}

void exec_series_run(struct exec_series *series)
{
	size_t length = exec_series_length(series);

	series->stop = EXEC_STOP_NONE;
	for (size_t position = 0; position < length; position++) {
		enum exec_kind kind = exec_series_kind(series, position);
		struct exec_timing timing;
		double evict_ns = 0;

		show_progress(series, position);
		if (cp_interrupt_requested()) {
			stop_for(series, EXEC_STOP_SIGNAL, position);
			break;
		}
		if (kind == EXEC_KIND_COLD &&
		    !evict(series, position, &evict_ns))
			break;
		if (!run(series, position, &timing))
			break;
		record(&series->samples[kind], &timing, evict_ns);
	}
	if (series->progress)
		cli_progress_clear(series->progress);
}
