// SPDX-License-Identifier: GPL-2.0
/*
 * The align area in user mode: one item through the harness (areas/align/align_run.h
 * builds the buffer and picks the loop), the core clock measured before and
 * after for cycles, and the loop's checksum checked before anything is
 * kept; the classic pattern the same way.
 */
#include "areas/align/align_area.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "areas/align/align_classic.h"
#include "areas/align/align_run.h"
#include "harness/harness_results.h"
#include "harness/harness_rounds.h"
#include "harness/rounds.h"
#include "util/name_bytes.h"
#include "harness/stability.h"

void align_item_name(const struct align_item *item, char *out, size_t len)
{
	char size[32];

	cp_name_bytes(item->buffer, size, sizeof(size));
	snprintf(out, len, "%s %uB off %" PRIu32 ", %s, stride %" PRIu32,
		 cp_align_kind_name(item->kind), item->width, item->offset,
		 size, item->stride);
}

void align_describe(struct cp_measurement *m, const struct align_plan *plan,
		    const struct align_item *item, const char *mode)
{
	snprintf(m->area, sizeof(m->area), "align");
	snprintf(m->mode, sizeof(m->mode), "%s", mode);
	align_item_name(item, m->name, sizeof(m->name));
	if (strcmp(mode, "user") != 0) {
		size_t len = strlen(m->name);

		snprintf(m->name + len, sizeof(m->name) - len, " (%s)", mode);
	}
	cp_measurement_add_param(m, "width_bytes", item->width);
	cp_measurement_add_param(m, "offset_bytes", item->offset);
	cp_measurement_add_param(m, "stride_bytes", item->stride);
	cp_measurement_add_param(m, "buffer_bytes", (int64_t)item->buffer);
	cp_measurement_add_param(m, "split",
				 cp_align_split_of(item->offset, item->width,
						   plan->line));
	cp_measurement_add_param(m, "cpu", plan->cpu);
	cp_measurement_add_param(m, "line_bytes", plan->line);
}

/* @samples into a new measurement that @describe names. */
static int keep(struct cp_area_context *context, struct cp_samples *samples,
		uint64_t scale, const struct cp_round_clock *clock,
		struct cp_measurement **out)
{
	struct cp_measurement *m = cp_results_add(context->results);
	int ret;

	if (!m) {
		cp_samples_free(samples);
		return -ENOMEM;
	}
	m->core_cycles_per_tick = cp_round_clock_mean(clock);
	ret = cp_measurement_take_samples(m, samples, scale,
					  context->clock->tsc_hz);
	if (ret)
		return ret;
	cp_stability_check(m, samples->median_sample_ticks,
			   context->harness);
	cp_stability_check_core_clock(m, clock->drift_before,
				      clock->drift_after);
	*out = m;
	return 0;
}

/* An item's rounds: each builds its buffer anew (two slots, as
 * harness/harness_rounds.h's arrangements have; interleaved, each is
 * released as soon as its round is measured). */
struct item_rounds {
	struct cp_align_access access;
	struct cp_align_run runs[2];
	uint64_t scale;
};

static int build_item(void *data, unsigned int round,
		      struct cp_benchmark *benchmark)
{
	struct item_rounds *item = data;
	struct cp_align_access access = item->access;
	struct cp_align_run *run = &item->runs[round % 2];
	int ret;

	access.seed += round;
	ret = cp_align_run_build(run, &access);
	if (ret)
		return ret;
	item->scale = run->scale;
	*benchmark = (struct cp_benchmark){
		.body = cp_align_run_body, .context = run, .scale = run->scale,
		/* One lap, so every slot is cached before the first sample. */
		.prime_count = run->nr_slots / run->scale + 1,
	};
	return 0;
}

static bool verify_item(void *data, unsigned int round)
{
	struct item_rounds *item = data;

	return cp_align_run_verify(&item->runs[round % 2]);
}

static void release_item(void *data, unsigned int round)
{
	struct item_rounds *item = data;

	cp_align_run_free(&item->runs[round % 2]);
}

static void describe_classic(struct cp_measurement *m,
			     const struct align_plan *plan,
			     const struct cp_align_classic *classic)
{
	unsigned int lines = cp_align_classic_lines_per_step(plan->line,
							     classic->shift);
	uint64_t touched = classic->steps * lines * plan->line;
	char size[32], text[16];

	cp_name_bytes(classic->size, size, sizeof(size));
	snprintf(m->area, sizeof(m->area), "align");
	snprintf(m->mode, sizeof(m->mode), "user");
	snprintf(m->name, sizeof(m->name), "classic shift %" PRIu32 ", %s",
		 classic->shift, size);
	cp_name_bytes(touched, text, sizeof(text));
	snprintf(m->note, sizeof(m->note), "%u line%s/step: %.12s of lines%s",
		 lines, lines > 1 ? "s" : "", text,
		 !plan->l1d_bytes ? ""
		 : touched > plan->l1d_bytes ? " > L1d" : ", fits L1d");
	cp_measurement_add_param(m, "shift_bytes", classic->shift);
	cp_measurement_add_param(m, "buffer_bytes", (int64_t)classic->size);
	cp_measurement_add_param(m, "step_bytes",
				 plan->line * CP_ALIGN_CLASSIC_STEP_LINES);
	cp_measurement_add_param(m, "lines_per_step", lines);
	cp_measurement_add_param(m, "touched_bytes", (int64_t)touched);
	cp_measurement_add_param(m, "line_bytes", plan->line);
	cp_measurement_add_param(m, "cpu", plan->cpu);
}

/* The classic pattern's rounds, as an item's. */
struct shift_rounds {
	uint64_t size;
	uint32_t line, shift;
	struct cp_align_classic classics[2];
	/* What describe_classic reads: the pattern, not its buffer. */
	struct cp_align_classic pattern;
};

static int build_shift(void *data, unsigned int round,
		       struct cp_benchmark *benchmark)
{
	struct shift_rounds *shift = data;
	struct cp_align_classic *classic = &shift->classics[round % 2];
	int ret = cp_align_classic_build(classic, shift->size, shift->line,
					 shift->shift);

	if (ret)
		return ret;
	shift->pattern = (struct cp_align_classic){
		.size = classic->size, .line = classic->line,
		.shift = classic->shift, .steps = classic->steps,
	};
	*benchmark = (struct cp_benchmark){
		.body = cp_align_classic_body, .context = classic,
		.scale = classic->steps * 2, .prime_count = 2,
	};
	return 0;
}

static bool verify_shift(void *data, unsigned int round)
{
	struct shift_rounds *shift = data;

	return cp_align_classic_verify(&shift->classics[round % 2]);
}

static void release_shift(void *data, unsigned int round)
{
	struct shift_rounds *shift = data;

	cp_align_classic_free(&shift->classics[round % 2]);
}

/* What an interleaved run needs per measurement: an item's rounds or a
 * classic shift's, and which. */
struct align_all {
	struct cp_area_context *context;
	const struct align_plan *plan;
	struct item_rounds *items;
	struct shift_rounds shifts[3];
	size_t nr_shifts;
	double done, total;
	align_progress_fn progress;
};

static void start_round(void *data, size_t index, unsigned int round)
{
	struct align_all *all = data;

	(void)round;
	if (index >= all->plan->nr_items)
		return;
	if (all->progress)
		all->progress(all->context, &all->plan->items[index],
			      all->done, all->total);
	all->done += 1.0 / cp_rounds_plan(all->plan->harness.config.samples,
					  all->plan->harness.config.rounds)
				   .rounds;
}

/* The measurements of index @i, recorded; @samples are taken over. */
static int record_one(struct align_all *all, size_t i,
		      struct cp_samples *samples,
		      const struct cp_round_clock *clock)
{
	const struct align_plan *plan = all->plan;
	struct cp_measurement *m = NULL;
	int ret;

	if (!samples->nr_samples) {
		cp_samples_free(samples);
		return 0;
	}
	if (i < plan->nr_items) {
		ret = keep(all->context, samples, all->items[i].scale, clock,
			   &m);
		if (m)
			align_describe(m, plan, &plan->items[i], "user");
		return ret;
	}
	ret = keep(all->context, samples,
		   all->shifts[i - plan->nr_items].pattern.steps * 2, clock,
		   &m);
	if (m)
		describe_classic(m, plan, &all->shifts[i - plan->nr_items].pattern);
	return ret;
}

/*
 * The items' arrangements, then the classic pattern's three shifts over
 * twice the L1d: one line per step (a third of the buffer's lines) fits
 * in L1d, two lines per step (two thirds) do not.
 */
static void arrange(struct align_all *all, struct cp_arrangement *arrangements)
{
	const struct align_plan *plan = all->plan;
	uint64_t size = plan->l1d_bytes ? 2 * plan->l1d_bytes : 64 << 10;
	const uint32_t shifts[] = { 0, plan->line / 2 - 1, plan->line / 2 };

	for (size_t i = 0; i < plan->nr_items; i++) {
		const struct align_item *item = &plan->items[i];

		all->items[i].access = (struct cp_align_access){
			.kind = item->kind, .width = item->width,
			.offset = item->offset, .stride = item->stride,
			.size = item->buffer,
			.seed = all->context->options->seed,
		};
		arrangements[i] = (struct cp_arrangement){
			build_item, verify_item, release_item, &all->items[i],
		};
	}
	size -= size % (plan->line * CP_ALIGN_CLASSIC_STEP_LINES);
	for (size_t k = 0; k < all->nr_shifts; k++) {
		all->shifts[k] = (struct shift_rounds){
			.size = size, .line = plan->line, .shift = shifts[k],
		};
		arrangements[plan->nr_items + k] = (struct cp_arrangement){
			build_shift, verify_shift, release_shift,
			&all->shifts[k],
		};
	}
}

/* The error of measurement @i failing with @ret. */
static int measure_all_error(const struct align_plan *plan, size_t i,
			     int ret, struct cp_error *error)
{
	char name[96] = "the classic pattern";

	if (i == SIZE_MAX)
		return cp_error_set(error, -ret, "align: cannot measure");
	if (i < plan->nr_items)
		align_item_name(&plan->items[i], name, sizeof(name));
	if (ret == -EIO)
		return cp_error_set(error, EIO,
				    "align: %s: the checksum of what was loaded or stored does not match the buffer",
				    name);
	return cp_error_set(error, -ret, "align: cannot measure %s", name);
}

int align_measure_all(struct cp_area_context *context,
		      const struct align_plan *plan, align_progress_fn progress,
		      double done, double total, struct cp_error *error)
{
	struct align_all all = {
		.context = context, .plan = plan, .nr_shifts = 3,
		.done = done, .total = total, .progress = progress,
	};
	size_t n = plan->nr_items + all.nr_shifts, failed;
	struct cp_arrangement *arrangements = calloc(n, sizeof(*arrangements));
	struct cp_samples *outs = calloc(n, sizeof(*outs));
	struct cp_round_clock *clocks = calloc(n, sizeof(*clocks));
	int ret = -ENOMEM;

	all.items = calloc(plan->nr_items + 1, sizeof(*all.items));
	if (arrangements && outs && clocks && all.items) {
		arrange(&all, arrangements);
		ret = cp_harness_measure_interleaved(
			&plan->harness, arrangements, n,
			context->options->seed, outs, clocks, start_round,
			&all, &failed);
		if (ret) {
			ret = measure_all_error(plan, failed, ret, error);
		} else {
			for (size_t i = 0; i < n && !ret; i++)
				ret = record_one(&all, i, &outs[i], &clocks[i]);
			if (ret)
				ret = cp_error_set(error, -ret,
						   "align: cannot keep results");
		}
		/* What a failed record left unrecorded (taken ones are
		 * NULL). */
		for (size_t i = 0; i < n; i++)
			cp_samples_free(&outs[i]);
		if (!ret && n && outs[0].interrupted)
			ret = -EINTR;
	} else {
		ret = cp_error_set(error, ENOMEM, "align: no memory");
	}
	free(arrangements);
	free(outs);
	free(clocks);
	free(all.items);
	return ret;
}
