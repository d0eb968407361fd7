// SPDX-License-Identifier: GPL-2.0
/*
 * coldcache in kernel mode, line by line (module ABI 6): the module's CHASE
 * with one load per sample (OPS 1), so that every value is the load of one
 * line, timed by the module between two ordered TSC reads with interrupts
 * off, the chase going on from one sample to the next over a set laid out
 * as the user-mode working sets are (one line per 4 KiB, the run's pages).
 *
 * The classifier's levels are measured with this same instrument, by the
 * user-mode calibration's method and sets (evict/line_calibrate.h); only
 * memory's set is cut to MEMORY_LINES lines, since CLFLUSH before every
 * sample flushes the whole buffer.  The floor, subtracted from every
 * value, is a chase over two slots of one line: the timer and an L1d hit,
 * so kernel mode's L1d plateau reads about 0 ticks.
 *
 * A set whose spread would not fit in the module's largest buffer
 * (max_buffer_mb) is laid out dense, its calibration set alike.
 *
 * A warm set is timed after the module's walk over it (PREPARE WARM, ABI
 * 6: the laps user mode walks; without it a set would be timed as
 * building its chain left it, so lines are classified from ABI 6 on
 * only).  wbinvd
 * runs WBINVD before every sample: each value is the first load after a
 * WBINVD.  clflush is not timed line by line: its CLFLUSH before every
 * sample would flush a whole spread set (up to a GiB) for each line.
 */
#include "areas/coldcache/coldcache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/rng.h"

/* Lines timed in a warm set: as many as a request may take. */
#define WARM_LINES CACHEPROBE_MAX_SAMPLES
/* Lines timed after WBINVD, each after its own WBINVD. */
#define WBINVD_LINES 256
/* Lines of memory's set, and loads timed on it. */
#define MEMORY_LINES 64
#define MEMORY_SAMPLES 256
/* Loads timed for the floor. */
#define FLOOR_SAMPLES 1024
/* Requests per plateau, the lowest median kept (as the user-mode
 * calibration: a disturbance only ever slows a set). */
#define PLATEAU_REQUESTS 3

/* What the calibration's plateau function needs. */
struct kernel_timer {
	struct cold_run *run;
	struct cp_error *error;
	__u64 rng;			/* the requests' seeds come from it */
};

/* Seeds follow --seed, so a run is reproducible; never 0, which the
 * ioctl cannot ask for. */
static uint64_t next_seed(struct kernel_timer *timer)
{
	uint64_t seed = cp_splitmix64(&timer->rng);

	return seed ? seed : 1;
}

/* The stride of a set of @lines: spread one per 4 KiB as user mode's,
 * or dense when that would not fit in the module's largest buffer. */
static size_t kernel_stride(const struct cold_run *run, uint64_t lines)
{
	return cp_lines_spread_stride_within(lines * COLD_LINE_SIZE,
					     run->kernel_max_buffer);
}

/* The values of @result as steps clamped to 16 bits, as the user-mode
 * timer's, into *@steps (malloc'ed). */
static int steps_of(const struct cp_run_result *result, uint32_t samples,
		    uint16_t **steps, struct cp_error *error)
{
	if (!result->nr_series || result->samples != samples)
		return cp_error_set(error, EIO,
				    "coldcache: the module sent %u values for %u single loads",
				    result->nr_series ? result->samples : 0,
				    samples);
	*steps = malloc(samples * sizeof(**steps));
	if (!*steps)
		return cp_error_set(error, ENOMEM, "coldcache: no memory");
	for (uint32_t i = 0; i < samples; i++)
		(*steps)[i] = cp_lines_clamp_step(result->series[0].values[i]);
	return 0;
}

/* One request: @samples single loads over a set of @lines. */
static int time_lines(struct kernel_timer *timer, uint64_t lines,
		      size_t stride, uint32_t prepare, uint32_t samples,
		      uint16_t **steps)
{
	struct cold_run *run = timer->run;
	const struct cp_chase_params params = {
		.cpu = run->cpu, .samples = samples,
		.size = lines * stride, .stride = (uint32_t)stride,
		.order = CACHEPROBE_ORDER_RANDOM, .hops = 1,
		.prepare = prepare, .pages = run->kernel_pages,
		.seed = next_seed(timer), .has_seed = true,
	};
	struct cp_run_result result;
	int ret = cp_client_chase(run->kernel_client, &params, &result,
				  timer->error);

	if (ret)
		return ret;
	ret = steps_of(&result, samples, steps, timer->error);
	cp_run_result_free(&result);
	return ret;
}

static int kernel_plateau(void *opaque, uint64_t bytes, bool flushed,
			  struct cp_line_pass *out)
{
	struct kernel_timer *timer = opaque;
	uint64_t lines = bytes / COLD_LINE_SIZE < 2 ? 2
						   : bytes / COLD_LINE_SIZE;
	size_t stride = kernel_stride(timer->run, lines);
	uint32_t samples = flushed ? MEMORY_SAMPLES : WARM_LINES;
	uint16_t *steps;

	if (flushed && lines > MEMORY_LINES)
		lines = MEMORY_LINES;
	for (int i = 0; i < PLATEAU_REQUESTS; i++) {
		int ret = time_lines(timer, lines, stride,
				     flushed ? CACHEPROBE_PREPARE_CLFLUSH
					     : CACHEPROBE_PREPARE_WARM,
				     samples, &steps);

		if (ret)
			return ret;
		ret = cp_line_pass_offer(out, steps, samples,
					 timer->run->kernel_floor.median);
		free(steps);
		if (ret)
			return cp_error_set(timer->error, ENOMEM,
					    "coldcache: no memory");
	}
	return 0;
}

static int kernel_floor(struct kernel_timer *timer)
{
	uint16_t *steps;
	/* Two slots of 8 bytes: one line, always in L1d. */
	int ret = time_lines(timer, 2, 8, CACHEPROBE_PREPARE_WARM,
			     FLOOR_SAMPLES, &steps);

	if (ret)
		return ret;
	cp_lines_floor_of(steps, FLOOR_SAMPLES, &timer->run->kernel_floor);
	free(steps);
	return 0;
}

int cold_kernel_lines_calibrate(struct cold_run *run, struct cp_error *error)
{
	struct kernel_timer timer = {
		.run = run, .error = error,
		.rng = run->context->options->seed,
	};
	int ret;

	run->kernel_lines = false;
	if (run->choices->methods &&
	    !(run->choices->methods &
	      ((1u << CP_COLD_WARM) | (1u << CP_COLD_WBINVD))))
		return 0;
	if (run->kernel_abi < 6) {
		cold_note(run, "kernel mode: lines are not classified: the module (ABI %u) cannot warm CHASE's buffer before its first sample (PREPARE WARM, ABI 6)",
			  run->kernel_abi);
		return 0;
	}
	if (!run->kernel_clflush) {
		cold_note(run, "kernel mode: lines are not classified: memory's plateau needs CLFLUSH, which this CPU lacks");
		return 0;
	}
	ret = kernel_floor(&timer);
	if (!ret)
		ret = cp_lines_calibrate_with(run->context->topology, run->cpu,
					      kernel_plateau, &timer,
					      run->kernel_floor.spread,
					      &run->kernel_levels, error);
	if (ret == -EOVERFLOW || ret == -EOPNOTSUPP || ret == -E2BIG) {
		cold_note(run, "kernel mode: lines are not classified: %s",
			  error->msg);
		return 0;
	}
	if (ret)
		return ret;
	run->kernel_lines = true;
	cold_note(run, "kernel classifier: levels measured with the module's timer (one load per sample, interrupts off) on sets laid out like the working sets; floor %.0f ticks (timer and an L1d hit), spread %.0f",
		  run->kernel_floor.median, run->kernel_floor.spread);
	cold_note_levels(run, &run->kernel_levels, run->kernel_floor.spread,
			 "kernel classifier");
	return 0;
}

/* The shares of @n steps per level, on @m; steps as slow as an
 * interruption are left out and counted.  0 or -ENOMEM. */
static int classify_onto(struct cold_run *run, const uint16_t *steps,
			 size_t n, struct cp_measurement *m)
{
	const struct cp_line_levels *levels = &run->kernel_levels;
	double slowest = cold_interruption_ticks(levels,
						 run->kernel_floor.median);
	size_t counts[CP_MAX_LEVELS] = { 0 }, kept = 0;
	uint16_t *calm = malloc(n * sizeof(*calm));

	if (!calm)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (steps[i] <= slowest)
			calm[kept++] = steps[i];
	cp_lines_classify(calm, kept, run->kernel_floor.median, levels,
			  counts);
	free(calm);
	cp_measurement_add_param(m, "loads_classified", (int64_t)kept);
	cp_measurement_add_param(m, "loads_left_out", (int64_t)(n - kept));
	if (!kept) {
		cp_measurement_warn(m, "no load of the %zu timed one by one was short of an interruption: no shares",
				    n);
		return 0;
	}
	for (size_t k = 0; k < levels->nr; k++) {
		char name[32];

		cold_level_param(levels->names[k], name, sizeof(name));
		cp_measurement_add_param(m, name,
					 cold_level_ppm(levels, counts, k,
							kept));
	}
	cp_measurement_add_param(m, "cached_ppm",
				 cold_cached_ppm(levels, counts, kept));
	return 0;
}

int cold_kernel_lines_classify(struct cold_run *run,
			       enum cp_coldcache_method method, uint64_t size,
			       struct cp_measurement *m, struct cp_error *error)
{
	struct kernel_timer timer = {
		.run = run, .error = error,
		.rng = run->context->options->seed ^ (size * 2 + method),
	};
	bool wbinvd = method == CP_COLD_WBINVD;
	uint32_t samples = wbinvd ? WBINVD_LINES : WARM_LINES;
	uint64_t lines = size / COLD_LINE_SIZE;
	size_t stride = kernel_stride(run, lines);
	uint16_t *steps;
	int ret;

	if (!run->kernel_lines || (method != CP_COLD_WARM && !wbinvd))
		return 0;
	ret = time_lines(&timer, lines, stride,
			 wbinvd ? CACHEPROBE_PREPARE_WBINVD
				: CACHEPROBE_PREPARE_WARM,
			 samples, &steps);
	if (ret == -EOVERFLOW || ret == -E2BIG) {
		cold_note(run, "kernel %s %llu bytes: lines not classified: %s",
			  cp_coldcache_method_name(method),
			  (unsigned long long)size, error->msg);
		return 0;
	}
	if (ret)
		return ret;
	cp_measurement_add_param(m, "line_stride_bytes", (int64_t)stride);
	ret = classify_onto(run, steps, samples, m);
	free(steps);
	return ret;
}
