// SPDX-License-Identifier: GPL-2.0
/*
 * One method at one working-set size: per repetition, warm the working
 * set, measure the timer floor, evict (timed), then walk the working set
 * once with every load timed and classify each line.
 */
#include "areas/coldcache/coldcache.h"

#include "evict/line_calibrate.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness/interrupt.h"

#define PPM 1000000.0

static int alloc_outcome(struct cold_outcome *out, unsigned int reps,
			 size_t nr_levels)
{
	memset(out, 0, sizeof(*out));
	out->evict_ticks = calloc(reps, sizeof(double));
	out->pass_ticks = calloc(reps, sizeof(double));
	out->cached_ppm = calloc(reps, sizeof(int64_t));
	out->turn = calloc(reps, sizeof(uint32_t));
	if (!out->evict_ticks || !out->pass_ticks || !out->cached_ppm ||
	    !out->turn)
		return -ENOMEM;
	for (size_t k = 0; k < nr_levels; k++) {
		out->level_ppm[k] = calloc(reps, sizeof(int64_t));
		if (!out->level_ppm[k])
			return -ENOMEM;
	}
	return 0;
}

size_t cold_line_stride(uint64_t size)
{
	return cp_lines_spread_stride(size);
}

void cold_outcome_free(struct cold_outcome *outcome)
{
	free(outcome->evict_ticks);
	free(outcome->pass_ticks);
	free(outcome->cached_ppm);
	free(outcome->turn);
	for (size_t k = 0; k < CP_MAX_LEVELS; k++)
		free(outcome->level_ppm[k]);
	memset(outcome, 0, sizeof(*outcome));
}

/* COLD_WARM_LAPS laps, the way a benchmark's earlier iterations leave the
 * working set: a non-inclusive last level keeps a line that leaves L2
 * only once the line has been reused, so one or two laps over a working
 * set larger than L2 leave most of it in memory. */
static void warm_up(struct cp_chase *ws)
{
	uint64_t iterations = ws->nr_lines / CP_CHASE_HOPS_PER_ITERATION + 1;

	cp_chase_body(ws, COLD_WARM_LAPS * iterations);
}

/* Lines of the pass to classify: those before an interruption, or -1 when
 * too few were and the repetition should be taken again. */
static long lines_to_classify(const struct cold_run *run, const uint16_t *steps,
			      size_t nr_lines, double floor,
			      const struct cold_outcome *out)
{
	double memory = run->levels.plateau_ticks[run->levels.nr - 1];
	double threshold = floor + COLD_INTERRUPTION_FACTOR *
					   (memory > 100 ? memory : 100);
	size_t before = cp_lines_before_interruption(steps, nr_lines, threshold);
	size_t wanted = nr_lines < COLD_MIN_CLASSIFIED ? nr_lines
						       : COLD_MIN_CLASSIFIED;

	if (before >= wanted)
		return (long)before;
	/* Retakes used up: keep the pass whole rather than measure nothing. */
	return out->retaken >= run->repetitions ? (long)nr_lines : -1;
}

static void keep_shares(const struct cold_run *run, const size_t *counts,
			size_t nr_lines, struct cold_outcome *out)
{
	const struct cp_line_levels *levels = &run->levels;
	size_t i = out->nr;

	out->cached_ppm[i] = (int64_t)((double)(nr_lines - counts[levels->nr - 1]) *
				       PPM / (double)nr_lines);
	for (size_t k = 0; k < levels->nr; k++)
		out->level_ppm[k][i] =
			levels->merged[k]
				? -1
				: (int64_t)((double)counts[k] * PPM /
					    (double)nr_lines);
}

static int one_repetition(struct cold_run *run,
			  const struct cold_entry *entry, uint32_t turn,
			  struct cp_chase *ws, uint16_t *steps,
			  uint16_t *scratch, struct cold_outcome *out,
			  struct cp_error *error)
{
	const struct cp_clock *clock = run->context->clock;
	struct cp_timer_floor floor;
	size_t counts[CP_MAX_LEVELS];
	uint64_t start, stop;
	double latency_sum;
	long classified;
	int ret;

	cp_lines_timer_floor(scratch, COLD_FLOOR_PROBES, &floor);
	warm_up(ws);
	start = cp_clock_start();
	ret = cold_evict(run, entry->method, entry->plan, ws, error);
	stop = cp_clock_stop();
	if (ret)
		return ret;
	cp_lines_timed_pass((void ***)&ws->position, ws->nr_lines, steps);
	classified = lines_to_classify(run, steps, ws->nr_lines, floor.median,
				       out);
	if (classified < 0) {
		out->retaken++;
		return 0;
	}
	latency_sum = cp_lines_classify(steps, (size_t)classified,
					floor.median, &run->levels, counts);
	out->evict_ticks[out->nr] =
		(double)(stop - start) - clock->overhead_ticks;
	if (out->evict_ticks[out->nr] < 0)
		out->evict_ticks[out->nr] = 0;
	out->pass_ticks[out->nr] = latency_sum / (double)classified;
	out->turn[out->nr] = turn;
	keep_shares(run, counts, (size_t)classified, out);
	if (!out->nr || (size_t)classified < out->min_classified)
		out->min_classified = (size_t)classified;
	out->nr++;
	return 0;
}

void cold_free_working_sets(struct cp_chase *sets, size_t nr)
{
	for (size_t e = 0; e < nr; e++)
		cp_chase_free(&sets[e]);
	free(sets);
}

int cold_build_working_sets(size_t nr, uint64_t size, uint64_t seed,
			    enum cp_page_size pages,
			    struct cp_chase **out, struct cp_error *error)
{
	struct cp_chase *sets = calloc(nr, sizeof(*sets));
	size_t stride = cold_line_stride(size);
	int ret = sets ? 0 : -ENOMEM;

	/* A set that failed to build is left zeroed: freeing it is safe. */
	for (size_t built = 0; built < nr && !ret; built++) {
		const struct cp_chase_spec spec = {
			.bytes = size / COLD_LINE_SIZE * stride,
			.line_size = stride, .seed = seed + built,
			.pages = pages, .chases = 1,
		};

		ret = cp_chase_build_spec(&sets[built], &spec);
	}
	if (ret) {
		cold_free_working_sets(sets, sets ? nr : 0);
		return cp_error_set(error, -ret,
				    "coldcache: cannot build a %llu-byte working set",
				    (unsigned long long)size);
	}
	*out = sets;
	return 0;
}

static int alloc_outcomes(const struct cold_run *run,
			  struct cold_entry *entries, size_t nr_entries)
{
	int ret = 0;

	for (size_t e = 0; e < nr_entries; e++)
		memset(&entries[e].outcome, 0, sizeof(entries[e].outcome));
	for (size_t e = 0; e < nr_entries && !ret; e++) {
		ret = alloc_outcome(&entries[e].outcome, run->repetitions,
				    run->levels.nr);
		entries[e].outcome.bytes_read =
			cold_bytes_read(run, entries[e].method,
					entries[e].plan);
	}
	return ret;
}

int cold_measure_rotation(struct cold_run *run, struct cold_entry *entries,
			  size_t nr_entries, uint64_t size,
			  struct cp_error *error)
{
	uint16_t scratch[COLD_FLOOR_PROBES];
	struct cp_chase *sets = NULL;
	bool pending = true;
	uint32_t turn = 0;
	uint16_t *steps;
	int ret = 0;

	if (alloc_outcomes(run, entries, nr_entries))
		return cp_error_set(error, ENOMEM, "coldcache: no memory");
	ret = cold_build_working_sets(nr_entries, size,
				      run->context->options->seed, run->pages,
				      &sets,
				      error);
	if (ret)
		return ret;
	steps = calloc(sets[0].nr_lines, sizeof(*steps));
	if (!steps) {
		cold_free_working_sets(sets, nr_entries);
		return cp_error_set(error, ENOMEM, "coldcache: no memory");
	}
	while (pending && !ret) {
		pending = false;
		for (size_t e = 0; e < nr_entries && !ret; e++) {
			struct cold_outcome *out = &entries[e].outcome;

			if (out->nr >= run->repetitions)
				continue;
			pending = true;
			if (cp_interrupt_requested())
				ret = -EINTR;
			else
				ret = one_repetition(run, &entries[e], turn,
						     &sets[e], steps, scratch,
						     out, error);
		}
		turn++;
	}
	free(steps);
	cold_free_working_sets(sets, nr_entries);
	/* Interrupted with something measured: keep it. */
	return ret == -EINTR && entries[0].outcome.nr ? 0 : ret;
}

int cold_measure(struct cold_run *run, enum cp_coldcache_method method,
		 const struct cp_eviction_plan *plan, uint64_t size,
		 struct cold_outcome *out, struct cp_error *error)
{
	struct cold_entry entry = { .method = method, .plan = plan };
	int ret = cold_measure_rotation(run, &entry, 1, size, error);

	*out = entry.outcome;
	return ret;
}
