// SPDX-License-Identifier: GPL-2.0
/*
 * One xcore configuration in user mode: a block built for it (a random
 * cycle of its lines, seeded with --seed), the harness's number of rounds
 * (areas/xcore/xcore_run.h), each round's walk divided by the lines: ticks per
 * line, the timer's overhead subtracted.  A round is one walk, never
 * repeated on warm lines: the first walk after the producer's touch is the
 * transfer, a second one would be a cache hit.  A sample is the mean of
 * @count rounds, the count chosen from a first round so that a sample
 * spans CP_MIN_TIMER_STEPS steps of the timer (small blocks walk in a
 * microsecond).  NOTHING is not subtracted (the walk has no loop of its
 * own to remove: the loop's increment runs beside the loads).  The core
 * clock is measured on the consumer beside the rounds.
 */
#include "areas/xcore/xcore_area.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/harness_rounds.h"
#include "harness/rounds.h"
#include "harness/stability.h"
#include "areas/xcore/xcore_run.h"

/* Rounds per sample at most (8 KiB blocks need about a dozen here). */
#define MAX_ROUNDS_PER_SAMPLE 64

/* The samples of every arrangement so far (harness/rounds.h: a "round"
 * there is an arrangement here, a walk being this area's round). */
struct xcore_samples {
	double *values;			/* ticks per line */
	uint64_t lines;			/* of the block, each round's */
	unsigned int nr, retaken;
	bool interrupted, huge_pages_requested;
	struct cp_round_clock clock;
};

/* The samples @timing's walks make, @count walks each, appended. */
static int append_walks(const struct cp_area_context *context,
			struct xcore_samples *acc,
			const struct cp_xcore_timing *timing,
			const struct cp_chase *block, unsigned int count)
{
	unsigned int samples = timing->rounds / count;
	double *values = realloc(acc->values, (acc->nr + samples + 1) *
						      sizeof(*values));
	double lines = (double)block->nr_lines;

	if (!values)
		return -ENOMEM;
	acc->values = values;
	for (unsigned int i = 0; i < samples; i++) {
		double sum = 0;

		for (unsigned int r = 0; r < count; r++)
			sum += (double)timing->ticks[i * count + r] -
			       context->clock->overhead_ticks;
		values[acc->nr++] = sum / count / lines;
	}
	acc->lines = block->nr_lines;
	acc->retaken += timing->retaken;
	acc->interrupted |= timing->interrupted;
	acc->huge_pages_requested |= block->huge_pages_requested;
	cp_round_clock_note(&acc->clock, timing->core_ratio_before,
			    timing->core_ratio_after);
	return 0;
}

static int record(struct cp_area_context *context,
		  const struct xcore_config *config, unsigned int count,
		  const struct cp_rounds *plan, struct xcore_samples *acc)
{
	struct cp_measurement *m = cp_results_add(context->results);
	int ret;

	if (!m)
		return -ENOMEM;
	xcore_describe(m, config, context->topology, "user");
	cp_measurement_add_param(m, "huge_pages_requested",
				 acc->huge_pages_requested);
	m->count = count;
	m->scale = acc->lines;
	m->interrupted = acc->interrupted || acc->nr < plan->samples;
	m->preempted_retaken = acc->retaken;
	m->core_cycles_per_tick = cp_round_clock_mean(&acc->clock);
	m->samples_per_round = cp_rounds_marked(plan);
	ret = cp_measurement_set_samples(m, acc->values, acc->nr,
					 context->clock->tsc_hz);
	acc->values = NULL;
	if (ret)
		return ret;
	cp_stability_check_ops(m, (double)acc->lines * count, 0,
			       context->harness);
	cp_stability_check_core_clock(m, acc->clock.drift_before,
				      acc->clock.drift_after);
	return 0;
}

/* Rounds per sample: --count, else enough for the timer's resolution,
 * judged from @job run once (which also warms code and page tables). */
static int rounds_per_sample(const struct cp_area_context *context,
			     struct cp_xcore_job *job, unsigned int *count,
			     unsigned int *failed_cpu)
{
	double wanted = CP_MIN_TIMER_STEPS * context->clock->granularity_ticks;
	struct cp_xcore_timing first;
	double ticks;
	int ret;

	if (context->harness->config.fixed_count) {
		*count = context->harness->config.fixed_count <
					 MAX_ROUNDS_PER_SAMPLE
				 ? (unsigned int)context->harness->config.fixed_count
				 : MAX_ROUNDS_PER_SAMPLE;
		return 0;
	}
	job->rounds = 1;
	job->max_retakes = 1;
	ret = cp_xcore_run(job, &first, failed_cpu);
	if (ret)
		return ret;
	ticks = first.rounds ? (double)first.ticks[0] : wanted;
	cp_xcore_timing_free(&first);
	/* A margin: the first round ran on colder code and tables. */
	*count = ticks >= wanted ? 1 : (unsigned int)(1.5 * wanted / ticks) + 1;
	if (*count > MAX_ROUNDS_PER_SAMPLE)
		*count = MAX_ROUNDS_PER_SAMPLE;
	return 0;
}

/* Arrangement @round: a block of its own, its chase order from --seed and
 * the round, and its share of the samples; the caller frees the block
 * (other configurations' rounds come between two of this one's, so their
 * blocks take the pages in between). */
static int measure_arrangement(struct cp_area_context *context,
			       const struct xcore_config *config,
			       struct cp_xcore_job *job,
			       struct cp_chase blocks[2], unsigned int round,
			       unsigned int samples, unsigned int *count,
			       struct xcore_samples *acc,
			       unsigned int *failed_cpu)
{
	struct cp_chase *block = &blocks[round % 2];
	struct cp_xcore_timing timing;
	int ret = cp_chase_build(block, config->size, 64,
				 context->options->seed + round);

	if (ret)
		return ret;
	job->block = block;
	if (!round)
		ret = rounds_per_sample(context, job, count, failed_cpu);
	if (ret)
		return ret;
	job->rounds = samples * *count;
	job->max_retakes = job->rounds * XCORE_RETAKES_PER_ROUND;
	ret = cp_xcore_run(job, &timing, failed_cpu);
	if (ret)
		return ret;
	if (timing.rounds >= *count)
		ret = append_walks(context, acc, &timing, block, *count);
	else
		acc->interrupted = true;
	cp_xcore_timing_free(&timing);
	return ret;
}

/* One configuration's arrangements under way. */
struct xcore_measuring {
	const struct xcore_config *config;
	struct cp_rounds plan;
	struct cp_xcore_job job;
	struct cp_chase blocks[2];
	struct xcore_samples acc;
	unsigned int failed_cpu, count, rounds_done;
};

int xcore_measure_start(const struct xcore_config *config,
			const struct cp_harness_config *harness,
			struct xcore_measuring **out)
{
	const struct xcore_target *t = config->target;
	struct xcore_measuring *m = calloc(1, sizeof(*m));

	*out = m;
	if (!m)
		return -ENOMEM;
	m->config = config;
	m->plan = cp_rounds_plan(harness->samples, harness->rounds);
	m->job = (struct cp_xcore_job){
		.producer = t->producer, .consumer = t->consumer,
		.touch = config->touch, .delay = config->delay,
	};
	m->count = 1;
	return 0;
}

unsigned int xcore_measure_rounds(const struct xcore_measuring *m)
{
	return m->plan.rounds;
}

/* The error of @ret for @m's configuration, in @error. */
static int measure_error(const struct xcore_measuring *m, int ret,
			 struct cp_error *error)
{
	char name[64];

	xcore_config_name(m->config, name, sizeof(name));
	if (ret == -EINVAL)
		return cp_error_set(error, EINVAL,
				    "xcore: %s: cannot run on CPU %u", name,
				    m->failed_cpu);
	if (ret == -ENOMEM)
		return cp_error_set(error, ENOMEM,
				    "xcore: %s: cannot allocate the block",
				    name);
	return cp_error_set(error, -ret, "xcore: %s: cannot run the threads",
			    name);
}

int xcore_measure_round(struct cp_area_context *context,
			struct xcore_measuring *m, struct cp_error *error)
{
	unsigned int r = m->rounds_done;
	int ret;

	if (r >= m->plan.rounds || m->acc.interrupted)
		return 0;
	m->rounds_done++;
	ret = measure_arrangement(context, m->config, &m->job, m->blocks, r,
				  cp_rounds_samples_in(&m->plan, r), &m->count,
				  &m->acc, &m->failed_cpu);
	/* Other configurations' rounds come between two of this one's
	 * (interleaved): nothing to hold. */
	cp_chase_free(&m->blocks[r % 2]);
	if (ret && ret != -EINTR)
		return measure_error(m, ret, error);
	return ret;
}

void xcore_measure_drop(struct xcore_measuring *m)
{
	if (!m)
		return;
	cp_chase_free(&m->blocks[0]);
	cp_chase_free(&m->blocks[1]);
	free(m->acc.values);
	free(m);
}

int xcore_measure_finish(struct cp_area_context *context,
			 struct xcore_measuring *m, struct cp_error *error)
{
	int ret = 0;

	if (m && m->acc.nr) {
		ret = record(context, m->config, m->count, &m->plan, &m->acc);
		if (ret)
			cp_error_set(error, -ret, "xcore: cannot keep results");
	}
	xcore_measure_drop(m);
	return ret;
}
