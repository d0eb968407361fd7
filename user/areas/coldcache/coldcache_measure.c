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
#include "harness/rounds.h"

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

double cold_interruption_ticks(const struct cp_line_levels *levels,
			       double floor)
{
	double memory = levels->plateau_ticks[levels->nr - 1];

	return floor + COLD_INTERRUPTION_FACTOR * (memory > 100 ? memory : 100);
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
	double threshold = cold_interruption_ticks(&run->levels, floor);
	size_t before = cp_lines_before_interruption(steps, nr_lines, threshold);
	size_t wanted = nr_lines < COLD_MIN_CLASSIFIED ? nr_lines
						       : COLD_MIN_CLASSIFIED;

	if (before >= wanted)
		return (long)before;
	/* Retakes used up: keep the pass whole rather than measure nothing. */
	return out->retaken >= run->repetitions ? (long)nr_lines : -1;
}

int64_t cold_level_ppm(const struct cp_line_levels *levels,
		       const size_t *counts, size_t k, size_t nr_lines)
{
	return levels->merged[k] ? -1
				 : (int64_t)((double)counts[k] * PPM /
					     (double)nr_lines);
}

int64_t cold_cached_ppm(const struct cp_line_levels *levels,
			const size_t *counts, size_t nr_lines)
{
	return (int64_t)((double)(nr_lines - counts[levels->nr - 1]) * PPM /
			 (double)nr_lines);
}

static void keep_shares(const struct cold_run *run, const size_t *counts,
			size_t nr_lines, struct cold_outcome *out)
{
	const struct cp_line_levels *levels = &run->levels;
	size_t i = out->nr;

	out->cached_ppm[i] = cold_cached_ppm(levels, counts, nr_lines);
	for (size_t k = 0; k < levels->nr; k++)
		out->level_ppm[k][i] = cold_level_ppm(levels, counts, k,
						      nr_lines);
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

static int build_set(struct cp_chase *set, uint64_t size, uint64_t seed,
		     enum cp_page_size pages, struct cp_error *error)
{
	size_t stride = cold_line_stride(size);
	const struct cp_chase_spec spec = {
		.bytes = size / COLD_LINE_SIZE * stride, .line_size = stride,
		.seed = seed, .pages = pages, .chases = 1,
	};
	int ret = cp_chase_build_spec(set, &spec);

	if (ret)
		return cp_error_set(error, -ret,
				    "coldcache: cannot build a %llu-byte working set",
				    (unsigned long long)size);
	return 0;
}

int cold_build_working_sets(const struct cold_entry *entries, size_t nr,
			    uint64_t seed, enum cp_page_size pages,
			    struct cp_chase **out, struct cp_error *error)
{
	struct cp_chase *sets = calloc(nr ? nr : 1, sizeof(*sets));
	int ret = sets ? 0 : cp_error_set(error, ENOMEM,
					  "coldcache: no memory");

	/* A set that failed to build is left zeroed: freeing it is safe. */
	for (size_t built = 0; built < nr && !ret; built++)
		ret = build_set(&sets[built], entries[built].size,
				seed + built, pages, error);
	if (ret) {
		cold_free_working_sets(sets, sets ? nr : 0);
		return ret;
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

int cold_rotation_start(struct cold_run *run, struct cold_rotation *rotation,
			struct cold_entry *entries, size_t nr,
			struct cp_error *error)
{
	size_t most_lines = 0;
	int ret = 0;

	memset(rotation, 0, sizeof(*rotation));
	rotation->entries = entries;
	rotation->nr = nr;
	rotation->order = calloc(nr ? nr : 1, sizeof(*rotation->order));
	if (alloc_outcomes(run, entries, nr) || !rotation->order)
		ret = cp_error_set(error, ENOMEM, "coldcache: no memory");
	if (!ret)
		ret = cold_build_working_sets(entries, nr,
					      run->context->options->seed,
					      run->pages, &rotation->sets,
					      error);
	for (size_t e = 0; e < nr && !ret; e++)
		if (rotation->sets[e].nr_lines > most_lines)
			most_lines = rotation->sets[e].nr_lines;
	if (!ret) {
		rotation->steps = calloc(most_lines ? most_lines : 1,
					 sizeof(*rotation->steps));
		if (!rotation->steps)
			ret = cp_error_set(error, ENOMEM,
					   "coldcache: no memory");
	}
	if (ret) {
		cold_rotation_end(rotation);
		for (size_t e = 0; e < nr; e++)
			cold_outcome_free(&entries[e].outcome);
	}
	return ret;
}

/*
 * naive's state has a history: it reads one buffer over and over, as the
 * classic recipe does, and a buffer it has read before is partly still
 * in the last level, where reading it again inserts, and so evicts,
 * less.  Measured back to back on one buffer, its eviction of a 24 KiB
 * set took 8.8 ms at first and 5.0 ms from the 17th repetition on, and
 * the first pass after it 137 and 52 ns a line.  In rounds, other
 * methods come between its repetitions, and garbage-planned's reads had
 * pushed the buffer out.  So each repetition of naive gets a new buffer
 * (on pages none of the last few held: other cache sets, so the rounds
 * differ in placement as runs do), written when it is filled and read
 * once before it on a working set warmed alike: every repetition is a
 * loop's second read of a buffer it has just filled, whichever entry
 * went before it.  The other methods read no buffer of their own twice
 * (planned reads a fresh window each time; clflush, wbinvd and wbnoinvd
 * flush), so nothing goes before theirs.
 */
static int lead_in(struct cold_run *run, const struct cold_entry *entry,
		   struct cp_chase *ws, struct cp_error *error)
{
	int ret;

	if (entry->method != CP_COLD_GARBAGE_NAIVE)
		return 0;
	ret = cp_garbage_redraw_naive(&run->garbage);
	if (ret == -ENOMEM)
		return cp_error_set(error, ENOMEM,
				    "coldcache: no memory for a new %llu-byte naive garbage buffer",
				    (unsigned long long)CP_NAIVE_GARBAGE_BYTES);
	if (ret)
		return ret;
	warm_up(ws);
	return cold_evict(run, entry->method, entry->plan, ws, error);
}

bool cold_rotation_pending(const struct cold_run *run,
			   const struct cold_rotation *rotation)
{
	for (size_t e = 0; e < rotation->nr; e++)
		if (rotation->entries[e].outcome.nr < run->repetitions)
			return true;
	return false;
}

int cold_rotation_round(struct cold_run *run, struct cold_rotation *rotation,
			struct cp_error *error)
{
	bool pending = false;
	int ret = 0;

	/* From the run's seed and the round, so a run repeats with its
	 * seed and no entry is always first after a pause of the machine. */
	cp_rounds_order_in(rotation->order, rotation->nr,
			   run->context->options->seed, rotation->round);
	for (size_t i = 0; i < rotation->nr && !ret; i++) {
		size_t e = rotation->order[i];
		struct cold_entry *entry = &rotation->entries[e];

		if (entry->outcome.nr >= run->repetitions)
			continue;
		pending = true;
		if (cp_interrupt_requested())
			return -EINTR;
		cold_progress(run, entry->label, entry->size);
		ret = lead_in(run, entry, &rotation->sets[e], error);
		if (!ret && cp_interrupt_requested())
			return -EINTR;
		if (!ret)
			ret = one_repetition(run, entry, rotation->round,
					     &rotation->sets[e],
					     rotation->steps, rotation->scratch,
					     &entry->outcome, error);
	}
	rotation->round++;
	return ret ? ret : pending;
}

void cold_rotation_end(struct cold_rotation *rotation)
{
	free(rotation->steps);
	free(rotation->order);
	if (rotation->sets)
		cold_free_working_sets(rotation->sets, rotation->nr);
	rotation->steps = NULL;
	rotation->order = NULL;
	rotation->sets = NULL;
}
