/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-memory result of a run, from which every output is made (console
 * table, JSON, CSV) and into which a JSON file is read back (compare).
 *
 * A measurement is identified by its area, name and mode (kernel-mode
 * measurements may share names with user-mode ones); its samples are kept
 * in TSC ticks and in ns per operation, with core cycles per tick where
 * the core clock was measured beside it.
 */
#ifndef CACHEPROBE_RESULTS_H
#define CACHEPROBE_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/environment.h"
#include "stats/stats.h"

#define CP_RESULTS_SCHEMA "cacheprobe-results/1"
#define CP_MAX_PARAMS 16
#define CP_MAX_WARNINGS 8

struct cp_param {
	char name[32];
	int64_t value;
};

struct cp_measurement {
	char area[32];
	char name[64];
	char mode[16];			/* "user" or "kernel" */
	/* Context for readers, e.g. which nominal cache a working set fits
	 * ("fits L2 (2 MiB)"); "" for none. */
	char note[48];
	size_t nr_params;
	struct cp_param params[CP_MAX_PARAMS];
	uint64_t count;			/* iterations per sample */
	uint64_t scale;			/* operations per iteration */
	size_t nr_samples;
	/* Samples taken in rounds of this many, each round on a new
	 * arrangement (harness/rounds.h); 0: all on one. */
	unsigned int samples_per_round;
	double *ticks;			/* per operation, malloc'ed */
	double *ns;			/* the same in ns */
	double core_cycles_per_tick;	/* 0: not measured */
	struct cp_stats stats_ns;
	bool interrupted;
	unsigned int preempted_retaken;	/* samples taken again */
	size_t nr_warnings;
	/* CP_MAX_WARNINGS of them, allocated by the first warning: most
	 * measurements have none, and a run of 200,000 read back by compare
	 * would otherwise touch 250 MB for them. */
	char (*warnings)[160];
};

/* One cache level as the latency curve shows it. */
struct cp_level_estimate {
	char name[16];			/* "L1d", "L2", "L3", "memory" */
	uint64_t nominal_bytes;		/* from the topology; 0 for memory */
	uint64_t effective_bytes;	/* largest size served at this level */
	double latency_ns;		/* the plateau */
	double latency_ticks;
	double latency_cycles;		/* 0: core clock not measured */
	/* Loads slower than this come from a further level; 0 for the last.
	 * Later areas classify single loads with it. */
	double threshold_ns;
};

#define CP_MAX_LEVELS 6
#define CP_MAX_SKIPPED_AREAS 16
#define CP_MAX_AREA_NOTES 48

/* An area left out before measuring. */

struct cp_skipped_area {
	char name[32];
	char reason[224];
};

/*
 * What an area found about the run as a whole rather than about one
 * measurement (a method it could not use, how it told levels apart): shown
 * with the area, never as a measurement's warning.
 */
struct cp_area_note {
	char area[32];
	char text[224];
};

struct cp_results {
	char schema[32];
	char tool_version[32];
	struct cp_environment environment;
	double timer_overhead_ticks;
	double timer_granularity_ticks;
	double nothing_ticks_per_iteration;	/* the subtracted floor */
	unsigned int samples_requested;
	double target_sample_ns;
	/* The run ended before it finished (partial results): a signal, or
	 * an area that failed; why, in @interrupted_reason. */
	bool interrupted;
	char interrupted_reason[256];
	/* Left out, and why (e.g. the process may use one CPU and the area
	 * needs two): a script sees what the run did not measure. */
	size_t nr_skipped_areas;
	struct cp_skipped_area skipped_areas[CP_MAX_SKIPPED_AREAS];
	size_t nr_area_notes;
	struct cp_area_note area_notes[CP_MAX_AREA_NOTES];
	size_t nr_measurements;
	size_t capacity;
	struct cp_measurement *measurements;
	size_t nr_levels;
	struct cp_level_estimate levels[CP_MAX_LEVELS];
};

void cp_results_init(struct cp_results *results);
/* Record that area @name was left out for @reason; -ENOSPC when full. */
int cp_results_skip_area(struct cp_results *results, const char *name,
			 const char *reason);
/* Add a note of area @area (once: the same text again is dropped).  0, or
 * -ENOSPC when CP_MAX_AREA_NOTES are taken. */
int cp_results_note(struct cp_results *results, const char *area,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cp_results_free(struct cp_results *results);

/* A new, zeroed measurement at the end (NULL without memory). */
struct cp_measurement *cp_results_add(struct cp_results *results);

/* Take ownership of @ticks (@n values) and derive ns and the stats from
 * them at @tsc_hz.  0 or -ENOMEM. */
int cp_measurement_set_samples(struct cp_measurement *measurement,
			       double *ticks, size_t n, double tsc_hz);

/*
 * Widen every measurement's interval of the median by one timer step on
 * each side: @results' timer granularity over the measurement's count
 * times scale, in ns at the environment's TSC rate.  A sample is a whole
 * number of steps over its operations, so where every round lands on the
 * same number of steps the bootstrap over them has no width, while the
 * median is known to a step only: the next run lands a step away.  Left
 * as they are: intervals not computed (NaN), and measurements or results
 * without a count, scale, granularity or TSC rate.
 */
void cp_results_cover_timer_step(struct cp_results *results);

/* Set parameter @name to @value (a new one, or the one of that name).
 * 0, or -ENOSPC when CP_MAX_PARAMS are taken. */
int cp_measurement_add_param(struct cp_measurement *measurement,
			     const char *name, int64_t value);
/* The value of parameter @name, or @fallback. */
int64_t cp_measurement_param(const struct cp_measurement *measurement,
			     const char *name, int64_t fallback);
void cp_measurement_warn(struct cp_measurement *measurement,
			 const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Whether @measurement spans two CPUs, by the parameters its area gives
 * it: two threads or more (bounce), a producer and a consumer on
 * different CPUs (xcore), a first and a second CPU that differ (c2c).
 * Its figure then follows where the two CPUs are, which on a virtual
 * machine the host chooses (machine/placement.h); a thread alone, the
 * same CPU twice or memory read by one CPU does not.
 */
bool cp_measurement_spans_cpus(const struct cp_measurement *measurement);

/* The first measurement with @area and @name in any mode, or NULL: for
 * readers of one run that know its names are unique. */
const struct cp_measurement *
cp_results_find(const struct cp_results *results, const char *area,
		const char *name);

/* The measurement with @area, @name and @mode (NULL: any), or NULL. */
const struct cp_measurement *
cp_results_find_mode(const struct cp_results *results, const char *area,
		     const char *name, const char *mode);

#endif
