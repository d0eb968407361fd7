/* SPDX-License-Identifier: GPL-2.0 */
/* The align area's parts: the plan (align.c), user-mode measurements
 * (align_measure.c), kernel-mode ones through ACCESS (align_kernel.c) and
 * what is derived from them (align_derive.c). */
#ifndef CACHEPROBE_ALIGN_AREA_H
#define CACHEPROBE_ALIGN_AREA_H

#include "areas/area.h"
#include "areas/align/align_choices.h"

#define ALIGN_DEFAULT_LINE 64
/* Samples of this length are plenty for loops over L1 and L2 (hundreds of
 * thousands of accesses); longer ones only make the many points slow.
 * --sample-time overrides it. */
#define ALIGN_DEFAULT_SAMPLE_NS 250e3
/* Groups of at least this many offsets are sweeps the line size is read
 * from. */
#define ALIGN_MIN_SWEEP 16

/* One measurement to take. */
struct align_item {
	enum cp_align_kind kind;
	unsigned int width;
	uint32_t offset;
	uint32_t stride;
	uint64_t buffer;		/* bytes */
};

struct align_plan {
	int cpu;
	unsigned int line;		/* the L1d line the system reports */
	uint64_t l1d_bytes;		/* nominal, 0: unknown */
	struct cp_align_choices choices;	/* completed, buffers resolved */
	char skipped[160];		/* widths left out and why, or "" */
	struct align_item *items;
	size_t nr_items;
	struct cp_harness harness;	/* the run's, with align's samples */
};

/* The module, for kernel-mode measurements. */
struct align_kernel {
	struct cp_client *client;
	uint64_t features;		/* CACHEPROBE_FEAT_* */
	uint64_t max_irqoff_ns;		/* 0: unknown */
	uint64_t max_buffer_bytes;	/* 0: unknown */
	bool takes_seed;		/* ABI 5: ACCESS's SEED */
};

/* "load-latency 8B off 60, 24 KiB, stride 256". */
void align_item_name(const struct align_item *item, char *out, size_t len);

/* Area, name, mode and parameters of a new measurement of @item. */
void align_describe(struct cp_measurement *m, const struct align_plan *plan,
		    const struct align_item *item, const char *mode);

/* Called as user mode starts a round of @item, @done of @total. */
typedef void (*align_progress_fn)(struct cp_area_context *context,
				  const struct align_item *item, double done,
				  double total);

/*
 * Every item of @plan and the classic pattern's three shifts in user
 * mode, their rounds interleaved (harness/harness_rounds.h), recorded in
 * the plan's order, the classic shifts last.  0, -EINTR (what was
 * measured kept), or -errno with @error (nothing recorded when a round
 * failed; what was recorded before when keeping results failed).
 */
int align_measure_all(struct cp_area_context *context,
		      const struct align_plan *plan, align_progress_fn progress,
		      double done, double total, struct cp_error *error);

/* NULL when the module can measure @item, else why not. */
const char *align_kernel_refuses(const struct align_kernel *kernel,
				 const struct align_item *item);

/* Measure @item with the module's ACCESS into a new measurement. */
int align_measure_kernel(struct cp_area_context *context,
			 const struct align_plan *plan,
			 const struct align_kernel *kernel,
			 const struct align_item *item, struct cp_error *error);

/* Penalty ratios, notes and the line size for the measurements of @mode
 * from index @first on. */
void align_derive(struct cp_results *results, size_t first, const char *mode,
		  const struct align_plan *plan);

#endif
