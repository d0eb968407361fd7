// SPDX-License-Identifier: GPL-2.0
/*
 * One pair and variant of the c2c area: the round trips per sample sized
 * from a first short sample so that a sample lasts the harness's target
 * time (at most C2C_MAX_SAMPLE_NS), or less when the pair's share of the
 * budget is smaller; ticks per round trip, the timer overhead subtracted
 * (user mode, where the share is spent on more samples when it allows:
 * C2C_MAX_SPREAD_SAMPLES).  Kernel mode asks the module (PINGPONG) from a
 * thread pinned on the home CPU: the module allocates the line there, on
 * that CPU's node (vmalloc's local allocation), so --home means the same
 * in both modes.  A kernel sample also stays within half the module's
 * interrupt-off window (client/kernel_call.h).  User mode also times each
 * line's segment of the samples and keeps how the lines differ
 * (areas/c2c/c2c_line_spread.h) in the measurement's params
 * (areas/c2c/c2c_line_report.h); the module passes one line, so kernel mode has
 * no such spread.
 */
#include "areas/c2c/c2c_area.h"

#include "harness/interrupt.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "areas/c2c/c2c_line_report.h"
#include "harness/clock.h"
#include "client/kernel_call.h"
#include "harness/rounds.h"
#include "harness/stability.h"
#include "stats/stats.h"

void c2c_config_name(const struct c2c_pair_config *config, char *out,
		     size_t len)
{
	snprintf(out, len, "%s %u:%u", cp_c2c_variant_name(config->variant),
		 config->pair->first, config->pair->second);
}

static unsigned int home_cpu(const struct c2c_pair_config *config)
{
	return config->home == CP_C2C_HOME_SECOND ? config->pair->second
						  : config->pair->first;
}

/* The longest a sample may be: the harness's target, at most
 * C2C_MAX_SAMPLE_NS.  Short samples: a sample during which either thread
 * lost its CPU holds a scheduler time slice of spinning, and short ones
 * leave the median clear of those. */
static double longest_sample_ns(const struct cp_area_context *context)
{
	double target_ns = context->harness->config.target_sample_ns;

	return target_ns > C2C_MAX_SAMPLE_NS ? C2C_MAX_SAMPLE_NS : target_ns;
}

/* User-mode samples: as asked, else as many of the longest as fit in 80 %
 * of the share with what each costs besides (@overhead_ns), between the
 * harness's and C2C_MAX_SPREAD_SAMPLES. */
static unsigned int user_samples(const struct cp_area_context *context,
				 const struct c2c_pair_config *config,
				 double overhead_ns)
{
	unsigned int least = context->harness->config.samples;
	double fit = 0.8 * config->share_ns /
		     (longest_sample_ns(context) + overhead_ns);

	if (config->samples_asked)
		return config->samples_asked;
	if (fit > C2C_MAX_SPREAD_SAMPLES)
		fit = C2C_MAX_SPREAD_SAMPLES;
	return fit > least ? (unsigned int)fit : least;
}

/* The length of one of @samples samples: 80 % of the pair's share spread
 * over them, less what each costs besides (@overhead_ns), at most the
 * longest. */
static double sample_ns(const struct cp_area_context *context,
			const struct c2c_pair_config *config,
			unsigned int samples, double overhead_ns)
{
	double share_ns = 0.8 * config->share_ns / samples - overhead_ns;
	double target_ns = longest_sample_ns(context);

	/* The budget is an upper bound. */
	return share_ns > target_ns ? target_ns : share_ns;
}

/* User-mode round trips per sample for @ticks_per_trip, @samples samples. */
static uint32_t round_trips_for(const struct cp_area_context *context,
				const struct c2c_pair_config *config,
				double ticks_per_trip, unsigned int samples,
				double overhead_ns)
{
	double trip_ns = ticks_per_trip * 1e9 / context->clock->tsc_hz;
	double trips;

	trips = trip_ns > 0 ? sample_ns(context, config, samples,
					overhead_ns) /
				      trip_ns
			    : C2C_MIN_ROUND_TRIPS;
	if (context->harness->config.fixed_count)
		trips = (double)context->harness->config.fixed_count;
	if (trips < C2C_MIN_ROUND_TRIPS)
		trips = C2C_MIN_ROUND_TRIPS;
	return trips > C2C_MAX_ROUND_TRIPS ? C2C_MAX_ROUND_TRIPS
					   : (uint32_t)trips;
}

static void describe(struct cp_measurement *m,
		     const struct c2c_pair_config *config, const char *mode,
		     uint32_t round_trips)
{
	snprintf(m->area, sizeof(m->area), "c2c");
	snprintf(m->mode, sizeof(m->mode), "%s", mode);
	c2c_config_name(config, m->name, sizeof(m->name));
	cp_measurement_add_param(m, "first", config->pair->first);
	cp_measurement_add_param(m, "second", config->pair->second);
	cp_measurement_add_param(m, "pair_class", config->pair->pair_class);
	cp_measurement_add_param(m, "cas", config->variant == CP_C2C_CAS);
	cp_measurement_add_param(m, "home_cpu", home_cpu(config));
	cp_measurement_add_param(m, "round_trips", round_trips);
}

/* @values (ticks per round trip, taken) into @m; @retries samples the
 * module ran again (0 in user mode). */
static int record(struct cp_measurement *m, struct cp_area_context *context,
		  const struct c2c_pair_config *config, const char *mode,
		  uint32_t round_trips, double *values, size_t n,
		  unsigned int retries)
{
	int ret;

	describe(m, config, mode, round_trips);
	m->count = round_trips;
	m->scale = 1;
	ret = cp_measurement_set_samples(m, values, n, context->clock->tsc_hz);
	if (ret)
		return ret;
	cp_stability_check_ops(m, round_trips, retries, context->harness);
	return 0;
}

/* @job, its samples cut to those taken when its deadline passed. */
static int run_user(struct cp_c2c_pinger *pinger, struct cp_c2c_job *job,
		    uint64_t *ticks, uint64_t *segment_ticks,
		    struct cp_c2c_placement *placement, const char *name,
		    struct cp_error *error)
{
	unsigned int failed_cpu = 0, taken = 0;
	int ret = cp_c2c_pinger_run(pinger, job, ticks, segment_ticks,
				    placement, &taken, &failed_cpu,
				    cp_interrupt_requested);

	if (!ret)
		job->samples = taken;

	if (ret == -EINTR)
		return ret;
	if (ret == -EINVAL)
		return cp_error_set(error, EINVAL,
				    "c2c: %s: cannot run on CPU %u", name,
				    failed_cpu);
	if (ret)
		return cp_error_set(error, -ret, "c2c: %s: cannot run", name);
	return 0;
}

/* The median of @n ticks (n <= C2C_PROBE_SAMPLES). */
static double median_ticks(const uint64_t *ticks, unsigned int n)
{
	double values[C2C_PROBE_SAMPLES];

	for (unsigned int i = 0; i < n; i++)
		values[i] = (double)ticks[i];
	return cp_stats_median(values, n);
}

/* One probe job of @samples samples of C2C_FIRST_ROUND_TRIPS: its wall
 * time beyond its timed round trips into *@untimed_ns. */
static int probe_job(const struct cp_area_context *context,
		     struct cp_c2c_pinger *pinger, struct cp_c2c_job *job,
		     unsigned int samples, uint64_t *ticks, const char *name,
		     double *untimed_ns, struct cp_error *error)
{
	struct cp_c2c_placement placement;
	double start = cp_clock_monotonic_ns();
	int ret;

	job->round_trips = C2C_FIRST_ROUND_TRIPS;
	job->samples = samples;
	ret = run_user(pinger, job, ticks, NULL, &placement, name, error);
	if (ret)
		return ret;
	*untimed_ns = cp_clock_monotonic_ns() - start;
	for (unsigned int i = 0; i < samples; i++)
		*untimed_ns -= (double)ticks[i] * 1e9 / context->clock->tsc_hz;
	return 0;
}

/*
 * A first job: the ticks of a round trip and, in the run's first pair,
 * what a sample costs besides its timed round trips (placing and
 * flushing its lines, the threads' handshake), so that the samples asked
 * for fit a pair's share.  That cost is the difference between a job of
 * C2C_PROBE_SAMPLES samples and one of a single sample: a job's own start
 * (waking the threads, placing the line) is in both, and counted per
 * sample it made samples look several times dearer than they are (a
 * 3 s budget used 1.2 s).  Later pairs reuse that cost and probe with
 * one sample: under emulation a round trip can take a millisecond.
 */
static int probe_user(const struct cp_area_context *context,
		      struct cp_c2c_pinger *pinger,
		      const struct c2c_pair_config *config,
		      struct cp_c2c_job *job, const char *name,
		      double *trip_ticks, struct cp_error *error)
{
	uint64_t ticks[C2C_PROBE_SAMPLES];
	double one_ns, many_ns;
	int ret = probe_job(context, pinger, job, 1, ticks, name, &one_ns,
			    error);

	*trip_ticks = (double)ticks[0] / C2C_FIRST_ROUND_TRIPS;
	if (ret || *config->sample_cost_ns >= 0)
		return ret;
	ret = probe_job(context, pinger, job, C2C_PROBE_SAMPLES, ticks, name,
			&many_ns, error);
	if (ret)
		return ret;
	*config->sample_cost_ns = many_ns > one_ns
		? (many_ns - one_ns) / (C2C_PROBE_SAMPLES - 1) : 0;
	*trip_ticks = median_ticks(ticks, C2C_PROBE_SAMPLES) /
		      C2C_FIRST_ROUND_TRIPS;
	return 0;
}

/*
 * What a sample really cost besides its timed round trips in a job of
 * @samples that took @wall_ns, for the pairs and variants after it: the
 * probe's estimate is the difference of two short jobs, below the noise
 * of a job's start (it came out as 0 here), and a job that then took
 * twice its share left the next variant of the pair its least share (15
 * samples beside the first's 1999).
 */
static void learn_sample_cost(const struct cp_area_context *context,
			      const struct c2c_pair_config *config,
			      const uint64_t *ticks, unsigned int samples,
			      double wall_ns)
{
	double timed_ns = 0;

	for (unsigned int i = 0; i < samples; i++)
		timed_ns += (double)ticks[i] * 1e9 / context->clock->tsc_hz;
	if (samples && wall_ns > timed_ns)
		*config->sample_cost_ns = (wall_ns - timed_ns) / samples;
}

/* Rounds of a variant: as many as --rounds asks, each of at least
 * C2C_MIN_ROUND_NS of the share (a round places its lines anew and wakes
 * the threads), or as --samples spreads. */
static struct cp_rounds plan_rounds(const struct cp_area_context *context,
				    const struct c2c_pair_config *config,
				    unsigned int samples)
{
	unsigned int rounds = context->harness->config.rounds;
	double fit = config->share_ns / C2C_MIN_ROUND_NS;

	if (!config->samples_asked && fit < rounds)
		rounds = fit >= 1 ? (unsigned int)fit : 1;
	return cp_rounds_plan(samples, rounds);
}

int c2c_user_start(struct cp_area_context *context,
		   struct cp_c2c_pinger *pinger,
		   const struct c2c_pair_config *config,
		   struct c2c_user_rounds *rounds, struct cp_error *error)
{
	double trip_ticks, overhead_ns;
	unsigned int samples;
	int ret;

	memset(rounds, 0, sizeof(*rounds));
	rounds->job = (struct cp_c2c_job){
		.initiator = config->pair->first,
		.responder = config->pair->second,
		.home_is_responder = config->home == CP_C2C_HOME_SECOND,
		.variant = config->variant,
	};
	c2c_config_name(config, rounds->name, sizeof(rounds->name));
	ret = probe_user(context, pinger, config, &rounds->job, rounds->name,
			 &trip_ticks, error);
	if (ret)
		return ret;
	overhead_ns = *config->sample_cost_ns;
	samples = user_samples(context, config, overhead_ns);
	rounds->plan = plan_rounds(context, config, samples);
	rounds->ticks = calloc(rounds->plan.per_round, sizeof(*rounds->ticks));
	rounds->segment_ticks = calloc((size_t)rounds->plan.per_round *
					       CP_C2C_LINES_PER_SAMPLE,
				       sizeof(*rounds->segment_ticks));
	rounds->values = calloc(samples, sizeof(*rounds->values));
	if (!rounds->ticks || !rounds->segment_ticks || !rounds->values) {
		c2c_user_drop(rounds);
		return cp_error_set(error, ENOMEM, "c2c: %s: no memory",
				    rounds->name);
	}
	rounds->job.round_trips = round_trips_for(context, config, trip_ticks,
						  samples, overhead_ns);
	return 0;
}

int c2c_user_round(struct cp_area_context *context,
		   struct cp_c2c_pinger *pinger,
		   const struct c2c_pair_config *config,
		   struct c2c_user_rounds *rounds, struct cp_error *error)
{
	struct cp_c2c_job *job = &rounds->job;
	unsigned int round = rounds->done, least;
	double started_ns = cp_clock_monotonic_ns();
	double *values = rounds->values + (size_t)round * rounds->plan.per_round;
	struct cp_c2c_placement placement;
	int ret;

	job->samples = cp_rounds_samples_in(&rounds->plan, round);
	/* Samples sized from an estimate: a busy machine would let the job
	 * run past its share and starve the pairs after it. */
	if (!config->samples_asked) {
		least = (context->harness->config.samples +
			 rounds->plan.rounds - 1) / rounds->plan.rounds;
		job->deadline_tsc = cp_clock_stop() +
				    (uint64_t)(config->share_ns /
					       rounds->plan.rounds *
					       context->clock->tsc_hz / 1e9);
		job->least = least ? least : 1;
	}
	ret = run_user(pinger, job, rounds->ticks, rounds->segment_ticks,
		       &placement, rounds->name, error);
	if (ret)
		return ret;
	for (unsigned int i = 0; i < job->samples; i++)
		values[i] = cp_c2c_trip_ticks(rounds->ticks[i],
					      context->clock->overhead_ticks,
					      job->round_trips);
	learn_sample_cost(context, config, rounds->ticks, job->samples,
			  cp_clock_monotonic_ns() - started_ns);
	if (!round)
		rounds->placement = placement;
	rounds->taken[round] = job->samples;
	rounds->done++;
	ret = cp_c2c_line_values_add(&rounds->lines, rounds->segment_ticks,
				     job->samples, job->round_trips,
				     context->clock->tsc_hz,
				     context->clock->granularity_ticks);
	return ret ? cp_error_set(error, -ret, "c2c: %s: no memory",
				  rounds->name) : 0;
}

/*
 * The rounds' samples in round order, each cut to the fewest any round
 * but the last took so that every round weighs the same; the last may
 * have fewer (harness/rounds.h: --samples 1001 over 5 rounds plans 201
 * and a last of 197).  How many per round into *@per_round; how many in
 * all.
 */
static size_t equal_rounds(struct c2c_user_rounds *rounds,
			   unsigned int *per_round)
{
	unsigned int last = rounds->done - 1, least = rounds->taken[0];
	size_t stride = rounds->plan.per_round;

	for (unsigned int r = 1; r < last; r++)
		if (rounds->taken[r] < least)
			least = rounds->taken[r];
	if (last && rounds->taken[last] > least)
		rounds->taken[last] = least;
	for (unsigned int r = 1; r <= last; r++)
		memmove(rounds->values + (size_t)r * least,
			rounds->values + (size_t)r * stride,
			(r < last ? least : rounds->taken[r]) *
				sizeof(*rounds->values));
	*per_round = least;
	return (size_t)last * least + rounds->taken[last];
}

int c2c_user_finish(struct cp_area_context *context,
		    const struct c2c_pair_config *config,
		    struct c2c_user_rounds *rounds, struct cp_error *error)
{
	struct cp_c2c_line_spread spread;
	struct cp_measurement *m = NULL;
	unsigned int per_round;
	size_t kept;
	int ret;

	if (!rounds->done)
		return 0;
	kept = equal_rounds(rounds, &per_round);
	m = cp_results_add(context->results);
	if (!m)
		return cp_error_set(error, ENOMEM, "c2c: cannot keep results");
	m->samples_per_round = rounds->done > 1 ? per_round : 0;
	/* Stopped before its last round (interrupted, or another variant
	 * failed): what it measured, marked. */
	m->interrupted = rounds->done < rounds->plan.rounds;
	ret = record(m, context, config, "user", rounds->job.round_trips,
		     rounds->values, kept, 0);
	rounds->values = NULL;
	if (!ret) {
		cp_measurement_add_param(m, "home_node",
					 rounds->placement.node);
		cp_measurement_add_param(m, "membind",
					 rounds->placement.membind);
		ret = cp_c2c_line_values_judge(&rounds->lines, &spread);
	}
	if (!ret)
		ret = cp_c2c_line_spread_store(m, &spread);
	return ret ? cp_error_set(error, -ret, "c2c: cannot keep results") : 0;
}

void c2c_user_drop(struct c2c_user_rounds *rounds)
{
	free(rounds->ticks);
	free(rounds->segment_ticks);
	free(rounds->values);
	cp_c2c_line_values_free(&rounds->lines);
	rounds->ticks = NULL;
	rounds->segment_ticks = NULL;
	rounds->values = NULL;
}

/* What the module's request needs besides its parameters. */
struct home_client {
	struct cp_client *client;
	unsigned int cpu;
};

/* The module's request, made from the home CPU. */
static int send_pingpong(void *context, void *params,
			 struct cp_run_result *result, struct cp_error *error)
{
	const struct home_client *home = context;
	cpu_set_t previous, cpus;
	int ret;

	sched_getaffinity(0, sizeof(previous), &previous);
	CPU_ZERO(&cpus);
	CPU_SET(home->cpu, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	ret = cp_client_pingpong(home->client, params, result, error);
	sched_setaffinity(0, sizeof(previous), &previous);
	return ret;
}

static double *kernel_values(const struct cp_run_result *result)
{
	double *values = calloc(result->samples, sizeof(*values));

	for (uint32_t i = 0; values && i < result->samples; i++)
		values[i] = (double)result->series[0].values[i] /
			    (double)result->ops;
	return values;
}

int c2c_measure_kernel(struct cp_area_context *context,
		       struct cp_client *client, uint64_t max_irqoff_ns,
		       const struct c2c_pair_config *config,
		       struct cp_error *error)
{
	struct cp_pingpong_params params = {
		.initiator = config->pair->first,
		.responder = config->pair->second,
		.variant = config->variant == CP_C2C_CAS
				   ? CACHEPROBE_PINGPONG_CAS
				   : CACHEPROBE_PINGPONG_FLAG,
	};
	struct home_client home = { client, home_cpu(config) };
	unsigned int samples = context->harness->config.samples;
	struct cp_kernel_call call = {
		.send = send_pingpong, .context = &home, .request = &params,
		.ops = &params.round_trips, .samples = &params.samples,
		.min_ops = C2C_MIN_ROUND_TRIPS, .max_ops = C2C_MAX_ROUND_TRIPS,
		.first_ops = C2C_FIRST_ROUND_TRIPS,
		.fixed_ops = context->harness->config.fixed_count,
		.target_ns = sample_ns(context, config, samples, 0),
		.max_irqoff_ns = max_irqoff_ns,
		.tsc_hz = context->clock->tsc_hz,
	};
	struct cp_run_result result;
	struct cp_measurement *m;
	char name[64], why[sizeof(error->msg)];
	double *values;
	int ret = cp_kernel_call_sized(&call, samples, &result, error);

	if (ret == -EINTR)
		return ret;
	if (ret) {
		snprintf(why, sizeof(why), "%s", error->msg);
		c2c_config_name(config, name, sizeof(name));
		return cp_error_set(error, -ret, "c2c: kernel %s: %s", name,
				    why);
	}
	values = kernel_values(&result);
	m = values ? cp_results_add(context->results) : NULL;
	if (!m)
		free(values);
	ret = m ? record(m, context, config, "kernel", (uint32_t)result.ops,
			 values, result.samples, result.retries)
		: -ENOMEM;
	if (!ret)
		cp_stability_note_kernel_run(m, result.missed_rounds,
					     result.disturbed);
	cp_run_result_free(&result);
	return ret ? cp_error_set(error, -ret, "c2c: cannot keep results") : 0;
}
