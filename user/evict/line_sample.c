// SPDX-License-Identifier: GPL-2.0
#include "evict/line_sample.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/rng.h"
#include "stats/stats.h"

#define LINE 64
#define PAGE 4096
/* Lines of a small buffer's page are at least this far apart: never in
 * one 128-byte pair, nor in neighbouring pairs. */
#define MIN_GAP (4 * LINE)

/* Where the timed loads' values go, so no load is dropped. */
static volatile uint64_t sample_sink;

/* Every @gap bytes of one page from @first (at most @end). */
static uintptr_t disguise(uintptr_t line)
{
	return line ^ (uintptr_t)CP_SAMPLE_DISGUISE;
}

static size_t take_page(uintptr_t first, uintptr_t end, size_t gap,
			uintptr_t *lines, size_t nr)
{
	uintptr_t page_end = (first & ~(uintptr_t)(PAGE - 1)) + PAGE;

	for (uintptr_t line = first; line + LINE <= end && line < page_end;
	     line += gap)
		lines[nr++] = disguise(line);
	return nr;
}

/* The first line of page @index to take: stepping through the page, page
 * by page, so that the sample covers every set. */
static uintptr_t page_first_line(uintptr_t page, size_t index, uintptr_t lo)
{
	uintptr_t line = page + (index * LINE) % PAGE;

	return line < lo ? (lo + LINE - 1) & ~(uintptr_t)(LINE - 1) : line;
}

static void shuffle(uintptr_t *lines, size_t n, uint64_t seed)
{
	struct cp_rng rng;

	cp_rng_seed(&rng, seed);
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)cp_rng_below(&rng, i);
		uintptr_t held = lines[i - 1];

		lines[i - 1] = lines[j];
		lines[j] = held;
	}
}

int cp_sample_lines(const void *start, size_t bytes, uint64_t seed,
		    uintptr_t **out, size_t *nr)
{
	uintptr_t lo = ((uintptr_t)start + LINE - 1) & ~(uintptr_t)(LINE - 1);
	uintptr_t end = (uintptr_t)start + bytes;
	uintptr_t first_page = lo & ~(uintptr_t)(PAGE - 1);
	size_t pages, per_page, gap, capacity, n = 0;
	uintptr_t *lines;

	if (!bytes || end < (uintptr_t)start || lo + LINE > end)
		return -EINVAL;
	pages = (end - first_page + PAGE - 1) / PAGE;
	per_page = pages >= CP_SAMPLE_SPREAD_PAGES
			   ? 1
			   : (CP_SAMPLE_MIN_LINES + pages - 1) / pages;
	gap = PAGE / per_page;
	gap = gap < MIN_GAP ? MIN_GAP : gap - gap % LINE;
	capacity = pages * (PAGE / gap + 1);
	lines = malloc(capacity * sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	for (size_t p = 0; p < pages; p++) {
		uintptr_t page = first_page + p * PAGE;
		uintptr_t first = per_page == 1 ? page_first_line(page, p, lo)
						: (page < lo ? lo : page);

		if (per_page == 1) {
			if (first + LINE <= end)
				lines[n++] = disguise(first);
			continue;
		}
		n = take_page(first, end, gap, lines, n);
	}
	shuffle(lines, n, seed);
	*out = lines;
	*nr = n;
	return n ? 0 : -EINVAL;
}

void cp_sample_timed_loads(const uintptr_t *lines, size_t n, uint16_t *ticks)
{
	uint64_t sum = 0;
	__u64 dither = (uintptr_t)lines | 1;

	for (size_t i = 0; i < n; i++) {
		uint64_t before, after;

		cp_dither_wait(&dither);
		before = cp_lines_fenced_tsc();

		sum += *(const volatile uint8_t *)cp_sample_line(lines[i]);
		after = cp_lines_fenced_tsc();
		ticks[i] = cp_lines_clamp_step(after - before);
	}
	sample_sink += sum;
}

/* The loop above without the loads. */
static __attribute__((noinline)) void
untimed_steps(const uintptr_t *lines, size_t n, uint16_t *ticks)
{
	uintptr_t sum = 0;
	__u64 dither = (uintptr_t)lines | 1;

	for (size_t i = 0; i < n; i++) {
		uint64_t before, after;

		cp_dither_wait(&dither);
		before = cp_lines_fenced_tsc();

		sum += (uintptr_t)cp_sample_line(
			*(const volatile uintptr_t *)&lines[i]);
		after = cp_lines_fenced_tsc();
		ticks[i] = cp_lines_clamp_step(after - before);
	}
	sample_sink += sum;
}

void cp_sample_floor(const uintptr_t *lines, size_t n, uint16_t *scratch,
		     struct cp_timer_floor *out)
{
	untimed_steps(lines, n, scratch);
	cp_lines_floor_of(scratch, n, out);
}

double cp_sample_interruption(const uint16_t *ticks, size_t n,
			      double memory_ticks, double interruption_factor,
			      double outlier_factor)
{
	double *values = malloc(n * sizeof(*values));
	double floor = interruption_factor * memory_ticks, median;

	if (!values || !n) {
		free(values);
		return floor;
	}
	for (size_t i = 0; i < n; i++)
		values[i] = ticks[i];
	median = cp_stats_median(values, n);
	free(values);
	return fmax(floor, outlier_factor * median);
}
