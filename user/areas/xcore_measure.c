// SPDX-License-Identifier: GPL-2.0
/*
 * One xcore configuration in user mode: a block built for it (a random
 * cycle of its lines, seeded with --seed), the harness's number of rounds
 * (lib/xcore_run.h), each round's walk divided by the lines: ticks per
 * line, the timer's overhead subtracted.  A round is one walk, never
 * repeated on warm lines: the first walk after the producer's touch is the
 * transfer, a second one would be a cache hit.  A sample is the mean of
 * @count rounds, the count chosen from a first round so that a sample
 * spans CP_MIN_TIMER_STEPS steps of the timer (small blocks walk in a
 * microsecond).  NOTHING is not subtracted (the walk has no loop of its
 * own to remove: the loop's increment runs beside the loads).  The core
 * clock is measured on the consumer beside the rounds.
 */
#include "areas/xcore_area.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/stability.h"
#include "lib/xcore_run.h"

/* Rounds per sample at most (8 KiB blocks need about a dozen here). */
#define MAX_ROUNDS_PER_SAMPLE 64

static int record(struct cp_area_context *context,
		  const struct xcore_config *config,
		  const struct cp_chase *block,
		  const struct cp_xcore_timing *timing, unsigned int count)
{
	struct cp_measurement *m = cp_results_add(context->results);
	unsigned int samples = timing->rounds / count;
	double *values = malloc((samples ? samples : 1) * sizeof(*values));
	double lines = (double)block->nr_lines;
	int ret;

	if (!m || !values) {
		free(values);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < samples; i++) {
		double sum = 0;

		for (unsigned int r = 0; r < count; r++)
			sum += (double)timing->ticks[i * count + r] -
			       context->clock->overhead_ticks;
		values[i] = sum / count / lines;
	}
	xcore_describe(m, config, context->topology, "user");
	cp_measurement_add_param(m, "huge_pages_requested",
				 block->huge_pages_requested);
	m->count = count;
	m->scale = block->nr_lines;
	m->interrupted = timing->interrupted;
	m->preempted_retaken = timing->retaken;
	m->core_cycles_per_tick = (timing->core_ratio_before +
				   timing->core_ratio_after) / 2;
	m->interrupted |= samples < context->harness->config.samples;
	ret = cp_measurement_set_samples(m, values, samples,
					 context->clock->tsc_hz);
	if (ret)
		return ret;
	cp_stability_check_ops(m, lines * count, 0, context->harness);
	cp_stability_check_core_clock(m, timing->core_ratio_before,
				      timing->core_ratio_after);
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

int xcore_measure(struct cp_area_context *context,
		  const struct xcore_config *config, struct cp_error *error)
{
	const struct xcore_target *t = config->target;
	unsigned int samples = context->harness->config.samples, count = 1;
	struct cp_xcore_job job = {
		.producer = t->producer, .consumer = t->consumer,
		.touch = config->touch, .delay = config->delay,
	};
	struct cp_xcore_timing timing;
	struct cp_chase block;
	unsigned int failed_cpu = 0;
	char name[64];
	int ret;

	xcore_config_name(config, name, sizeof(name));
	ret = cp_chase_build(&block, config->size, 64,
			     context->options->seed);
	if (ret)
		return cp_error_set(error, -ret,
				    "xcore: %s: cannot allocate the block", name);
	job.block = &block;
	ret = rounds_per_sample(context, &job, &count, &failed_cpu);
	if (!ret) {
		job.rounds = samples * count;
		job.max_retakes = job.rounds * XCORE_RETAKES_PER_ROUND;
		ret = cp_xcore_run(&job, &timing, &failed_cpu);
	}
	if (!ret && timing.rounds < count) {
		cp_xcore_timing_free(&timing);
		ret = -EINTR;
	}
	if (!ret) {
		ret = record(context, config, &block, &timing, count);
		cp_xcore_timing_free(&timing);
		if (ret)
			cp_error_set(error, -ret, "xcore: cannot keep results");
	} else if (ret == -EINVAL) {
		cp_error_set(error, EINVAL, "xcore: %s: cannot run on CPU %u",
			     name, failed_cpu);
	} else if (ret != -EINTR) {
		cp_error_set(error, -ret, "xcore: %s: cannot run the threads",
			     name);
	}
	cp_chase_free(&block);
	return ret;
}
