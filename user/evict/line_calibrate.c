// SPDX-License-Identifier: GPL-2.0
/*
 * The line classifier's levels, measured with the same per-line timer the
 * first passes use: the latency area's method (plateau per level,
 * thresholds at the geometric mean of neighbouring plateaus) applied to
 * per-line latencies.  The amortised chase of the latency area runs loads
 * back to back over dense lines; a fenced load of a line alone in its
 * 4 KiB times the same level differently (here L2 at 30-84 ticks line by
 * line against 12.5-13.7 in the chase, whose L2/L3 threshold is 31-35),
 * so thresholds taken from the other instrument would misplace lines.
 *
 * Plateaus: a warm working set of half of each cache, and memory from the
 * last of them after flushing it.  For the last level, at most 1.5 times
 * the level before: past it, yet inside the share of a shared last level
 * that a guest really gets (on the development machine's KVM guest a
 * random chase finds 5-20 MiB of the nominal 260 MiB, varying with the
 * other guests), and short to walk.  Neighbouring levels are merged
 * when the timer's spread cannot separate them, when the outer one is
 * not CP_LEVEL_MIN_STEP times slower (no plateau of its own was found),
 * or when their calibration sets' lines read alike, line by line
 * (cp_line_levels_merge_misread).
 */
#include "evict/line_calibrate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>

#include "harness/chase.h"
#include "evict/coldcache_plan.h"
#include "harness/interrupt.h"
#include "areas/latency/latency_levels.h"
#include "evict/line_sample.h"

/*
 * Timed passes per plateau, the lowest median kept: another program on
 * the CPU between laps evicts part of a level's set, and one pass then
 * times the level slower than it is (here, with other tests running, L2
 * at 609-672 ticks against 126 alone, merged into memory, and a warm
 * buffer "22 % cached").  A disturbance only ever slows a pass.
 */
#define PLATEAU_PASSES 3

/* Laps before a plateau is timed: the last level keeps lines leaving L2
 * only after they were reused, and more often the more they were (about
 * 100 ms for the 8 MiB working set here). */
#define CALIBRATION_LAPS 16

/* The instance of @cache serving @cpu (its size), or 0. */
static uint64_t serving_size(const struct cp_cache_level *cache,
			     unsigned int cpu)
{
	for (size_t i = 0; i < cache->nr_instances; i++)
		if (cp_cpuset_test(cache->instances[i].cpus, cpu))
			return cache->instances[i].size_bytes;
	return 0;
}

#define LINE 64

size_t cp_lines_spread_stride_within(uint64_t size, uint64_t max_span)
{
	uint64_t lines = size / LINE;

	if (max_span > CP_LINES_SPREAD_MAX_SPAN)
		max_span = CP_LINES_SPREAD_MAX_SPAN;
	return lines * CP_LINES_SPREAD_STRIDE <= max_span
		       ? CP_LINES_SPREAD_STRIDE
		       : LINE;
}

size_t cp_lines_spread_stride(uint64_t size)
{
	return cp_lines_spread_stride_within(size, CP_LINES_SPREAD_MAX_SPAN);
}

/* What one calibration needs at hand. */
struct calibration {
	const struct cp_topology *topology;
	unsigned int cpu;
	enum cp_flush_instruction flush;
	uint64_t seed;
	enum cp_line_timer timer;
	enum cp_page_size pages;
	struct cp_line_levels *levels;
	const struct cp_timer_floor *floor;
	cp_line_plateau_fn other;	/* NULL: @timer's */
	void *other_timer;
	struct cp_line_pass passes[CP_MAX_LEVELS];	/* each level's */
};

static uint64_t to_lines(uint64_t bytes)
{
	bytes -= bytes % LINE;
	return bytes < 2 * LINE ? 2 * LINE : bytes;
}

/* The chase's plateau of a warm working set of @bytes, or of memory when
 * @flushed. */
static int chase_plateau(const struct calibration *run, uint64_t bytes,
			 bool flushed, struct cp_line_pass *out)
{
	struct cp_chase ws;
	uint16_t *steps;
	/* Laid out as the measured sets are, so that each plateau includes
	 * what the spread costs in address translation. */
	uint64_t lines = to_lines(bytes) / LINE;
	size_t stride = cp_lines_spread_stride(lines * LINE);
	const struct cp_chase_spec spec = {
		.bytes = lines * stride, .line_size = stride,
		.seed = run->seed, .pages = run->pages, .chases = 1,
	};
	int ret = cp_chase_build_spec(&ws, &spec);

	if (ret)
		return ret;
	steps = calloc(ws.nr_lines, sizeof(*steps));
	if (!steps) {
		cp_chase_free(&ws);
		return -ENOMEM;
	}
	cp_chase_body(&ws, CALIBRATION_LAPS *
				   (ws.nr_lines / CP_CHASE_HOPS_PER_ITERATION + 1));
	for (int pass = 0; pass < PLATEAU_PASSES && !ret; pass++) {
		if (flushed)
			cp_flush_lines(run->flush, ws.buffer,
				       ws.nr_lines * ws.line_size,
				       ws.line_size);
		cp_lines_timed_pass((void ***)&ws.position, ws.nr_lines, steps);
		ret = cp_line_pass_offer(out, steps, ws.nr_lines,
					 run->floor->median);
	}
	free(steps);
	cp_chase_free(&ws);
	return ret;
}

static volatile uint64_t calibration_sink;

/* One timed pass over @lines, its own floor subtracted, offered to
 * @out. */
static int sample_pass(const uintptr_t *lines, size_t n, uint16_t *ticks,
		       struct cp_line_pass *out)
{
	struct cp_timer_floor floor;

	cp_sample_floor(lines, n, ticks + n, &floor);
	cp_sample_timed_loads(lines, n, ticks);
	return cp_line_pass_offer(out, ticks, n, floor.median);
}

/* The same with the sampled loads of line_sample.h, over a buffer of
 * @bytes on ordinary pages, as a caller's buffer is. */
static int sample_plateau(const struct calibration *run, uint64_t bytes,
			  bool flushed, struct cp_line_pass *out)
{
	size_t size = to_lines(bytes), n;
	char *buffer = mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t *lines = NULL;
	uint16_t *ticks = NULL;
	int ret;

	if (buffer == MAP_FAILED)
		return -ENOMEM;
	memset(buffer, 0x5a, size);
	ret = cp_sample_lines(buffer, size, run->seed, &lines, &n);
	if (!ret && !(ticks = calloc(2 * n, sizeof(*ticks))))
		ret = -ENOMEM;
	for (int pass = 0; pass < PLATEAU_PASSES && !ret; pass++) {
		for (int lap = 0; lap < CALIBRATION_LAPS && !flushed; lap++)
			for (size_t i = 0; i < size; i += LINE)
				calibration_sink += *(volatile char *)(buffer + i);
		if (flushed)
			cp_flush_lines(run->flush, buffer, size, LINE);
		ret = sample_pass(lines, n, ticks, out);
	}
	free(ticks);
	free(lines);
	munmap(buffer, size);
	return ret;
}

static int timed_plateau(const struct calibration *run, uint64_t bytes,
			 bool flushed, struct cp_line_pass *out)
{
	if (run->other)
		return run->other(run->other_timer, bytes, flushed, out);
	if (run->timer == CP_LINE_TIMER_SAMPLE)
		return sample_plateau(run, bytes, flushed, out);
	return chase_plateau(run, bytes, flushed, out);
}

/* Level @index's plateau, its pass kept in @run. */
static int plateau(struct calibration *run, uint64_t bytes, bool flushed,
		   size_t index)
{
	struct cp_line_pass *out = &run->passes[index];
	int ret;

	cp_line_pass_free(out);
	ret = timed_plateau(run, bytes, flushed, out);
	/* A timer that offered no pass: no plateau, and no reason of its
	 * own (-EIO gets the calibration's). */
	if (!ret && out->median < 0)
		ret = -EIO;
	if (!ret)
		run->levels->plateau_ticks[index] = out->median;
	return ret;
}

uint64_t cp_lines_llc_set_bytes(uint64_t llc_half, uint64_t previous_size)
{
	if (previous_size && llc_half > previous_size * 3 / 2)
		return previous_size * 3 / 2;
	return llc_half;
}

static int cache_plateaus(struct calibration *run, uint64_t *last_ws)
{
	const struct cp_topology *topology = run->topology;
	const struct cp_cache_level *llc = cp_plan_last_level(topology);
	struct cp_line_levels *levels = run->levels;
	uint64_t previous = 0;

	for (size_t i = 0; i < topology->nr_cache_levels &&
			   levels->nr < CP_MAX_LEVELS - 1; i++) {
		const struct cp_cache_level *cache = &topology->cache_levels[i];
		uint64_t size = serving_size(cache, run->cpu);
		uint64_t ws = size / 2;
		int ret;

		if (cache->type == CP_CACHE_INSTRUCTION || !size)
			continue;
		if (cp_interrupt_requested())
			return -EINTR;
		if (cache == llc)
			ws = cp_lines_llc_set_bytes(ws, previous);
		ret = plateau(run, ws, false, levels->nr);
		if (ret)
			return ret;
		cp_cache_level_name(cache, levels->names[levels->nr],
				    sizeof(levels->names[0]));
		levels->nr++;
		previous = size;
		*last_ws = ws;
	}
	return 0;
}

/* The plateaus of every level, memory last, then thresholds (inner
 * plateaus padded by @pad) and merges (on @spread). */
static int calibrate_levels(struct calibration *run, double pad,
			    double spread, struct cp_error *error)
{
	struct cp_line_levels *levels = run->levels;
	uint64_t last_ws = 1 << 20;
	int ret = cache_plateaus(run, &last_ws);

	if (!ret)
		ret = plateau(run, last_ws, true, levels->nr);
	if (ret == -EINTR)
		return cp_error_set(error, EINTR,
				    "calibrating the line classifier: interrupted");
	if (ret && run->other && ret != -EIO)
		return ret;
	if (ret)
		return cp_error_set(error, -ret,
				    "cannot calibrate the line classifier");
	snprintf(levels->names[levels->nr], sizeof(levels->names[0]), "memory");
	levels->nr++;
	cp_line_levels_thresholds_padded(levels, pad);
	cp_line_levels_merge(levels, spread);
	cp_line_levels_merge_misread(levels, run->passes);
	return 0;
}

/* calibrate_levels, the levels' passes freed after. */
static int calibrate_and_free(struct calibration *run, double pad,
			      double spread, struct cp_error *error)
{
	int ret;

	for (size_t k = 0; k < CP_MAX_LEVELS; k++)
		cp_line_pass_init(&run->passes[k]);
	ret = calibrate_levels(run, pad, spread, error);
	for (size_t k = 0; k < CP_MAX_LEVELS; k++)
		cp_line_pass_free(&run->passes[k]);
	return ret;
}

int cp_lines_calibrate(const struct cp_topology *topology, unsigned int cpu,
		       enum cp_flush_instruction flush, uint64_t seed,
		       enum cp_line_timer timer, enum cp_page_size pages,
		       struct cp_line_levels *levels,
		       struct cp_timer_floor *floor, struct cp_error *error)
{
	uint16_t scratch[CP_LINES_FLOOR_PROBES];
	struct calibration run = {
		.topology = topology, .cpu = cpu, .flush = flush,
		.seed = seed, .timer = timer, .pages = pages,
		.levels = levels,
		.floor = floor,
	};

	memset(levels, 0, sizeof(*levels));
	if (flush == CP_FLUSH_NONE)
		return cp_error_set(error, EOPNOTSUPP,
				    "calibrating memory latency needs CLFLUSH");
	cp_lines_timer_floor(scratch, CP_LINES_FLOOR_PROBES, floor);
	/* The sampled loads, one line a page in random order, time each
	 * level in a spread of steps; the chase's lines are steadier. */
	return calibrate_and_free(&run, timer == CP_LINE_TIMER_SAMPLE
						? 2 * floor->spread
						: 0,
				  floor->spread, error);
}

int cp_lines_calibrate_with(const struct cp_topology *topology,
			    unsigned int cpu, cp_line_plateau_fn plateau,
			    void *timer, double spread,
			    struct cp_line_levels *levels,
			    struct cp_error *error)
{
	struct calibration run = {
		.topology = topology, .cpu = cpu, .levels = levels,
		.other = plateau, .other_timer = timer,
	};

	memset(levels, 0, sizeof(*levels));
	return calibrate_and_free(&run, 0, spread, error);
}
