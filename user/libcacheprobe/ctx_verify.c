// SPDX-License-Identifier: GPL-2.0
/*
 * cacheprobe_verify_range(): the coldcache area's line classifier over a
 * sample of the caller's lines (evict/line_sample.h), with levels calibrated
 * once per context (evict/line_calibrate.h).
 *
 * Timing and calibration run pinned to the CPU the calling thread is on
 * (its affinity is restored afterwards): a migration in the middle would
 * time another CPU's caches.
 */
#include "libcacheprobe/context.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evict/line_calibrate.h"
#include "evict/line_sample.h"

/* A step this many times the memory plateau is an interruption (as the
 * coldcache area's COLD_INTERRUPTION_FACTOR). */
#define INTERRUPTION_FACTOR 16
/* ... or this many times the median step (line_sample.h). */
#define OUTLIER_FACTOR 8
/* Fewer lines than this (and than half) left after interruptions give
 * no share. */
#define MIN_LINES_KEPT 32

struct pinned {
	cpu_set_t previous;
	unsigned int cpu;
};

static int pin_here(struct pinned *pinned)
{
	int cpu = sched_getcpu();
	cpu_set_t here;

	if (cpu < 0 || sched_getaffinity(0, sizeof(pinned->previous),
					 &pinned->previous))
		return ctx_fail(errno, "cannot tell which CPU this thread is on");
	CPU_ZERO(&here);
	CPU_SET(cpu, &here);
	if (sched_setaffinity(0, sizeof(here), &here))
		return ctx_fail(errno, "cannot stay on CPU %d to time", cpu);
	pinned->cpu = (unsigned int)cpu;
	return 0;
}

static void unpin(const struct pinned *pinned)
{
	sched_setaffinity(0, sizeof(pinned->previous), &pinned->previous);
}

static uint64_t time_seed(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* Groups the timer tells apart: levels not merged into the next. */
static size_t distinct_levels(const struct cp_line_levels *levels)
{
	size_t groups = 0;

	for (size_t k = 0; k < levels->nr; k++)
		groups += !levels->merged[k];
	return groups;
}

/*
 * At open, before the garbage is mapped: the garbage asks for huge pages,
 * and the compaction that makes them moves other memory; here the first
 * touch of a buffer moved that way took microseconds a page, so a verify
 * timed after such a move saw every line "interrupted" (first seen when
 * the calibration itself mapped huge pages).  What fails is kept for
 * verify to report.
 */
int ctx_calibrate(struct cacheprobe_ctx *ctx)
{
	struct cp_timer_floor floor;
	struct cp_error error;
	struct pinned pinned;
	int ret = pin_here(&pinned);

	if (ret)
		return ret;
	ret = cp_lines_calibrate(ctx->topology, pinned.cpu, ctx->flush,
				 time_seed(), CP_LINE_TIMER_SAMPLE, CP_PAGES_2M,
				 &ctx->levels,
				 &floor, &error);
	unpin(&pinned);
	if (ret) {
		snprintf(ctx->calibration_error,
			 sizeof(ctx->calibration_error), "verify: %s",
			 error.msg);
		return ret;
	}
	ctx->calibrated = true;
	return 0;
}

static void fill_warmth(const struct cp_line_levels *levels,
			const size_t *counts, size_t kept,
			struct cacheprobe_warmth *out)
{
	uint64_t cached = 0;

	memset(out, 0, sizeof(*out));
	out->lines_timed = (uint32_t)kept;
	for (size_t k = 0; k < levels->nr; k++) {
		struct cacheprobe_level_share *share;

		if (levels->merged[k] || out->nr_levels == CACHEPROBE_MAX_LEVELS)
			continue;
		share = &out->levels[out->nr_levels++];
		cp_line_levels_group_name(levels, k, share->name,
					  sizeof(share->name));
		share->ppm = (uint32_t)(counts[k] * 1000000 / kept);
		if (k + 1 < levels->nr)
			cached += counts[k];
	}
	out->cached_ppm = (uint32_t)(cached * 1000000 / kept);
}

/*
 * Keep the steps at most @threshold, in order, at the front of @ticks;
 * returns how many.  One line per page, the sampled lines have no
 * neighbours for the prefetchers to fetch after an interruption, so the
 * lines after one are timed as well as those before (the coldcache area,
 * whose working sets are dense where they are small, stops at the
 * first).
 */
static size_t drop_interrupted(uint16_t *ticks, size_t n, double threshold)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++)
		if (ticks[i] <= threshold)
			ticks[kept++] = ticks[i];
	return kept;
}

/* Time the sample and classify what came before any interruption. */
static int time_sample(const struct cacheprobe_ctx *ctx,
		       const uintptr_t *lines, size_t n,
		       struct cacheprobe_warmth *out)
{
	const struct cp_line_levels *levels = &ctx->levels;
	uint16_t *ticks = calloc(2 * n, sizeof(*ticks));
	size_t counts[CP_MAX_LEVELS] = { 0 }, kept;
	struct cp_timer_floor floor;
	double interruption;

	if (!ticks)
		return ctx_fail(ENOMEM, "no memory for the timings");
	/* The floor's loop first: it reads only the address array and
	 * writes the tick array, so the timed loop then meets both in L1
	 * and their pages mapped, and the range as the caller left it. */
	cp_sample_floor(lines, n, ticks + n, &floor);
	cp_sample_timed_loads(lines, n, ticks);
	interruption = floor.median +
		       cp_sample_interruption(ticks, n,
					      levels->plateau_ticks[levels->nr - 1],
					      INTERRUPTION_FACTOR,
					      OUTLIER_FACTOR);
	kept = drop_interrupted(ticks, n, interruption);
	if (kept < MIN_LINES_KEPT && kept < n / 2) {
		free(ticks);
		return ctx_fail(EINTR,
				"verify: %zu of %zu lines were timed across an interruption: evict and verify again",
				n - kept, n);
	}
	cp_lines_classify(ticks, kept, floor.median, levels, counts);
	fill_warmth(levels, counts, kept, out);
	free(ticks);
	return 0;
}

int ctx_verify(struct cacheprobe_ctx *ctx, const void *addr, size_t len,
	       struct cacheprobe_warmth *out)
{
	uintptr_t *lines = NULL;
	struct pinned pinned;
	size_t n = 0;
	int ret = pin_here(&pinned);

	if (ret)
		return ret;
	/* A busy moment at open can merge every level into one: once, the
	 * first verify that meets it calibrates again. */
	if ((!ctx->calibrated || distinct_levels(&ctx->levels) < 2) &&
	    !ctx->recalibrated) {
		ctx->recalibrated = true;
		ctx->calibrated = false;
		ctx_calibrate(ctx);
	}
	if (!ctx->calibrated)
		ret = ctx_fail(EOPNOTSUPP, "%s", ctx->calibration_error);
	if (!ret && distinct_levels(&ctx->levels) < 2)
		ret = ctx_fail(EOPNOTSUPP,
			       "verify: the timer cannot tell any cache level from memory here (an emulator, or a host too noisy to time single loads)");
	if (!ret) {
		ret = cp_sample_lines(addr, len, time_seed(), &lines, &n);
		if (ret)
			ret = ctx_fail(-ret, ret == -EINVAL
					     ? "verify: the range holds no whole cache line"
					     : "verify: no memory for the sample");
	}
	if (!ret)
		ret = time_sample(ctx, lines, n, out);
	free(lines);
	unpin(&pinned);
	return ret;
}

int cacheprobe_verify_range(struct cacheprobe_ctx *ctx, const void *addr,
			    size_t len, struct cacheprobe_warmth *out)
{
	int ret;

	if (!ctx || !out)
		return ctx_fail(EINVAL, "no %s given", ctx ? "result" : "context");
	if (!addr || !len)
		return ctx_fail(EINVAL, "empty range");
	ret = ctx_check_process(ctx);
	if (!ret)
		ret = ctx_verify(ctx, addr, len, out);
	if (!ret)
		ctx_clear_error();
	return ret;
}
