/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec's series: the command run RUNS times cold (caches evicted just
 * before), warm (nothing evicted: the previous run's leftovers stay), or
 * both alternating, cold first, so that every warm run follows a cold one
 * and slow drifts of the machine reach both kinds alike.  The series
 * stops at the first run that fails, at a failed eviction and at a stop
 * signal (harness/interrupt.h); a run a signal came during is not counted.
 */
#ifndef CACHEPROBE_EXEC_SERIES_H
#define CACHEPROBE_EXEC_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/exec_runs.h"

struct cli_progress;

enum exec_kind { EXEC_KIND_COLD, EXEC_KIND_WARM, EXEC_NR_KINDS };

/* Which kinds a series runs: a bit per enum exec_kind. */
#define EXEC_COLD (1u << EXEC_KIND_COLD)
#define EXEC_WARM (1u << EXEC_KIND_WARM)
#define EXEC_BOTH (EXEC_COLD | EXEC_WARM)

/* Runs of each kind at most: compare and the cold/warm ratio pair every
 * sample with every other, runs squared of them. */
#define EXEC_MAX_RUNS 1000

/* The samples of one kind, in the order taken. */
struct exec_samples {
	size_t nr;
	double *wall_ns, *user_ns, *sys_ns;
	double *evict_ns;	/* cold: the eviction before each run */
};

enum exec_stop {
	EXEC_STOP_NONE,		/* every run done */
	EXEC_STOP_COMMAND,	/* a run failed: @outcome */
	EXEC_STOP_EVICT,	/* an eviction failed: @why */
	EXEC_STOP_WAIT,		/* the command could not be waited for */
	EXEC_STOP_SIGNAL,	/* a stop signal */
};

/*
 * Evict before a cold run; 0, or -errno with the reason in @why.  Called
 * with @context, which holds what the eviction needs.
 */
typedef int (*exec_evict_fn)(void *context, char *why, size_t why_len);

struct exec_series {
	/* Asked for. */
	unsigned int kinds;		/* EXEC_COLD, EXEC_WARM, EXEC_BOTH */
	size_t runs;			/* of each kind */
	char *const *argv;		/* the command */
	bool stdout_to_stderr;		/* a result goes to stdout */
	exec_evict_fn evict;
	void *evict_context;
	struct cli_progress *progress;	/* NULL: none */
	/* Keep the progress line during runs: the command's standard
	 * output does not reach the terminal, so cannot run into it. */
	bool progress_during_runs;
	/* Measured. */
	struct exec_samples samples[EXEC_NR_KINDS];
	/* How it ended. */
	enum exec_stop stop;
	size_t stopped_at;		/* the run (from 1) it stopped at */
	struct exec_outcome outcome;	/* EXEC_STOP_COMMAND */
	char why[256];			/* EXEC_STOP_EVICT, _WAIT */
};

/* Set up for @runs of each of @kinds; 0 or -ENOMEM (free it all the
 * same).  The caller fills in the command, eviction and progress. */
int exec_series_init(struct exec_series *series, unsigned int kinds,
		     size_t runs);
void exec_series_free(struct exec_series *series);

/* Runs in the whole series: @runs for each kind. */
size_t exec_series_length(const struct exec_series *series);

/* The kind of run @position (from 0) of the series. */
enum exec_kind exec_series_kind(const struct exec_series *series,
				size_t position);

/* "cold" or "warm". */
const char *exec_kind_name(enum exec_kind kind);

/* Run the series to its end or its stop (series->stop). */
void exec_series_run(struct exec_series *series);

/* Runs that were measured, of every kind. */
size_t exec_series_measured(const struct exec_series *series);

#endif
