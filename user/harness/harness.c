// SPDX-License-Identifier: GPL-2.0
#include "harness/harness.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "harness/interrupt.h"
#include "harness/rounds.h"

/* Calibration stops doubling once a trial lasts this share of the target,
 * then extrapolates linearly: long enough that timer noise is small. */
#define CALIBRATION_SHARE 0.25
/* Trials per calibration step; the quickest counts (see quickest_run). */
#define CALIBRATION_TRIALS 3

/* Where results of timed bodies go, so no body can be optimised away. */
static volatile uint64_t result_sink;

uint64_t cp_nothing_body(void *context, uint64_t count)
{
	uint64_t value = (uint64_t)(uintptr_t)context;

	for (uint64_t i = 0; i < count; i++)
		__asm__ __volatile__("" : "+r"(value));
	return value;
}

/* Raw ticks of one run of @count iterations, timer cost removed. */
static double time_run(const struct cp_harness *harness,
		       const struct cp_benchmark *benchmark, uint64_t count)
{
	uint64_t start, stop, result;

	start = cp_clock_start();
	result = benchmark->body(benchmark->context, count);
	stop = cp_clock_stop();
	result_sink += result;
	return (double)(stop - start) - harness->clock->overhead_ticks;
}

uint64_t cp_harness_scale_count(uint64_t count, double ticks,
				double target_ticks)
{
	double scaled;

	if (ticks <= 0)
		return count * 2;
	scaled = ceil((double)count * target_ticks / ticks);
	return scaled < 1 ? 1 : (uint64_t)scaled;
}

/*
 * The quickest of CALIBRATION_TRIALS runs of @count: a trial that was
 * preempted or interrupted looks slow, and the count scaled from it would
 * make every sample a fraction of the target (seen on a loaded machine).
 */
static double quickest_run(const struct cp_harness *harness,
			   const struct cp_benchmark *benchmark,
			   uint64_t count)
{
	double quickest = time_run(harness, benchmark, count);

	for (int i = 1; i < CALIBRATION_TRIALS; i++) {
		double ticks = time_run(harness, benchmark, count);

		if (ticks < quickest)
			quickest = ticks;
	}
	return quickest;
}

static uint64_t calibrate(const struct cp_harness *harness,
			  const struct cp_benchmark *benchmark)
{
	double target_ticks = harness->config.target_sample_ns *
			      harness->clock->tsc_hz / 1e9;
	uint64_t count = 1;
	double ticks;

	if (harness->config.fixed_count)
		return harness->config.fixed_count;
	for (;;) {
		ticks = quickest_run(harness, benchmark, count);
		if (ticks >= target_ticks * CALIBRATION_SHARE ||
		    count >= UINT64_MAX / 4)
			break;
		count *= 2;
	}
	return cp_harness_scale_count(count, ticks, target_ticks);
}

/* Times the scheduler has taken the CPU from this thread. */
static long involuntary_switches(void)
{
	struct rusage usage;

	if (getrusage(RUSAGE_THREAD, &usage))
		return 0;
	return usage.ru_nivcsw;
}

/*
 * One sample's raw ticks.  A sample during which the thread was preempted
 * measured someone else too: it is taken again, at most as many times in
 * all as samples were asked for, so a busy machine cannot stall the run.
 */
static double take_one(const struct cp_harness *harness,
		       const struct cp_benchmark *benchmark,
		       struct cp_samples *out)
{
	for (;;) {
		long before = involuntary_switches();
		double raw = time_run(harness, benchmark, out->count);

		if (involuntary_switches() == before ||
		    out->preempted_retaken >= harness->config.samples)
			return raw;
		out->preempted_retaken++;
	}
}

static int take_samples(const struct cp_harness *harness,
			const struct cp_benchmark *benchmark,
			double nothing_per_iteration, struct cp_samples *out)
{
	unsigned int wanted = harness->config.samples;
	double *raw = malloc(wanted * sizeof(*raw));

	out->ticks_per_op = malloc(wanted * sizeof(*out->ticks_per_op));
	if (!raw || !out->ticks_per_op) {
		free(raw);
		cp_samples_free(out);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < wanted; i++) {
		if (cp_interrupt_requested()) {
			out->interrupted = true;
			break;
		}
		raw[i] = take_one(harness, benchmark, out);
		out->ticks_per_op[i] =
			(raw[i] / (double)out->count - nothing_per_iteration) /
			(double)benchmark->scale;
		out->nr_samples++;
	}
	if (out->nr_samples)
		out->median_sample_ticks =
			cp_stats_median(raw, out->nr_samples);
	free(raw);
	if (out->nr_samples)
		return 0;
	/* Interrupted before the first sample: nothing for the caller. */
	cp_samples_free(out);
	return -EINTR;
}

static int measure_with_floor(const struct cp_harness *harness,
			      const struct cp_benchmark *benchmark,
			      double nothing_per_iteration,
			      struct cp_samples *out)
{
	memset(out, 0, sizeof(*out));
	if (!harness->config.samples || !benchmark->scale)
		return -EINVAL;
	if (cp_interrupt_requested())
		return -EINTR;
	/* Prime: first-touch faults, cold code and caches are not what a
	 * sample should see. */
	time_run(harness, benchmark,
		 benchmark->prime_count ? benchmark->prime_count : 1);
	out->count = calibrate(harness, benchmark);
	return take_samples(harness, benchmark, nothing_per_iteration, out);
}

int cp_harness_measure(const struct cp_harness *harness,
		       const struct cp_benchmark *benchmark,
		       struct cp_samples *out)
{
	return measure_with_floor(harness, benchmark,
				  harness->nothing_ticks_per_iteration, out);
}

/* NOTHING measured now, with @harness's settings, as its floor. */
static int measure_floor(struct cp_harness *harness)
{
	const struct cp_benchmark nothing = {
		.body = cp_nothing_body, .scale = 1, .prime_count = 1000,
	};
	struct cp_samples samples;
	struct cp_stats stats;
	int ret = measure_with_floor(harness, &nothing, 0, &samples);

	if (ret)
		return ret;
	ret = cp_stats_compute(samples.ticks_per_op, samples.nr_samples,
			       &stats);
	cp_samples_free(&samples);
	if (ret)
		return ret;
	harness->nothing_stats = stats;
	harness->nothing_ticks_per_iteration = stats.median;
	return 0;
}

int cp_harness_init(struct cp_harness *harness, const struct cp_clock *clock,
		    const struct cp_harness_config *config)
{
	memset(harness, 0, sizeof(*harness));
	harness->clock = clock;
	harness->config = *config;
	return measure_floor(harness);
}

int cp_harness_renew_floor(struct cp_harness *harness)
{
	return measure_floor(harness);
}

void cp_samples_free(struct cp_samples *samples)
{
	free(samples->ticks_per_op);
	samples->ticks_per_op = NULL;
}

int cp_samples_append(struct cp_samples *into, struct cp_samples *round)
{
	size_t total = into->nr_samples + round->nr_samples;
	double *grown = realloc(into->ticks_per_op,
				(total ? total : 1) * sizeof(*grown));
	size_t rounds_before = into->samples_per_round && into->nr_samples
		? cp_rounds_count(into->nr_samples, into->samples_per_round)
		: 0;

	if (!grown) {
		cp_samples_free(round);
		return -ENOMEM;
	}
	memcpy(grown + into->nr_samples, round->ticks_per_op,
	       round->nr_samples * sizeof(*grown));
	into->ticks_per_op = grown;
	if (!into->nr_samples)
		into->count = round->count;
	into->median_sample_ticks =
		(into->median_sample_ticks * (double)rounds_before +
		 round->median_sample_ticks) / (double)(rounds_before + 1);
	into->nr_samples = total;
	into->interrupted |= round->interrupted;
	into->preempted_retaken += round->preempted_retaken;
	cp_samples_free(round);
	return 0;
}
