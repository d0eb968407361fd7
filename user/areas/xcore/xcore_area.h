/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The xcore area's parts: the plan (xcore_plan.c), one configuration
 * measured in user mode (xcore_measure.c) or by the module
 * (xcore_kernel.c), and the transfer penalty against the same-CPU case
 * (xcore_derive.c).
 */
#ifndef CACHEPROBE_XCORE_AREA_H
#define CACHEPROBE_XCORE_AREA_H

#include <stdbool.h>
#include <stdint.h>

#include "areas/area.h"
#include "machine/cpu_pairs.h"
#include "areas/xcore/xcore_block.h"
#include "areas/xcore/xcore_choices.h"

/* Pairs named with --pairs, at most. */
#define XCORE_MAX_PAIRS 16
/* The pairs, the same-CPU baseline and the from-memory baseline. */
#define XCORE_MAX_TARGETS (XCORE_MAX_PAIRS + 2)
/* Preempted rounds taken again, per round wanted. */
#define XCORE_RETAKES_PER_ROUND 1

enum xcore_kind {
	XCORE_PAIR,		/* producer and consumer on two CPUs */
	XCORE_SAME_CPU,		/* one CPU produces and consumes */
	XCORE_MEMORY,		/* nobody produces: the block is in memory */
};

struct xcore_target {
	enum xcore_kind kind;
	unsigned int producer, consumer;
	enum cp_pair_class pair_class;	/* XCORE_PAIR only */
};

struct xcore_plan {
	struct xcore_target targets[XCORE_MAX_TARGETS];
	size_t nr_targets;
	uint64_t sizes[CP_XCORE_MAX_SIZES];
	size_t nr_sizes;
	unsigned int delay;
	unsigned int line_size;
	double total, done;		/* progress, in configurations */
};

/* The module, for kernel-mode measurements. */
struct xcore_kernel {
	struct cp_client *client;
	uint64_t max_buffer_bytes;	/* 0: unknown */
	bool stopped;			/* a size overflowed: no larger ones */
	uint64_t stopped_at;
	bool memory_skipped;		/* CHASE has no delay: no baseline */
};

/* One configuration: a target, a block size and what the producer does
 * (TOUCH_NONE for the memory baseline). */
struct xcore_config {
	const struct xcore_target *target;
	uint64_t size;
	enum cp_xcore_touch touch;
	unsigned int delay;
};

/*
 * Plan from the options: pairs (--pairs among --cpus, default one per
 * class), baselines, sizes.  0, or -EINVAL with the reason in @why.
 */
int xcore_plan(const struct cp_area_options *options,
	       const struct cp_topology *topology, struct xcore_plan *plan,
	       char *why, size_t why_len);

/* "read shared-l3 0>1 64 KiB", "memory cpu 1 64 KiB" (+ " delay N"). */
void xcore_config_name(const struct xcore_config *config, char *out,
		       size_t len);

/* Area, name, mode, params and note of a new measurement of @config. */
void xcore_describe(struct cp_measurement *m, const struct xcore_config *config,
		    const struct cp_topology *topology, const char *mode);

/*
 * Measure a configuration in user mode into a new measurement, a round
 * (an arrangement) at a time, so that a run can interleave the rounds of
 * its configurations: start (0 or -ENOMEM; each round's block is
 * released at once, since others' rounds come between two of its own),
 * then a round per call until xcore_measure_rounds (0, -EINTR or -errno
 * with @error; a call past the last round, or after an interrupted one,
 * does nothing), then finish,
 * which records what the rounds measured (none: nothing) and frees @m,
 * or drop, which frees it and records nothing.
 */
struct xcore_measuring;
int xcore_measure_start(const struct xcore_config *config,
			const struct cp_harness_config *harness,
			struct xcore_measuring **m);
unsigned int xcore_measure_rounds(const struct xcore_measuring *m);
int xcore_measure_round(struct cp_area_context *context,
			struct xcore_measuring *m, struct cp_error *error);
int xcore_measure_finish(struct cp_area_context *context,
			 struct xcore_measuring *m, struct cp_error *error);
void xcore_measure_drop(struct xcore_measuring *m);

/* A configuration measured by the module, into a new measurement; 0 also
 * when the size was skipped (too large for its window or buffer:
 * @kernel->stopped). */
int xcore_measure_kernel(struct cp_area_context *context,
			 struct xcore_kernel *kernel,
			 const struct xcore_config *config,
			 struct cp_error *error);

/* penalty_milli (against the same-CPU measurement of the same size, touch
 * and mode) on every pair measurement of @size. */
void xcore_derive_penalties(struct cp_results *results, uint64_t size);

#endif
