/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which cache served each line of a working set: one pass of a dependent
 * pointer chase (harness/chase.h) with every load timed on its own, and each
 * load classified by cache level.
 *
 * Timing one load: `lfence; rdtsc; lfence` before and after it.  The
 * first lfence of a read waits until earlier loads have their data, the
 * second keeps later loads from starting before the read, so the step
 * between the two reads is the load's latency plus a fixed cost: the
 * "floor", measured with the same loop without the loads and subtracted.
 * The floor (about 50 ticks here) is far above an L1 hit, but it is
 * steady: what limits the resolution is its spread, not its size.  Levels
 * whose latencies differ by less than twice that spread cannot be told
 * apart line by line; they are merged and the merge is reported.
 *
 * Each timed load starts after a wait of random length (measure/dither.h:
 * a TSC that advances in steps as long as the differences between levels
 * locks onto a steady loop); whether its readings still tell two levels
 * apart line by line is then measured (cp_line_levels_merge_misread).
 */
#ifndef CACHEPROBE_COLDCACHE_LINES_H
#define CACHEPROBE_COLDCACHE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/dither.h"
#include "results/results.h"

/* Steps above this are stored as this (a preempted load). */
#define CP_LINE_TICKS_MAX UINT16_MAX

/* lfence; rdtsc; lfence: the read waits for every earlier load, and no
 * later load starts before it. */
static inline uint64_t cp_lines_fenced_tsc(void)
{
	uint32_t low, high;

	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence"
			     : "=a"(low), "=d"(high) : : "memory");
	return ((uint64_t)high << 32) | low;
}

static inline uint16_t cp_lines_clamp_step(uint64_t step)
{
	return step > CP_LINE_TICKS_MAX ? CP_LINE_TICKS_MAX : (uint16_t)step;
}

/*
 * Follow @nr_lines pointers from *@position, storing the ticks between
 * the timer reads around each load, each after its dithering wait, in
 * @ticks; *@position is left where the walk stopped.
 */
void cp_lines_timed_pass(void ***position, size_t nr_lines, uint16_t *ticks);

/* @n steps of the pass loop without its loads (dithered alike), into
 * @ticks. */
void cp_lines_timer_steps(uint16_t *ticks, size_t n);

/* The timer floor: the same loop without loads, @nr_probes steps. */
struct cp_timer_floor {
	double median;			/* subtracted from every step */
	double spread;			/* p95 - p5, at least 1 tick */
};
void cp_lines_timer_floor(uint16_t *scratch, size_t nr_probes,
			  struct cp_timer_floor *out);
/* The floor of @n steps of some loop without its loads. */
void cp_lines_floor_of(const uint16_t *steps, size_t n,
		       struct cp_timer_floor *out);

/*
 * Cache levels as the line classifier sees them: plateau latencies (ticks,
 * floor subtracted, innermost first, memory last) and the thresholds
 * between neighbours.  A level merged into the next one has merged = true:
 * its lines are counted with the next.
 */
struct cp_line_levels {
	size_t nr;
	char names[CP_MAX_LEVELS][16];
	double plateau_ticks[CP_MAX_LEVELS];
	double threshold_ticks[CP_MAX_LEVELS];	/* to the next; 0 for last */
	bool merged[CP_MAX_LEVELS];
	/* merged[k] set by cp_line_levels_merge_misread: the two read
	 * alike line by line. */
	bool merged_on_lines[CP_MAX_LEVELS];
	/* The share of the level's own calibration set that the thresholds
	 * put in the level itself, line by line (0 to 1; -1: not known). */
	double own_share[CP_MAX_LEVELS];
};

/*
 * One timed pass over a calibration set, the one kept for a level: its
 * median, floor subtracted (-1 before any pass), and its lines'
 * latencies, floor subtracted (malloc'ed).
 */
struct cp_line_pass {
	double median;
	double *latencies;
	size_t nr;
};

/* An empty pass: median -1, no latencies. */
void cp_line_pass_init(struct cp_line_pass *pass);
/*
 * Offer a pass of @n raw steps, @floor subtracted from each: kept in
 * @pass when its median is the lowest so far (a disturbance only ever
 * slows a pass).  0 or -ENOMEM.
 */
int cp_line_pass_offer(struct cp_line_pass *pass, const uint16_t *steps,
		       size_t n, double floor);
void cp_line_pass_free(struct cp_line_pass *pass);

/* Thresholds as geometric means of neighbouring plateaus (each taken at
 * least 1 tick), as in areas/latency/latency_levels.h. */
void cp_line_levels_thresholds(struct cp_line_levels *levels);
/* The same with @pad ticks added to each inner plateau: where a timer's
 * steps are coarse (a virtual TSC in steps of 21 ticks here), lines of a
 * fast level spread that far above its plateau, and a geometric mean
 * with a distant outer plateau (L2 at 21 ticks, memory at 252: 73) would
 * put them in the outer level. */
void cp_line_levels_thresholds_padded(struct cp_line_levels *levels,
				      double pad);

/* A level counts apart from the one inside it when its plateau is this
 * much slower (as CP_LEVEL_MIN_STEP in areas/latency/latency_levels.h). */
#define CP_COLDCACHE_MIN_STEP 1.5

/*
 * Merge each level into the next when the next one's plateau is less
 * than 2 * @spread above it (the timer cannot tell them apart) or less
 * than CP_COLDCACHE_MIN_STEP times it (no plateau of its own: the
 * calibration found the outer level's working set served like the inner
 * one).  Plateaus of 0 ticks (within the floor) only merge on the spread.
 * Levels are taken outermost first, and where the next level was merged
 * into those outside it, its group's outermost plateau is the one
 * compared: an L3 served like memory (a guest's share of a shared L3)
 * then no longer drags an L2 with a plateau of its own into memory.
 * Returns the number of merges.
 */
size_t cp_line_levels_merge(struct cp_line_levels *levels, double spread);

/* A level tells its lines from its neighbours' when the thresholds put
 * at least this share of its own calibration set in its group. */
#define CP_LINES_OWN_SHARE 0.8

/*
 * After cp_line_levels_merge, merge further where the timer cannot tell
 * cache levels apart line by line: each level's calibration pass
 * (@passes, levels->nr of them; a pass without latencies is not judged)
 * is read with the thresholds, and a cache level whose group gets less
 * than CP_LINES_OWN_SHARE of its lines read in a cache is merged with the
 * neighbouring cache group most of the rest went to, until every one
 * gets that share.  A coarse timer's steps and spread can let two
 * plateaus lie apart while their lines overlap (an L2 line read 104 or
 * 130 ticks, an L3 line 130 or 156).  Memory's group is never joined:
 * lines read as memory left the level (a guest's share of a shared L3
 * is small), which no timer confuses, and merging a cache with memory
 * would count its lines as evicted.  Sets levels->own_share and
 * merged_on_lines.  Returns the number of merges.
 */
size_t cp_line_levels_merge_misread(struct cp_line_levels *levels,
				    const struct cp_line_pass *passes);

/* The first level of the group of merged levels ending at @index. */
size_t cp_line_levels_group_first(const struct cp_line_levels *levels,
				  size_t index);

/* "L1d+L2" for a group of merged levels ending at @index. */
void cp_line_levels_group_name(const struct cp_line_levels *levels,
			       size_t index, char *out, size_t len);

/*
 * Count the lines of @ticks (raw steps, @n of them) per level after
 * subtracting @floor: a line goes to the first level whose threshold it
 * does not exceed, merged levels counting with the next one.  @counts has
 * levels->nr entries (0 for merged levels).  Returns the summed latency
 * after subtraction, in ticks (negative steps count as 0).
 */
double cp_lines_classify(const uint16_t *ticks, size_t n, double floor,
			 const struct cp_line_levels *levels, size_t *counts);

/*
 * How many steps of @ticks come before the first one above @threshold: an
 * interruption (timer interrupt, exit to the hypervisor) during the pass.
 * The lines after it are not counted: on the development machine the
 * first pass after an interruption finds about half of the remaining
 * lines in cache even right after CLFLUSH (the prefetchers come back
 * from it aggressive), which says nothing about the eviction before the
 * pass.  The pass visits lines in random order, so the lines before the
 * interruption are a uniform sample of the working set.  Returns @n when
 * there was none.
 */
size_t cp_lines_before_interruption(const uint16_t *ticks, size_t n,
				    double threshold);

#endif
