// SPDX-License-Identifier: GPL-2.0
/*
 * The classic case side by side.  In the sweep, the configurations it
 * compares (two 4-byte counters side by side, one line apart, and padded)
 * are measured seconds apart, and on a shared machine their medians drift
 * apart as other work comes and goes: ten runs of the area gave ratios
 * spread over 6 %.  Here runs of the three alternate, each at the count
 * the sweep calibrated for it, and the ratios are taken run by run, so a
 * drift falls on both sides of every ratio.  Only quiet rounds count (the
 * padded run near its fastest: areas/bounce/bounce_granularity.h), and the rounds move
 * over many lines (CLASSIC_BLOCKS).
 *
 * Padded to one line is what the classic case names, but it is not always
 * enough: with the adjacent-line prefetcher pairing lines into 128 bytes,
 * counters 64 bytes apart were seen to bounce in some runs here (1.5 to 6
 * times slower than side by side) and not in others.  So the ratio
 * against the padded counters is taken too, and a warning says when the
 * one-line counters were the slower ones.
 */
#include "areas/bounce/bounce_area.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "areas/bounce/bounce_layout.h"
#include "areas/bounce/bounce_loop.h"
#include "areas/bounce/bounce_granularity.h"
#include "areas/bounce/bounce_run.h"
#include "harness/interrupt.h"
#include "stats/stats.h"

#define CLASSIC_RETAKES 10
#define CLASSIC_MIN_OVERLAP 0.9
#define CLASSIC_RESAMPLES 2000
#define CLASSIC_SEED 0x636c6173u
/* Rounds taken at most, as a multiple of the quiet rounds wanted. */
#define CLASSIC_ROUND_BUDGET 20

/*
 * Round r runs each side in its block r % CLASSIC_BLOCKS.  What a line
 * costs to bounce depends on where it lives: the last level is sliced, a
 * line's physical address picks the slice that tracks it, and slices lie
 * nearer some cores than others.  One block per run fixed the run's
 * ratio to its line's slice: ratios of one process agreed within 1 % and
 * those of ten processes spread from 1.17 to 1.25, and one process
 * measuring twelve blocks in turn saw 1.16 to 1.28.  Rounds over many
 * blocks take the median over slices instead.
 */
#define CLASSIC_BLOCKS 64
/* Quiet rounds wanted: the samples, within these bounds (each round is
 * three runs of <= 250 us; beyond 1001 the median no longer moves, and
 * --samples may ask for 100000). */
#define CLASSIC_MIN_ROUNDS 101
#define CLASSIC_MAX_ROUNDS 1001

struct classic_side {
	struct cp_bounce_layout layouts[CLASSIC_BLOCKS];
	size_t nr_layouts;
	struct cp_bounce_job job;
};

static void side_free(struct classic_side *side)
{
	while (side->nr_layouts)
		cp_bounce_layout_free(&side->layouts[--side->nr_layouts]);
}

static int side_init(struct classic_side *side,
		     const struct bounce_config *config, uint32_t distance,
		     uint64_t count)
{
	unsigned int threads = config->group->nr_cpus;
	int ret = 0;

	side->job = (struct cp_bounce_job){
		.cpus = config->group->cpus,
		.loop = cp_bounce_loop(config->op, config->width),
		.count = count, .runs = 1, .max_retakes = CLASSIC_RETAKES,
		.min_overlap = CLASSIC_MIN_OVERLAP,
	};
	side->nr_layouts = 0;
	while (!ret && side->nr_layouts < CLASSIC_BLOCKS) {
		ret = cp_bounce_layout_init(&side->layouts[side->nr_layouts],
					    threads, config->width, distance);
		if (!ret)
			side->nr_layouts++;
	}
	if (ret)
		side_free(side);
	return ret;
}

/* Round @round's run: the threads' mean ticks per increment, or -errno. */
static int run_once(struct classic_side *side, size_t round,
		    double overhead_ticks, double *ticks_per_increment)
{
	struct cp_bounce_timing timing;
	unsigned int failed_cpu = 0;
	double sum = 0;
	int ret;

	side->job.layout = &side->layouts[round % CLASSIC_BLOCKS];
	ret = cp_bounce_run(&side->job, &timing, &failed_cpu);

	if (ret)
		return ret;
	for (unsigned int i = 0; i < timing.threads; i++)
		sum += ((double)cp_bounce_ticks(&timing, 0, i) -
			overhead_ticks) / (double)side->job.count;
	*ticks_per_increment = sum / timing.threads;
	cp_bounce_timing_free(&timing);
	return 0;
}

/* Ticks per increment of each side, round by round. */
struct classic_rounds {
	double *ticks[3];
	size_t n, capacity;
	struct cp_bounce_quiet_count quiet;	/* by the padded side */
};

/* Rounds of one run per side until @wanted are quiet or the budget is
 * spent. */
static void take_rounds(struct classic_side *sides, double overhead_ticks,
			struct classic_rounds *rounds, size_t wanted)
{
	while (rounds->n < rounds->capacity && !cp_interrupt_requested()) {
		double ticks[3];
		bool ok = true;

		for (size_t i = 0; i < 3 && ok; i++)
			ok = run_once(&sides[i], rounds->n, overhead_ticks,
				      &ticks[i]) == 0 &&
			     ticks[i] > 0;
		if (!ok)
			break;
		for (size_t i = 0; i < 3; i++)
			rounds->ticks[i][rounds->n] = ticks[i];
		rounds->n++;
		cp_bounce_quiet_add(&rounds->quiet, rounds->ticks[2],
				    rounds->n);
		if (rounds->quiet.quiet >= wanted)
			break;
	}
}

/* The ratios of side 0 to side 1 and to side 2 in the quiet rounds, into
 * @ratios[0] and [1].  How many. */
static size_t quiet_ratios(const struct classic_rounds *rounds,
			   double *ratios[2])
{
	double fastest = cp_bounce_fastest(rounds->ticks[2], rounds->n);
	size_t n = 0;

	for (size_t i = 0; i < rounds->n; i++) {
		if (!cp_bounce_quiet(rounds->ticks[2][i], fastest))
			continue;
		ratios[0][n] = rounds->ticks[0][i] / rounds->ticks[1][i];
		ratios[1][n] = rounds->ticks[0][i] / rounds->ticks[2][i];
		n++;
	}
	return n;
}

struct classic_ratio {
	double median, low, high;
};

static int ratio_of(const double *ratios, size_t n, struct classic_ratio *out)
{
	out->median = cp_stats_median(ratios, n);
	return cp_stats_median_interval(ratios, n, CLASSIC_RESAMPLES,
					CLASSIC_SEED, &out->low, &out->high);
}

/* Params NAME_milli, NAME_low_milli and NAME_high_milli. */
static void add_ratio(struct cp_measurement *m, const char *name,
		      const struct classic_ratio *ratio)
{
	const double values[3] = { ratio->median, ratio->low, ratio->high };
	static const char *const suffixes[3] = { "milli", "low_milli",
						 "high_milli" };
	char key[48];

	for (size_t i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s_%s", name, suffixes[i]);
		cp_measurement_add_param(m, key,
					 (int64_t)(values[i] * 1000 + 0.5));
	}
}

static void note(struct cp_measurement *adjacent, double *ratios[2], size_t n,
		 size_t taken, unsigned int line_size, uint32_t padded_distance)
{
	struct classic_ratio one_line, padded;

	if (ratio_of(ratios[0], n, &one_line) || ratio_of(ratios[1], n, &padded))
		return;
	add_ratio(adjacent, "classic", &one_line);
	add_ratio(adjacent, "classic_padded", &padded);
	cp_measurement_add_param(adjacent, "classic_padded_bytes",
				 padded_distance);
	cp_measurement_add_param(adjacent, "classic_rounds", (int64_t)n);
	cp_measurement_add_param(adjacent, "classic_rounds_disturbed",
				 (int64_t)(taken - n));
	snprintf(adjacent->note, sizeof(adjacent->note),
		 "classic x%.2f [%.2f, %.2f] vs %u B apart", one_line.median,
		 one_line.low, one_line.high, line_size);
	if (one_line.high < 1)
		cp_measurement_warn(adjacent,
				    "counters %u B apart were slower than side by side (x%.2f): they bounce too here, as adjacent-line prefetch pairs lines; compare with %u B apart",
				    line_size, 1 / one_line.median,
				    padded_distance);
}

static void rounds_free(struct classic_rounds *rounds)
{
	for (size_t i = 0; i < 3; i++)
		free(rounds->ticks[i]);
}

static int rounds_alloc(struct classic_rounds *rounds, size_t capacity)
{
	*rounds = (struct classic_rounds){ .capacity = capacity };
	for (size_t i = 0; i < 3; i++) {
		rounds->ticks[i] = calloc(capacity, sizeof(double));
		if (!rounds->ticks[i])
			return -ENOMEM;
	}
	return 0;
}

int bounce_classic_side_by_side(struct cp_area_context *context,
				const struct bounce_config *config,
				struct cp_measurement *adjacent,
				const struct cp_measurement *one_line,
				const struct cp_measurement *padded,
				unsigned int line_size)
{
	size_t samples = context->harness->config.samples;
	size_t wanted = samples < CLASSIC_MIN_ROUNDS   ? CLASSIC_MIN_ROUNDS
			: samples > CLASSIC_MAX_ROUNDS ? CLASSIC_MAX_ROUNDS
						       : samples;
	uint32_t padded_distance =
		(uint32_t)cp_measurement_param(padded, "distance_bytes", 0);
	const struct cp_measurement *sources[3] = { adjacent, one_line, padded };
	const uint32_t distances[3] = { 4, line_size, padded_distance };
	struct classic_side *sides = calloc(3, sizeof(*sides));
	struct classic_rounds rounds;
	double *ratios[2] = { NULL, NULL };
	size_t ready = 0, n = 0;
	int ret = rounds_alloc(&rounds, wanted * CLASSIC_ROUND_BUDGET);

	if (!sides)
		ret = -ENOMEM;

	if (!ret) {
		ratios[0] = calloc(rounds.capacity, sizeof(double));
		ratios[1] = calloc(rounds.capacity, sizeof(double));
		if (!ratios[0] || !ratios[1])
			ret = -ENOMEM;
	}
	while (!ret && ready < 3) {
		ret = side_init(&sides[ready], config, distances[ready],
				sources[ready]->count);
		if (!ret)
			ready++;
	}
	if (!ret) {
		take_rounds(sides, context->clock->overhead_ticks, &rounds,
			    wanted);
		n = quiet_ratios(&rounds, ratios);
	}
	while (ready)
		side_free(&sides[--ready]);
	free(sides);
	/* Too few quiet rounds: the sweep's ratio of medians stays. */
	if (n >= wanted / 2 && n > 0)
		note(adjacent, ratios, n, rounds.n, line_size, padded_distance);
	else if (rounds.n)
		cp_measurement_warn(adjacent,
				    "classic case: only %zu of %zu side-by-side rounds ran undisturbed (padded counters within %.0f %% of their fastest); the ratio of the sweep's medians is kept",
				    n, rounds.n, CP_BOUNCE_QUIET_MARGIN * 100);
	free(ratios[0]);
	free(ratios[1]);
	rounds_free(&rounds);
	return ret;
}
