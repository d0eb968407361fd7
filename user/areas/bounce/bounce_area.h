/* SPDX-License-Identifier: GPL-2.0 */
/* The bounce area's parts: measuring one configuration (bounce_measure.c)
 * and deriving slowdowns and granularity from a sweep (bounce_derive.c). */
#ifndef CACHEPROBE_BOUNCE_AREA_H
#define CACHEPROBE_BOUNCE_AREA_H

#include "areas/area.h"
#include "areas/bounce/bounce_choices.h"
#include "areas/bounce/bounce_groups.h"

/* Four lines: beyond one line and beyond an adjacent-line pair (128). */
#define BOUNCE_PADDED_LINES 4
#define BOUNCE_DEFAULT_LINE 64

/* The module, for kernel-mode measurements. */
struct bounce_kernel {
	struct cp_client *client;
	uint64_t max_irqoff_ns;		/* 0: unknown */
};

/* One configuration to measure: @group's CPUs (or only its first, alone),
 * by threads here or, with @kernel, by the module. */
struct bounce_config {
	const struct cp_bounce_group *group;
	const struct bounce_kernel *kernel;	/* NULL: user mode */
	bool alone;
	enum cp_bounce_op op;
	unsigned int width;
	uint32_t distance;
};

/* "shared-l3 0,1 plain 4B d=64" or "alone cpu 0 plain 4B". */
void bounce_config_name(const struct bounce_config *config, char *out,
			size_t len);

/*
 * Measure @config in user mode into a new measurement of
 * @context->results, at *@index (an index: adding measurements moves
 * them), a round at a time, so that a sweep can interleave the rounds of
 * its configurations: start (0 or -ENOMEM), then a round per call until
 * bounce_measure_rounds (0, -EINTR or -errno with @error; a call past the
 * last round, or after an interrupted one, does nothing), then finish,
 * which records what the rounds measured (none: nothing recorded) and
 * frees @m, or drop, which frees it and records nothing.
 */
struct bounce_measuring;
int bounce_measure_start(struct cp_area_context *context,
			 const struct bounce_config *config,
			 struct bounce_measuring **m);
unsigned int bounce_measure_rounds(const struct bounce_measuring *m);
int bounce_measure_round(struct cp_area_context *context,
			 struct bounce_measuring *m, struct cp_error *error);
int bounce_measure_finish(struct cp_area_context *context,
			  struct bounce_measuring *m, size_t *index,
			  struct cp_error *error);
void bounce_measure_drop(struct bounce_measuring *m);

/* @config measured by the module ("kernel" mode) into a new measurement
 * at *@index; no alone configurations. */
int bounce_measure_kernel(struct cp_area_context *context,
			  const struct bounce_kernel *kernel,
			  const struct bounce_config *config, size_t *index,
			  struct cp_error *error);

/* Area, name, mode and parameters of a new measurement of @config. */
void bounce_describe(struct cp_measurement *m,
		     const struct bounce_config *config, unsigned int threads,
		     const char *mode);

/* How long one run (user) or sample (kernel) should last, in ns. */
double bounce_run_ns(const struct cp_area_context *context);

/*
 * For one sweep (@sweep[i] measured at @distances[i], @n of them), with
 * the padded measurement @padded and the alone one @alone (either may be
 * NULL when missing): slowdown parameters and notes on every measurement,
 * and the granularity, which is returned (0: not found).
 */
uint32_t bounce_derive_sweep(struct cp_measurement **sweep,
			     const uint32_t *distances, size_t n,
			     const struct cp_measurement *padded,
			     const struct cp_measurement *alone);

/* The classic case on @adjacent (two 4-byte counters side by side)
 * against @one_line (padded to one line): the ratio into its note. */
void bounce_note_classic(struct cp_measurement *adjacent,
			 const struct cp_measurement *one_line,
			 unsigned int line_size);

/*
 * The classic case again, runs of @adjacent's, @one_line's and @padded's
 * layouts alternating on @config's CPUs (user mode), the ratios taken run
 * by run (see bounce_classic.c); replaces the note and classic_milli that
 * bounce_note_classic put on @adjacent and adds classic_padded_milli.
 * 0 or -ENOMEM, -EINVAL (layout).
 */
int bounce_classic_side_by_side(struct cp_area_context *context,
				const struct bounce_config *config,
				struct cp_measurement *adjacent,
				const struct cp_measurement *one_line,
				const struct cp_measurement *padded,
				unsigned int line_size);

#endif
