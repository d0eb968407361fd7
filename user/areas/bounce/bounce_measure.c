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
#include "areas/bounce/bounce_area.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "areas/bounce/bounce_layout.h"
#include "areas/bounce/bounce_loop.h"
#include "areas/bounce/bounce_run.h"
#include "harness/clock.h"
#include "harness/harness_rounds.h"
#include "harness/rounds.h"
#include "harness/stability.h"
#include "measure/rng.h"

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

/* What the counters of every round said. */
struct counter_check {
	char failure[120];		/* the first that failed; "" none */
	uint64_t lost, done;		/* shared plain counter: updates */
	bool lossy;
};

/* The counters hold what the loops did: exactly, or for plain increments
 * of one counter shared by several threads at most the sum (updates get
 * lost) and above 0.  A 4-byte counter that wrapped is not checked. */
static void check_counters(struct counter_check *check,
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

		if (lossy ? value == 0 || value > done : value != done) {
			if (!check->failure[0])
				snprintf(check->failure,
					 sizeof(check->failure),
					 "counter %u holds %" PRIu64 " after %" PRIu64 " increments",
					 i, value, done);
		} else if (lossy) {
			check->lossy = true;
			check->lost += done - value;
			check->done += done;
		}
	}
}

static void report_counters(struct cp_measurement *m,
			    const struct counter_check *check)
{
	if (check->failure[0])
		cp_measurement_warn(m, "counter check failed: %s",
				    check->failure);
	else if (check->lossy && check->done)
		cp_measurement_add_param(m, "lost_permille",
					 (int64_t)(1000 * check->lost /
						   check->done));
}

/* The runs of every round so far. */
struct bounce_rounds {
	double *values;		/* ticks per increment, run-major */
	double *overlap;	/* per run */
	unsigned int runs, threads, retaken;
	bool interrupted;
	struct counter_check check;
	struct cp_round_clock clock;	/* read around every round */
};

/* Append @timing's runs of @count increments, the timer's own cost
 * removed.  0 or -ENOMEM. */
static int append_round(const struct cp_area_context *context,
			struct bounce_rounds *acc,
			const struct cp_bounce_timing *timing, uint64_t count)
{
	size_t runs = (size_t)acc->runs + timing->runs;
	double *values = realloc(acc->values,
				 runs * timing->threads * sizeof(*values));
	double *overlap = values ? realloc(acc->overlap,
					   runs * sizeof(*overlap)) : NULL;
	size_t at = (size_t)acc->runs * timing->threads;

	if (values)
		acc->values = values;
	if (!values || !overlap)
		return -ENOMEM;
	acc->overlap = overlap;
	for (size_t i = 0; i < (size_t)timing->runs * timing->threads; i++)
		values[at + i] = ((double)timing->ticks[i] -
				  context->clock->overhead_ticks) /
				 (double)count;
	memcpy(overlap + acc->runs, timing->overlap,
	       timing->runs * sizeof(*overlap));
	acc->runs = (unsigned int)runs;
	acc->threads = timing->threads;
	acc->retaken += timing->retaken;
	acc->interrupted |= timing->interrupted;
	return 0;
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
			 const struct bounce_rounds *acc)
{
	double overlap;

	if (acc->threads < 2)
		return;
	overlap = cp_stats_median(acc->overlap, acc->runs);
	if (overlap < MIN_OVERLAP)
		cp_measurement_warn(m,
				    "threads ran together for only %.0f %% of a run (median): part of each run was measured alone",
				    100 * overlap);
}

/* @acc into a new measurement; its values are the measurement's then. */
static int record(struct cp_area_context *context,
		  const struct bounce_config *config, uint64_t count,
		  const struct cp_rounds *plan, struct bounce_rounds *acc,
		  size_t *index)
{
	struct cp_measurement *m = cp_results_add(context->results);
	int ret;

	if (!m)
		return -ENOMEM;
	bounce_describe(m, config, acc->threads, "user");
	m->count = count;
	m->scale = 1;
	m->interrupted = acc->interrupted;
	m->preempted_retaken = acc->retaken;
	m->samples_per_round = cp_rounds_marked(plan) * acc->threads;
	/* Read beside each round on the thread that runs the rounds,
	 * wherever the scheduler has it (the workers pin themselves). */
	m->core_cycles_per_tick = cp_round_clock_mean(&acc->clock);
	ret = cp_measurement_set_samples(m, acc->values,
					 (size_t)acc->runs * acc->threads,
					 context->clock->tsc_hz);
	acc->values = NULL;
	if (ret)
		return ret;
	cp_stability_check_ops(m, (double)count, 0, context->harness);
	warn_overlap(m, acc);
	report_counters(m, &acc->check);
	*index = (size_t)(m - context->results->measurements);
	return 0;
}

/* Run @runs runs of @job on @layout (its job->layout), calibrated first
 * in round 0; the timing into @timing. */
static int run_config(struct cp_area_context *context,
		      const struct bounce_config *config,
		      struct cp_bounce_layout *layout,
		      struct cp_bounce_job *job, unsigned int round,
		      unsigned int runs, struct cp_bounce_timing *timing,
		      struct cp_error *error)
{
	unsigned int failed_cpu = 0;
	char name[64];
	int ret = round ? 0 : calibrate(context, job, &failed_cpu);

	if (!ret) {
		/* From here the counters must match the runs' increments. */
		cp_bounce_layout_reset(layout);
		job->runs = runs;
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

/*
 * Where round @round places the first counter in its page: at the page's
 * start in round 0, then on a line pair drawn from --seed, the
 * configuration and the round, so that the rounds see other cache sets.
 */
static size_t placement(const struct cp_area_context *context,
			const struct bounce_config *config,
			unsigned int round)
{
	char name[64];
	__u64 state = context->options->seed + ((uint64_t)round << 32);

	if (!round)
		return 0;
	bounce_config_name(config, name, sizeof(name));
	for (const char *c = name; *c; c++)
		state = state * 31 + (unsigned char)*c;
	return cp_splitmix64_below(&state, CP_BOUNCE_BLOCK_ALIGN /
					   CP_BOUNCE_START_ALIGN) *
	       CP_BOUNCE_START_ALIGN;
}

/* Round @round on a block of its own (the last round's, still held, not
 * reused): runs appended to @acc. */
static int measure_round(struct cp_area_context *context,
			 const struct bounce_config *config,
			 struct cp_bounce_layout layouts[2],
			 struct cp_bounce_job *job, unsigned int round,
			 unsigned int runs, struct bounce_rounds *acc,
			 struct cp_error *error)
{
	struct cp_bounce_layout *layout = &layouts[round % 2];
	struct cp_bounce_timing timing;
	double before;
	int ret = cp_bounce_layout_init_at(layout, acc->threads,
					   config->width, config->distance,
					   placement(context, config, round));

	if (ret)
		return cp_error_set(error, -ret,
				    "bounce: cannot lay out %u counters of %u bytes %" PRIu32 " apart",
				    acc->threads, config->width,
				    config->distance);
	cp_bounce_layout_free(&layouts[(round + 1) % 2]);
	job->layout = layout;
	before = cp_clock_core_cycles_per_tick();
	ret = run_config(context, config, layout, job, round, runs, &timing,
			 error);
	if (ret)
		return ret;
	cp_round_clock_note(&acc->clock, before,
			    cp_clock_core_cycles_per_tick());
	check_counters(&acc->check, config, layout, timing.increments);
	ret = append_round(context, acc, &timing, job->count);
	cp_bounce_timing_free(&timing);
	return ret ? cp_error_set(error, -ret, "bounce: no memory") : 0;
}

/* One configuration's rounds under way. */
struct bounce_measuring {
	const struct bounce_config *config;
	struct cp_rounds plan;
	struct cp_bounce_layout layouts[2];
	struct bounce_rounds acc;
	struct cp_bounce_job job;
	unsigned int rounds_done;
};

int bounce_measure_start(struct cp_area_context *context,
			 const struct bounce_config *config,
			 struct bounce_measuring **out)
{
	const struct cp_harness_config *harness = &context->harness->config;
	struct bounce_measuring *m = calloc(1, sizeof(*m));

	*out = m;
	if (!m)
		return -ENOMEM;
	m->config = config;
	m->plan = cp_rounds_plan(harness->samples, harness->rounds);
	m->acc.threads = config->alone ? 1 : config->group->nr_cpus;
	m->job.cpus = config->group->cpus;
	m->job.loop = cp_bounce_loop(config->op, config->width);
	return 0;
}

unsigned int bounce_measure_rounds(const struct bounce_measuring *m)
{
	return m->plan.rounds;
}

int bounce_measure_round(struct cp_area_context *context,
			 struct bounce_measuring *m, struct cp_error *error)
{
	unsigned int r = m->rounds_done;

	if (r >= m->plan.rounds || m->acc.interrupted)
		return 0;
	m->rounds_done++;
	return measure_round(context, m->config, m->layouts, &m->job, r,
			     cp_rounds_samples_in(&m->plan, r), &m->acc,
			     error);
}

int bounce_measure_finish(struct cp_area_context *context,
			  struct bounce_measuring *m, size_t *index,
			  struct cp_error *error)
{
	int ret = 0;

	if (!m)
		return 0;
	if (m->acc.runs) {
		m->acc.interrupted |= m->acc.runs < m->plan.samples;
		ret = record(context, m->config, m->job.count, &m->plan,
			     &m->acc, index);
		if (ret)
			ret = cp_error_set(error, -ret,
					   "bounce: cannot keep results");
	}
	bounce_measure_drop(m);
	return ret;
}

void bounce_measure_drop(struct bounce_measuring *m)
{
	if (!m)
		return;
	cp_bounce_layout_free(&m->layouts[0]);
	cp_bounce_layout_free(&m->layouts[1]);
	free(m->acc.values);
	free(m->acc.overlap);
	free(m);
}
