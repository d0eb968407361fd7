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
#include <string.h>

#include "areas/align/align_classic.h"
#include "areas/align/align_run.h"
#include "harness/harness_results.h"
#include "harness/harness_rounds.h"
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

/* An item's rounds: each builds its buffer anew, the last one still
 * held (harness/harness_rounds.h). */
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

int align_measure(struct cp_area_context *context,
		  const struct align_plan *plan, const struct align_item *item,
		  struct cp_error *error)
{
	struct item_rounds rounds = {
		.access = {
			.kind = item->kind, .width = item->width,
			.offset = item->offset, .stride = item->stride,
			.size = item->buffer, .seed = context->options->seed,
		},
	};
	const struct cp_arrangement arrangement = {
		.build = build_item, .verify = verify_item,
		.release = release_item, .context = &rounds,
	};
	struct cp_round_clock clock;
	struct cp_samples samples;
	struct cp_measurement *m = NULL;
	char name[96];
	int ret = cp_harness_measure_rounds(&plan->harness, &arrangement,
					    &samples, &clock);

	align_item_name(item, name, sizeof(name));
	if (!ret)
		ret = keep(context, &samples, rounds.scale, &clock, &m);
	if (m)
		align_describe(m, plan, item, "user");
	if (ret == -EIO)
		return cp_error_set(error, EIO,
				    "align: %s: the checksum of what was loaded or stored does not match the buffer",
				    name);
	if (ret && ret != -EINTR)
		return cp_error_set(error, -ret, "align: cannot measure %s",
				    name);
	return ret;
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

static int measure_shift(struct cp_area_context *context,
			 const struct align_plan *plan, uint64_t size,
			 uint32_t shift, struct cp_error *error)
{
	struct shift_rounds rounds = {
		.size = size, .line = plan->line, .shift = shift,
	};
	const struct cp_arrangement arrangement = {
		.build = build_shift, .verify = verify_shift,
		.release = release_shift, .context = &rounds,
	};
	struct cp_round_clock clock;
	struct cp_samples samples;
	struct cp_measurement *m = NULL;
	int ret = cp_harness_measure_rounds(&plan->harness, &arrangement,
					    &samples, &clock);

	if (!ret)
		ret = keep(context, &samples, rounds.pattern.steps * 2, &clock,
			   &m);
	if (m)
		describe_classic(m, plan, &rounds.pattern);
	if (ret == -EIO)
		return cp_error_set(error, EIO,
				    "align: classic pattern: the checksum of what was loaded does not match the buffer");
	if (ret && ret != -EINTR)
		return cp_error_set(error, -ret,
				    "align: cannot measure the classic pattern");
	return ret;
}

/*
 * Over twice the L1d: one line per step (a third of the buffer's lines)
 * fits in L1d, two lines per step (two thirds) do not.
 */
int align_measure_classic(struct cp_area_context *context,
			  const struct align_plan *plan, struct cp_error *error)
{
	uint64_t size = plan->l1d_bytes ? 2 * plan->l1d_bytes : 64 << 10;
	uint32_t shifts[] = { 0, plan->line / 2 - 1, plan->line / 2 };
	int ret = 0;

	size -= size % (plan->line * CP_ALIGN_CLASSIC_STEP_LINES);
	for (size_t i = 0; i < 3 && !ret; i++)
		ret = measure_shift(context, plan, size, shifts[i], error);
	return ret;
}
