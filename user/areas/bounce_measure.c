// SPDX-License-Identifier: GPL-2.0
/*
 * One bounce configuration measured: calibrate the increments per run so
 * the slowest thread's run lasts the harness's target sample time, take
 * the harness's number of runs, and keep every thread's ticks per
 * increment of every run as the measurement's samples (run-major: run 0
 * thread 0, run 0 thread 1, ...), with the timer overhead subtracted.
 *
 * The NOTHING floor is not subtracted, unlike the harness: the loop's own
 * decrement-and-branch executes in parallel with the add, so an empty
 * iteration's cost is not a cost the increment loop adds; on a core that
 * does an uncontended add to memory per cycle, subtracting it would leave
 * nothing, and every ratio against it would be noise.
 *
 * The counters are checked at the end: the loops did every increment they
 * claim.
 */
#include "areas/bounce_area.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bounce_layout.h"
#include "lib/bounce_loop.h"
#include "lib/bounce_run.h"
#include "lib/stability.h"

/* Calibration stops doubling once a run lasts this share of the target. */
#define CALIBRATION_SHARE 0.25
#define FIRST_COUNT 1024
#define CALIBRATION_RUNS 3
/* Threads that ran together for less of a run than this measured partly
 * alone: such a run is taken again. */
#define MIN_OVERLAP 0.9
/* Runs spoilt by preemption or a late thread taken again, per run wanted:
 * generous, because a loaded 2-CPU machine spoils many. */
#define RETAKES_PER_RUN 10
/* Runs last at most this long (--sample-time can only shorten them): both
 * threads must hold their CPUs for the whole run, and on a busy machine
 * the scheduler's slices are a few ms.  Still thousands of timer steps. */
#define MAX_RUN_NS 250e3

void bounce_config_name(const struct bounce_config *config, char *out,
			size_t len)
{
	char cpus[64];

	if (config->alone) {
		snprintf(out, len, "alone cpu %u %s %uB", config->group->cpus[0],
			 cp_bounce_op_name(config->op), config->width);
		return;
	}
	cp_bounce_group_format(config->group, cpus, sizeof(cpus));
	snprintf(out, len, "%s %s %s %uB d=%" PRIu32,
		 cp_pair_class_name(config->group->pair_class), cpus,
		 cp_bounce_op_name(config->op), config->width,
		 config->distance);
}

double bounce_run_ns(const struct cp_area_context *context)
{
	double target = context->harness->config.target_sample_ns;

	return target < MAX_RUN_NS ? target : MAX_RUN_NS;
}

/* The slowest thread's ticks in the least disturbed of @timing's runs. */
static uint64_t slowest(const struct cp_bounce_timing *timing)
{
	uint64_t best = UINT64_MAX;

	for (unsigned int r = 0; r < timing->runs; r++) {
		uint64_t most = 0;

		for (unsigned int i = 0; i < timing->threads; i++)
			if (cp_bounce_ticks(timing, r, i) > most)
				most = cp_bounce_ticks(timing, r, i);
		if (most < best)
			best = most;
	}
	return best;
}

/* Increments per run; the calibration runs also warm lines and code. */
static int calibrate(const struct cp_area_context *context,
		     struct cp_bounce_job *job, unsigned int *failed_cpu)
{
	const struct cp_harness *harness = context->harness;
	double target = bounce_run_ns(context) * context->clock->tsc_hz / 1e9;
	struct cp_bounce_timing timing;
	double ticks;
	int ret;

	if (harness->config.fixed_count) {
		job->count = harness->config.fixed_count;
		return 0;
	}
	/* A preempted trial would look slow and shrink the count: each
	 * trial is the best of a few runs. */
	job->runs = CALIBRATION_RUNS;
	for (job->count = FIRST_COUNT;; job->count *= 2) {
		ret = cp_bounce_run(job, &timing, failed_cpu);
		if (ret)
			return ret;
		ticks = (double)slowest(&timing);
		cp_bounce_timing_free(&timing);
		if (ticks >= target * CALIBRATION_SHARE ||
		    job->count >= UINT32_MAX)
			break;
	}
	job->count = cp_harness_scale_count(job->count, ticks, target);
	return 0;
}

/* The counters hold what the loops did: exactly, or for plain increments
 * of one counter shared by several threads at most the sum (updates get
 * lost) and above 0.  A 4-byte counter that wrapped is not checked. */
static void check_counters(struct cp_measurement *m,
			   const struct bounce_config *config,
			   const struct cp_bounce_layout *layout,
			   const uint64_t *increments)
{
	bool shared = config->distance == 0 && layout->threads > 1;
	unsigned int counters = shared ? 1 : layout->threads;
	uint64_t total = 0;

	for (unsigned int i = 0; i < layout->threads; i++)
		total += increments[i];
	if (layout->width == 4 && total > UINT32_MAX)
		return;
	for (unsigned int i = 0; i < counters; i++) {
		uint64_t value = cp_bounce_counter_value(layout, i);
		uint64_t done = shared ? total : increments[i];
		bool lossy = shared && config->op == CP_BOUNCE_PLAIN;

		if (lossy ? value == 0 || value > done : value != done)
			cp_measurement_warn(m,
					    "counter check failed: counter %u holds %" PRIu64 " after %" PRIu64 " increments",
					    i, value, done);
		else if (lossy)
			cp_measurement_add_param(m, "lost_permille",
						 (int64_t)(1000 * (done - value) / done));
	}
}

/* Every thread's ticks per increment of every kept run, the timer's own
 * cost removed. */
static double *per_increment(const struct cp_area_context *context,
			     const struct cp_bounce_timing *timing,
			     uint64_t count)
{
	size_t n = (size_t)timing->runs * timing->threads;
	double *values = malloc(n * sizeof(*values));

	if (!values)
		return NULL;
	for (size_t i = 0; i < n; i++)
		values[i] = ((double)timing->ticks[i] -
			     context->clock->overhead_ticks) /
			    (double)count;
	return values;
}

void bounce_describe(struct cp_measurement *m,
		     const struct bounce_config *config, unsigned int threads,
		     const char *mode)
{
	snprintf(m->area, sizeof(m->area), "bounce");
	snprintf(m->mode, sizeof(m->mode), "%s", mode);
	bounce_config_name(config, m->name, sizeof(m->name));
	if (!config->alone)
		cp_measurement_add_param(m, "distance_bytes", config->distance);
	cp_measurement_add_param(m, "width_bytes", config->width);
	cp_measurement_add_param(m, "atomic", config->op == CP_BOUNCE_ATOMIC);
	cp_measurement_add_param(m, "threads", threads);
}

/* Kept runs in which a thread was held up (the retakes ran out). */
static void warn_overlap(struct cp_measurement *m,
			 const struct cp_bounce_timing *timing)
{
	double overlap;

	if (timing->threads < 2)
		return;
	overlap = cp_stats_median(timing->overlap, timing->runs);
	if (overlap < MIN_OVERLAP)
		cp_measurement_warn(m,
				    "threads ran together for only %.0f %% of a run (median): part of each run was measured alone",
				    100 * overlap);
}

static int record(struct cp_area_context *context,
		  const struct bounce_config *config,
		  const struct cp_bounce_job *job,
		  struct cp_bounce_timing *timing, size_t *index)
{
	struct cp_measurement *m = cp_results_add(context->results);
	double *values = per_increment(context, timing, job->count);
	int ret;

	if (!m || !values) {
		free(values);
		return -ENOMEM;
	}
	bounce_describe(m, config, timing->threads, "user");
	m->count = job->count;
	m->scale = 1;
	m->interrupted = timing->interrupted;
	m->preempted_retaken = timing->retaken;
	ret = cp_measurement_set_samples(m, values,
					 (size_t)timing->runs * timing->threads,
					 context->clock->tsc_hz);
	if (ret)
		return ret;
	cp_stability_check_ops(m, (double)job->count, 0, context->harness);
	warn_overlap(m, timing);
	check_counters(m, config, job->layout, timing->increments);
	*index = (size_t)(m - context->results->measurements);
	return 0;
}

/* Run calibration and the runs on @layout; the timing into @timing. */
static int run_config(struct cp_area_context *context,
		      const struct bounce_config *config,
		      struct cp_bounce_layout *layout, struct cp_bounce_job *job,
		      struct cp_bounce_timing *timing, struct cp_error *error)
{
	unsigned int failed_cpu = 0;
	char name[64];
	int ret = calibrate(context, job, &failed_cpu);

	if (!ret) {
		/* From here the counters must match the runs' increments. */
		cp_bounce_layout_reset(layout);
		job->runs = context->harness->config.samples;
		job->max_retakes = job->runs * RETAKES_PER_RUN;
		job->min_overlap = MIN_OVERLAP;
		ret = cp_bounce_run(job, timing, &failed_cpu);
	}
	if (!ret || ret == -EINTR)
		return ret;
	bounce_config_name(config, name, sizeof(name));
	if (ret == -EINVAL || ret == -EPERM)
		return cp_error_set(error, EINVAL,
				    "bounce: %s: cannot run on CPU %u", name,
				    failed_cpu);
	return cp_error_set(error, -ret, "bounce: %s: cannot run the threads",
			    name);
}

int bounce_measure(struct cp_area_context *context,
		   const struct bounce_config *config,
		   size_t *index, struct cp_error *error)
{
	unsigned int threads = config->alone ? 1 : config->group->nr_cpus;
	struct cp_bounce_layout layout;
	struct cp_bounce_timing timing;
	struct cp_bounce_job job = {
		.cpus = config->group->cpus, .layout = &layout,
		.loop = cp_bounce_loop(config->op, config->width),
	};
	int ret = cp_bounce_layout_init(&layout, threads, config->width,
					config->distance);

	if (ret)
		return cp_error_set(error, -ret,
				    "bounce: cannot lay out %u counters of %u bytes %" PRIu32 " apart",
				    threads, config->width, config->distance);
	ret = run_config(context, config, &layout, &job, &timing, error);
	if (!ret) {
		ret = record(context, config, &job, &timing, index);
		cp_bounce_timing_free(&timing);
		if (ret)
			cp_error_set(error, -ret, "bounce: cannot keep results");
	}
	cp_bounce_layout_free(&layout);
	return ret;
}
