// SPDX-License-Identifier: GPL-2.0
/*
 * The align loops on this machine's caches: a dependent chain of 8-byte
 * loads that straddle a cache line is slower than the same chain aligned.
 * Every x86 core of the last two decades pays at least a cycle for a
 * split load on top of a 4- to 5-cycle L1 hit (here about 8 cycles), so
 * 5 % is a margin no such core misses; medians of many interleaved
 * samples and a few attempts keep a loaded machine from deciding.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "areas/align/align_layout.h"
#include "areas/align/align_run.h"
#include "harness/clock.h"
#include "stats/stats.h"

#define SAMPLES 41
#define ITERATIONS 2000		/* 32000 hops per sample */
#define ATTEMPTS 5
#define MIN_PENALTY 1.05

static double time_sample(struct cp_align_run *run)
{
	uint64_t start = cp_clock_start();

	cp_align_run_body(run, ITERATIONS);
	return (double)(cp_clock_stop() - start);
}

/* Median ticks of aligned and split chains, samples interleaved so that
 * a disturbance hits both alike. */
static void measure(struct cp_align_run *aligned, struct cp_align_run *split,
		    double *aligned_ticks, double *split_ticks)
{
	double a[SAMPLES], s[SAMPLES];

	for (int i = 0; i < SAMPLES; i++) {
		a[i] = time_sample(aligned);
		s[i] = time_sample(split);
	}
	*aligned_ticks = cp_stats_median(a, SAMPLES);
	*split_ticks = cp_stats_median(s, SAMPLES);
}

static void test_split_load_latency_is_higher(void **state)
{
	struct cp_align_access access = {
		.kind = CP_ALIGN_LOAD_LATENCY, .width = 8, .offset = 0,
		.stride = 256, .size = 16384, .seed = 3,
	};
	struct cp_align_run aligned, split;
	double a = 0, s = 0;
	int attempt;

	(void)state;
	assert_int_equal(cp_align_run_build(&aligned, &access), 0);
	access.offset = cp_align_line_split_offset(64, 8);
	assert_int_equal(cp_align_run_build(&split, &access), 0);
	time_sample(&aligned);	/* warm both chains */
	time_sample(&split);
	for (attempt = 1; attempt <= ATTEMPTS; attempt++) {
		measure(&aligned, &split, &a, &s);
		if (s > a * MIN_PENALTY)
			break;
	}
	printf("# split 8-byte load latency: %.0f ticks against %.0f aligned per %d hops (x%.2f, attempt %d)\n",
	       s, a, ITERATIONS * 16, s / a, attempt);
	assert_true(cp_align_run_verify(&aligned));
	assert_true(cp_align_run_verify(&split));
	assert_true(s > a * MIN_PENALTY);
	cp_align_run_free(&aligned);
	cp_align_run_free(&split);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_load_latency_is_higher),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
