// SPDX-License-Identifier: GPL-2.0
#include "harness/harness_rounds.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness/clock.h"
#include "harness/interrupt.h"
#include "harness/rounds.h"
#include "harness/turns.h"

double cp_round_clock_mean(const struct cp_round_clock *clock)
{
	return clock->rounds ? clock->ratio_sum / clock->rounds : 0;
}

static double drift(double before, double after)
{
	if (!(before > 0) || !(after > 0))
		return 0;
	return before > after ? before / after : after / before;
}

void cp_round_clock_note(struct cp_round_clock *clock, double before,
			 double after)
{
	clock->ratio_sum += (before + after) / 2;
	clock->rounds++;
	if (drift(before, after) >
	    drift(clock->drift_before, clock->drift_after)) {
		clock->drift_before = before;
		clock->drift_after = after;
	}
}

/* A round whose arrangement stays built when it succeeds. */
static int run_round(const struct cp_harness *harness,
		     const struct cp_arrangement *arrangement,
		     unsigned int round, unsigned int samples,
		     struct cp_samples *acc, struct cp_round_clock *clock)
{
	struct cp_harness once = *harness;
	struct cp_benchmark benchmark;
	struct cp_samples taken;
	double before, after;
	int ret = arrangement->build(arrangement->context, round, &benchmark);

	if (ret)
		return ret;
	once.config.samples = samples;
	if (acc->nr_samples)
		once.config.fixed_count = acc->count;
	before = cp_clock_core_cycles_per_tick();
	ret = cp_harness_measure(&once, &benchmark, &taken);
	after = cp_clock_core_cycles_per_tick();
	if (!ret && arrangement->verify &&
	    !arrangement->verify(arrangement->context, round)) {
		cp_samples_free(&taken);
		ret = -EIO;
	}
	if (!ret) {
		cp_round_clock_note(clock, before, after);
		ret = cp_samples_append(acc, &taken);
	}
	if (ret)
		arrangement->release(arrangement->context, round);
	return ret;
}

int cp_harness_round(const struct cp_harness *harness,
		     const struct cp_arrangement *arrangement,
		     unsigned int round, unsigned int samples,
		     struct cp_samples *acc, struct cp_round_clock *clock)
{
	int ret = run_round(harness, arrangement, round, samples, acc, clock);

	if (!ret)
		arrangement->release(arrangement->context, round);
	return ret;
}

int cp_harness_measure_rounds(const struct cp_harness *harness,
			      const struct cp_arrangement *arrangement,
			      struct cp_samples *out,
			      struct cp_round_clock *clock)
{
	struct cp_rounds plan = cp_rounds_plan(harness->config.samples,
					       harness->config.rounds);
	unsigned int r;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	memset(clock, 0, sizeof(*clock));
	out->samples_per_round = cp_rounds_marked(&plan);
	for (r = 0; r < plan.rounds && !out->interrupted; r++) {
		ret = run_round(harness, arrangement, r,
				cp_rounds_samples_in(&plan, r), out, clock);
		if (r)
			arrangement->release(arrangement->context, r - 1);
		if (ret)
			break;
	}
	if (!ret)
		arrangement->release(arrangement->context, r - 1);
	if (ret == -EINTR && out->nr_samples)
		ret = 0;
	if (ret) {
		cp_samples_free(out);
		return ret;
	}
	out->interrupted |= out->nr_samples < plan.samples;
	return 0;
}

/* One round of every arrangement, in @order; stops at the first error. */
static int interleaved_round(const struct cp_harness *harness,
			     const struct cp_arrangement *arrangements,
			     const size_t *order, size_t n,
			     const struct cp_rounds *plan, unsigned int round,
			     struct cp_samples *outs,
			     struct cp_round_clock *clocks,
			     cp_round_start_fn start, void *data,
			     size_t *failed)
{
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		int ret;

		if (outs[i].interrupted)
			continue;
		if (start)
			start(data, i, round);
		ret = cp_harness_round(harness, &arrangements[i], round,
				       cp_rounds_samples_in(plan, round),
				       &outs[i], &clocks[i]);
		if (ret == -EINTR || (!ret && outs[i].interrupted)) {
			for (size_t j = 0; j < n; j++)
				outs[j].interrupted = true;
			return 0;
		}
		if (ret) {
			*failed = i;
			return ret;
		}
	}
	return 0;
}

int cp_harness_each_round(const struct cp_harness *harness,
			  unsigned int rounds, cp_harness_round_fn fn,
			  void *data)
{
	struct cp_harness round_harness = *harness;
	int ret = 0;

	for (unsigned int r = 0; r < rounds && !ret; r++) {
		if (r && cp_turn_pass())
			return -EINTR;
		if (cp_harness_renew_floor(&round_harness) == -EINTR)
			return -EINTR;
		ret = fn(&round_harness, r, data);
	}
	return ret;
}

struct interleaved {
	const struct cp_arrangement *arrangements;
	size_t n;
	uint64_t seed;
	const struct cp_rounds *plan;
	size_t *order;
	struct cp_samples *outs;
	struct cp_round_clock *clocks;
	cp_round_start_fn start;
	void *data;
	size_t *failed;
};

/* -EINTR once the run was asked to stop during the round (which
 * interleaved_round itself never returns): the rounds end there. */
static int interleaved_next(const struct cp_harness *round_harness,
			    unsigned int round, void *data)
{
	struct interleaved *in = data;
	int ret;

	cp_rounds_order_in(in->order, in->n, in->seed, round);
	ret = interleaved_round(round_harness, in->arrangements, in->order,
				in->n, in->plan, round, in->outs, in->clocks,
				in->start, in->data, in->failed);
	if (!ret && in->n && in->outs[0].interrupted)
		return -EINTR;
	return ret;
}

int cp_harness_measure_interleaved(const struct cp_harness *harness,
				   const struct cp_arrangement *arrangements,
				   size_t n, uint64_t seed,
				   struct cp_samples *outs,
				   struct cp_round_clock *clocks,
				   cp_round_start_fn start, void *data,
				   size_t *failed)
{
	struct cp_rounds plan = cp_rounds_plan(harness->config.samples,
					       harness->config.rounds);
	struct interleaved in = {
		.arrangements = arrangements, .n = n, .seed = seed,
		.plan = &plan, .outs = outs, .clocks = clocks,
		.start = start, .data = data, .failed = failed,
	};
	int ret;

	in.order = malloc((n ? n : 1) * sizeof(*in.order));
	*failed = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		memset(&outs[i], 0, sizeof(outs[i]));
		memset(&clocks[i], 0, sizeof(clocks[i]));
		outs[i].samples_per_round = cp_rounds_marked(&plan);
	}
	ret = in.order ? cp_harness_each_round(harness, plan.rounds,
					       interleaved_next, &in)
		       : -ENOMEM;
	/* Stopped: the rounds taken are kept, marked short. */
	if (ret == -EINTR)
		ret = 0;
	free(in.order);
	for (size_t i = 0; i < n; i++) {
		if (ret)
			cp_samples_free(&outs[i]);
		else
			outs[i].interrupted |= outs[i].nr_samples < plan.samples;
	}
	return ret;
}
