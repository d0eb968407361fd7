// SPDX-License-Identifier: GPL-2.0
/* The coldcache line classifier on crafted latency arrays, the merging of
 * levels the timer cannot separate, the verdicts, and the area's
 * command-line choices. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "areas/coldcache/coldcache.h"
#include "areas/coldcache/coldcache_choices.h"
#include "evict/coldcache_lines.h"
#include "results_fixture.h"

/* L1d, L2, L3 and memory at @plateaus (ticks after the floor), with
 * their thresholds. */
static struct cp_line_levels levels_at(const double *plateaus)
{
	struct cp_line_levels levels = { .nr = 4 };
	static const char *const names[] = { "L1d", "L2", "L3", "memory" };

	for (size_t k = 0; k < 4; k++) {
		strcpy(levels.names[k], names[k]);
		levels.plateau_ticks[k] = plateaus[k];
	}
	cp_line_levels_thresholds(&levels);
	return levels;
}

/* Plateaus as measured here: L1d within the floor, L2 12 ticks, L3 74,
 * memory 260 (ticks after the floor). */
static struct cp_line_levels four_levels(void)
{
	static const double plateaus[] = { 0, 12, 74, 260 };

	return levels_at(plateaus);
}

/* A coarse timer's, as on an AMD EPYC guest (steps of 26 ticks). */
static const double coarse_plateaus[] = { 0, 26, 52, 364 };

/* The wait before each timed load (measure/dither.h, shared with the
 * module): every length from 0 to CP_DITHER_SPINS - 1 drawn, about
 * equally often, the same sequence from the same state and another from
 * another, and the state never 0 (xorshift would stay there). */
static void test_dither_waits_at_random(void **state)
{
	unsigned int seen[CP_DITHER_SPINS] = { 0 };
	__u64 first = 1, again = 1, other = 2;
	double sum = 0;
	bool differ = false;

	(void)state;
	for (int i = 0; i < 10000; i++) {
		__u32 spins = cp_dither_wait(&first);

		assert_true(spins < CP_DITHER_SPINS);
		assert_true(first != 0);
		seen[spins]++;
		sum += spins;
		assert_int_equal(cp_dither_wait(&again), spins);
		differ |= cp_dither_wait(&other) != spins;
	}
	for (unsigned int k = 0; k < CP_DITHER_SPINS; k++)
		assert_true(seen[k] > 0);
	assert_true(sum / 10000 > 58 && sum / 10000 < 69);
	assert_true(differ);
}

/* A plateau is the median step less the floor, never below 0; a pass is
 * kept when its median is the lowest offered, with its lines' latencies
 * (floor subtracted, at least 0). */
static void test_pass_offer_keeps_the_quickest(void **state)
{
	const uint16_t steps[] = { 50, 52, 60, 51, 49 };
	const uint16_t slower[] = { 70, 71, 72 };
	const uint16_t fast[] = { 40, 41, 42 };
	struct cp_line_pass pass;

	(void)state;
	cp_line_pass_init(&pass);
	assert_true(pass.median == -1);
	assert_int_equal(cp_line_pass_offer(&pass, steps, 5, 50), 0);
	assert_true(pass.median == 1);
	assert_int_equal(pass.nr, 5);
	assert_true(pass.latencies[2] == 10 && pass.latencies[4] == 0);
	assert_int_equal(cp_line_pass_offer(&pass, slower, 3, 50), 0);
	assert_true(pass.median == 1);
	assert_int_equal(pass.nr, 5);
	assert_int_equal(cp_line_pass_offer(&pass, fast, 3, 50), 0);
	assert_true(pass.median == 0);
	assert_int_equal(pass.nr, 3);
	cp_line_pass_free(&pass);
	assert_null(pass.latencies);
	assert_true(pass.median == -1);
}

/* A pass of @n lines, @share of them at @latency and the rest at
 * @other. */
static struct cp_line_pass crafted_pass(size_t n, double latency,
					double share, double other)
{
	struct cp_line_pass pass = {
		.median = latency,
		.latencies = malloc(n * sizeof(double)),
		.nr = n,
	};

	assert_non_null(pass.latencies);
	for (size_t i = 0; i < n; i++)
		pass.latencies[i] = (double)i < share * (double)n ? latency
								 : other;
	return pass;
}

/* A coarse timer as on an AMD EPYC guest (steps of 26 ticks, dithered):
 * L1d at the floor, L2 read 26 or 52 ticks, L3 52 or 78, memory 364.
 * The plateaus lie apart, but an L2 line reads as L3 nearly half the
 * time: L2 is merged into L3, towards where its misreads went, and L1d
 * stays.  The shares say how each level's own set read. */
static void test_merge_misread_coarse_timer(void **state)
{
	struct cp_line_levels levels = levels_at(coarse_plateaus);
	struct cp_line_pass passes[4];

	(void)state;
	passes[0] = crafted_pass(100, 0, 0.97, 26);
	passes[1] = crafted_pass(100, 26, 0.57, 52);
	passes[2] = crafted_pass(100, 52, 0.55, 78);
	passes[3] = crafted_pass(100, 364, 1, 364);
	assert_int_equal(cp_line_levels_merge_misread(&levels, passes), 1);
	assert_false(levels.merged[0]);
	assert_true(levels.merged[1] && levels.merged_on_lines[1]);
	assert_false(levels.merged[2]);
	assert_float_equal(levels.own_share[0], 0.97, 1e-9);
	assert_float_equal(levels.own_share[1], 0.57, 1e-9);
	assert_float_equal(levels.own_share[2], 1, 1e-9);
	assert_float_equal(levels.own_share[3], 1, 1e-9);
	/* An L2 set read mostly as L1d merges L1d into L2 instead; a level
	 * without a pass is not judged. */
	memset(levels.merged, 0, sizeof(levels.merged));
	memset(levels.merged_on_lines, 0, sizeof(levels.merged_on_lines));
	free(passes[1].latencies);
	passes[1] = crafted_pass(100, 26, 0.6, 0);
	free(passes[2].latencies);
	passes[2] = (struct cp_line_pass){ .median = -1 };
	assert_int_equal(cp_line_levels_merge_misread(&levels, passes), 1);
	assert_true(levels.merged[0]);
	assert_false(levels.merged[1]);
	assert_true(levels.own_share[2] == -1);
	/* Every level read two levels away: the caches merge into one
	 * group; memory's is never joined, whatever its set or the others'
	 * read (L2's lines read as memory left L2: not a misread). */
	memset(levels.merged, 0, sizeof(levels.merged));
	memset(levels.merged_on_lines, 0, sizeof(levels.merged_on_lines));
	for (size_t k = 0; k < 4; k++) {
		free(passes[k].latencies);
		passes[k] = crafted_pass(100, coarse_plateaus[k], 0.25,
					 coarse_plateaus[(k + 2) % 4]);
	}
	assert_int_equal(cp_line_levels_merge_misread(&levels, passes), 2);
	assert_true(levels.merged[0] && levels.merged_on_lines[0]);
	assert_true(levels.merged[1] && levels.merged_on_lines[1]);
	assert_false(levels.merged[2]);
	for (size_t k = 0; k < 4; k++)
		free(passes[k].latencies);
}

/* An L3 set partly gone to memory (a guest's share of a shared L3) and
 * an L2 set partly read as L3: L2 joins L3, and L3 stays out of memory,
 * so that lines an eviction left in L2 or L3 still count as cached. */
static void test_merge_misread_keeps_memory_apart(void **state)
{
	struct cp_line_levels levels = levels_at(coarse_plateaus);
	struct cp_line_pass passes[4];

	(void)state;
	passes[0] = crafted_pass(100, 0, 1, 0);
	passes[1] = crafted_pass(100, 26, 0.75, 52);
	passes[2] = crafted_pass(100, 52, 0.6, 364);
	passes[3] = crafted_pass(100, 364, 0.7, 52);
	assert_int_equal(cp_line_levels_merge_misread(&levels, passes), 1);
	assert_false(levels.merged[0]);
	assert_true(levels.merged[1]);
	assert_false(levels.merged[2]);
	assert_float_equal(levels.own_share[2], 0.6, 1e-9);
	for (size_t k = 0; k < 4; k++)
		free(passes[k].latencies);
}

/* A fine timer's passes, each read at least 80 % in its own level: no
 * merge. */
static void test_no_merge_when_read_apart(void **state)
{
	struct cp_line_levels levels = four_levels();
	struct cp_line_pass passes[4];

	(void)state;
	passes[0] = crafted_pass(50, 0, 0.9, 12);
	passes[1] = crafted_pass(50, 12, 0.8, 74);
	passes[2] = crafted_pass(50, 74, 0.95, 260);
	passes[3] = crafted_pass(50, 260, 1, 260);
	assert_int_equal(cp_line_levels_merge_misread(&levels, passes), 0);
	for (size_t k = 0; k < 4; k++) {
		assert_false(levels.merged[k]);
		free(passes[k].latencies);
	}
	assert_float_equal(levels.own_share[1], 0.8, 1e-9);
}

static void test_thresholds_are_geometric_means(void **state)
{
	struct cp_line_levels levels = four_levels();

	(void)state;
	/* sqrt(1 * 12), sqrt(12 * 74), sqrt(74 * 260); none for memory. */
	assert_float_equal(levels.threshold_ticks[0], 3.4641, 1e-3);
	assert_float_equal(levels.threshold_ticks[1], 29.7993, 1e-3);
	assert_float_equal(levels.threshold_ticks[2], 138.7083, 1e-3);
	assert_float_equal(levels.threshold_ticks[3], 0, 0);
}

/* Raw steps = floor (50) + latency: 2 L1d, 3 L2, 1 L3, 4 memory lines,
 * with values on both sides of each threshold. */
static void test_classify_crafted_steps(void **state)
{
	struct cp_line_levels levels = four_levels();
	const uint16_t steps[] = {
		50, 53,			/* 0 and 3 ticks: L1d */
		54, 62, 79,		/* 4, 12, 29: L2 */
		188,			/* 138: L3 */
		189, 300, 500, 40,	/* 139, 250, 450: memory; 40 is
					 * below the floor: latency 0, L1d */
	};
	size_t counts[4];
	double total;

	(void)state;
	total = cp_lines_classify(steps, 10, 50, &levels, counts);
	assert_int_equal(counts[0], 3);
	assert_int_equal(counts[1], 3);
	assert_int_equal(counts[2], 1);
	assert_int_equal(counts[3], 3);
	/* Latencies summed, the negative one as 0. */
	assert_float_equal(total, 0 + 3 + 4 + 12 + 29 + 138 + 139 + 250 + 450,
			   1e-9);
}

/* A saturated step (a preemption during the load) is memory. */
static void test_saturated_step_is_last_level(void **state)
{
	struct cp_line_levels levels = four_levels();
	const uint16_t steps[] = { CP_LINE_TICKS_MAX };
	size_t counts[4];

	(void)state;
	cp_lines_classify(steps, 1, 50, &levels, counts);
	assert_int_equal(counts[3], 1);
}

/* A spread of 8 ticks cannot separate L1d (0) from L2 (12): merged, and
 * their lines count with L2; L3 and memory stay apart. */
static void test_merge_by_timer_spread(void **state)
{
	struct cp_line_levels levels = four_levels();
	const uint16_t steps[] = { 50, 53, 62, 150, 400 };
	size_t counts[4];
	char name[32];

	(void)state;
	assert_int_equal(cp_line_levels_merge(&levels, 8), 1);
	assert_true(levels.merged[0]);
	assert_false(levels.merged[1]);
	assert_false(levels.merged[2]);
	cp_lines_classify(steps, 5, 50, &levels, counts);
	assert_int_equal(counts[0], 0);
	assert_int_equal(counts[1], 3);
	assert_int_equal(counts[2], 1);
	assert_int_equal(counts[3], 1);
	cp_line_levels_group_name(&levels, 1, name, sizeof(name));
	assert_string_equal(name, "L1d+L2");
	cp_line_levels_group_name(&levels, 2, name, sizeof(name));
	assert_string_equal(name, "L3");
}

/* A tight timer keeps every level; an L3 plateau hardly slower than L2
 * (none of its own) merges it into memory's neighbour rule. */
static void test_merge_by_step(void **state)
{
	struct cp_line_levels levels = four_levels();

	(void)state;
	assert_int_equal(cp_line_levels_merge(&levels, 2), 0);
	levels = four_levels();
	levels.plateau_ticks[2] = 230;	/* "L3" served like memory */
	cp_line_levels_thresholds(&levels);
	assert_int_equal(cp_line_levels_merge(&levels, 2), 1);
	assert_true(levels.merged[2]);
}

/* L3 served like memory is merged into it; L2, three times faster than
 * memory, keeps its own group instead of following L3 there. */
static void test_merge_outermost_first(void **state)
{
	struct cp_line_levels levels = four_levels();
	char name[32];

	(void)state;
	levels.plateau_ticks[1] = 126;
	levels.plateau_ticks[2] = 168;
	levels.plateau_ticks[3] = 240;
	cp_line_levels_thresholds(&levels);
	assert_int_equal(cp_line_levels_merge(&levels, 2), 1);
	assert_false(levels.merged[1]);
	assert_true(levels.merged[2]);
	cp_line_levels_group_name(&levels, 1, name, sizeof(name));
	assert_string_equal(name, "L2");
	cp_line_levels_group_name(&levels, 3, name, sizeof(name));
	assert_string_equal(name, "L3+memory");
}

static void test_verdicts(void **state)
{
	const struct cold_references none = { -1, -1, -1 };
	const struct cold_references warm_kept = { 1000000, -1, -1 };
	const struct cold_references with_flush = { 1000000, 300000, 420000 };
	const struct cold_references warm_lost = { 200000, -1, -1 };

	(void)state;
	assert_int_equal(cold_judge(CP_COLD_WARM, 1000000, 1000000, &none),
			 COLD_VERDICT_REFERENCE);
	/* 1 % in the worst repetition is still evicted; 1.01 % is not. */
	assert_int_equal(cold_judge(CP_COLD_CLFLUSH, 0, 10000, &none),
			 COLD_VERDICT_EVICTED);
	assert_int_equal(cold_judge(CP_COLD_CLFLUSH, 0, 10100, &none),
			 COLD_VERDICT_PARTLY);
	/* Close to warm: did not evict (WBINVD skipped by a hypervisor). */
	assert_int_equal(cold_judge(CP_COLD_WBINVD, 950000, 1000000,
				    &warm_kept),
			 COLD_VERDICT_DID_NOT_EVICT);
	assert_int_equal(cold_judge(CP_COLD_WBINVD, 850000, 1000000,
				    &warm_kept),
			 COLD_VERDICT_PARTLY);
	/* Warm kept little itself: nothing to compare with. */
	assert_int_equal(cold_judge(CP_COLD_GARBAGE_NAIVE, 200000, 250000,
				    &warm_lost),
			 COLD_VERDICT_PARTLY);
	/* Within a point of clflush's prefetch floor. */
	assert_int_equal(cold_judge(CP_COLD_GARBAGE_PLANNED, 305000, 425000,
				    &with_flush),
			 COLD_VERDICT_AS_COLD_AS_CLFLUSH);
	assert_int_equal(cold_judge(CP_COLD_GARBAGE_PLANNED, 305000, 450000,
				    &with_flush),
			 COLD_VERDICT_PARTLY);
}

/* Kernel mode judges from first-pass costs (ns per access). */
static void test_cost_verdicts(void **state)
{
	(void)state;
	/* WBINVD skipped by a hypervisor: as fast as warm. */
	assert_int_equal(cold_judge_cost(6, 5, 120), COLD_VERDICT_DID_NOT_EVICT);
	assert_int_equal(cold_judge_cost(115, 5, 120),
			 COLD_VERDICT_AS_COLD_AS_CLFLUSH);
	assert_int_equal(cold_judge_cost(60, 5, 120), COLD_VERDICT_PARTLY);
	/* No references: nothing to conclude but "partly". */
	assert_int_equal(cold_judge_cost(60, 0, 0), COLD_VERDICT_PARTLY);
}

/* Only the lines before an interruption are classified. */
static void test_cut_at_interruption(void **state)
{
	const uint16_t steps[] = { 300, 52, 4500, 60, 52 };
	const uint16_t quiet[] = { 300, 52, 60 };

	(void)state;
	assert_int_equal(cp_lines_before_interruption(steps, 5, 4000), 2);
	assert_int_equal(cp_lines_before_interruption(quiet, 3, 4000), 3);
	/* A step equal to the threshold is not an interruption. */
	assert_int_equal(cp_lines_before_interruption(steps, 5, 4500), 5);
	assert_int_equal(cp_lines_before_interruption(steps, 0, 4000), 0);
}

static void test_methods_option(void **state)
{
	unsigned int methods;
	char why[256];

	(void)state;
	assert_int_equal(cp_coldcache_parse_methods(
				 "wbinvd,garbage-planned,garbage-naive",
				 &methods, why, sizeof(why)), 0);
	assert_int_equal(methods, (1u << CP_COLD_WBINVD) |
					  (1u << CP_COLD_GARBAGE_PLANNED) |
					  (1u << CP_COLD_GARBAGE_NAIVE));
	assert_int_equal(cp_coldcache_parse_methods("warm,frob", &methods, why,
						    sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "unknown method 'frob'"));
	assert_int_equal(cp_coldcache_parse_methods("warm,,clflush", &methods,
						    why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "unknown method ''"));
	assert_int_equal(cp_coldcache_parse_methods("clflush,clflush",
						    &methods, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "named twice"));
}

static void test_factor_option(void **state)
{
	double factor = 0;
	char why[256];

	(void)state;
	assert_int_equal(cp_coldcache_parse_factor("0.25", &factor, why,
						   sizeof(why)), 0);
	assert_float_equal(factor, 0.25, 0);
	assert_int_equal(cp_coldcache_parse_factor("0", &factor, why,
						   sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "out of range"));
	assert_int_equal(cp_coldcache_parse_factor("65", &factor, why,
						   sizeof(why)), -EINVAL);
	assert_int_equal(cp_coldcache_parse_factor("2x", &factor, why,
						   sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "not a number"));
	assert_int_equal(cp_coldcache_parse_factor("nan", &factor, why,
						   sizeof(why)), -EINVAL);
}

/* A rotation's working sets: one per entry, apart, each spread one line
 * per 4 KiB (+ a line), each with its own order; and a size that cannot
 * be built leaves nothing behind and says so. */
static void test_working_sets_apart(void **state)
{
	const uint64_t size = 64 * 1024;
	struct cold_entry entries[3] = {
		{ .size = size }, { .size = size }, { .size = size },
	};
	struct cp_chase *sets = NULL;
	struct cp_error error = { 0 };
	size_t first[1024], second[1024];

	(void)state;
	assert_int_equal(cold_build_working_sets(entries, 3, 7, CP_PAGES_2M,
						 &sets, &error), 0);
	for (size_t i = 0; i < 3; i++) {
		const char *start = sets[i].buffer;
		size_t span = sets[i].nr_lines * sets[i].line_size;

		assert_int_equal(sets[i].nr_lines, size / COLD_LINE_SIZE);
		assert_int_equal(sets[i].line_size, COLD_SPREAD_STRIDE);
		for (size_t j = 0; j < i; j++) {
			const char *other = sets[j].buffer;

			assert_true(start + span <= other ||
				    other + span <= start);
		}
	}
	cp_chase_successors(&sets[0], first);
	cp_chase_successors(&sets[1], second);
	assert_memory_not_equal(first, second, sizeof(first));
	cold_free_working_sets(sets, 3);

	sets = NULL;
	entries[0].size = entries[1].size = 64;
	assert_int_equal(cold_build_working_sets(entries, 2, 7, CP_PAGES_2M,
						 &sets, &error),
			 -EINVAL);
	assert_null(sets);
	assert_non_null(strstr(error.msg, "cannot build a 64-byte working set"));
}

/* An entry a Ctrl-C left without a repetition records nothing (and is no
 * error), so the rotation's other entries are still recorded. */
static void test_record_nothing_measured(void **state)
{
	struct cp_results results;
	struct cp_area_context context = { .results = &results };
	struct cold_run run = { .context = &context, .repetitions = 20 };
	struct cold_outcome empty = { 0 };

	(void)state;
	fixture_results(&results);
	assert_int_equal(cold_record(&run, "garbage-planned x4",
				     CP_COLD_GARBAGE_PLANNED, 0, 1 << 20,
				     &empty), 0);
	assert_int_equal(results.nr_measurements, 0);
	cp_results_free(&results);
}

/* The note of the last call, or "" when it left none. */
static const char *last_note(const struct cp_results *results,
			     size_t before)
{
	return results->nr_area_notes > before
		       ? results->area_notes[results->nr_area_notes - 1].text
		       : "";
}

/* Kernel mode classifies lines only with a module that warms CHASE's
 * buffer (ABI 6) on a CPU with CLFLUSH, and only for warm or wbinvd:
 * otherwise no request is made, the first passes keep their whole-pass
 * figures, and a note says why (none when neither method runs). */
static void test_kernel_lines_refused_with_a_reason(void **state)
{
	struct cp_results results;
	const struct cp_area_options options = { .seed = 1 };
	struct cp_area_context context = { .results = &results,
					   .options = &options };
	struct cp_coldcache_choices choices = { 0 };
	struct cold_run run = { .context = &context, .choices = &choices,
				.kernel_abi = 5, .kernel_clflush = true,
				.kernel_lines = true };
	struct cp_error error = { 0 };
	size_t before;

	(void)state;
	fixture_results(&results);
	before = results.nr_area_notes;
	assert_int_equal(cold_kernel_lines_calibrate(&run, &error), 0);
	assert_false(run.kernel_lines);
	assert_non_null(strstr(last_note(&results, before),
			       "the module (ABI 5) cannot warm"));
	run.kernel_abi = 6;
	run.kernel_clflush = false;
	before = results.nr_area_notes;
	assert_int_equal(cold_kernel_lines_calibrate(&run, &error), 0);
	assert_false(run.kernel_lines);
	assert_non_null(strstr(last_note(&results, before),
			       "needs CLFLUSH, which this CPU lacks"));
	choices.methods = 1u << CP_COLD_CLFLUSH;
	run.kernel_abi = 5;
	before = results.nr_area_notes;
	assert_int_equal(cold_kernel_lines_calibrate(&run, &error), 0);
	assert_false(run.kernel_lines);
	assert_int_equal(results.nr_area_notes, before);
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dither_waits_at_random),
		cmocka_unit_test(test_pass_offer_keeps_the_quickest),
		cmocka_unit_test(test_merge_misread_coarse_timer),
		cmocka_unit_test(test_merge_misread_keeps_memory_apart),
		cmocka_unit_test(test_no_merge_when_read_apart),
		cmocka_unit_test(test_thresholds_are_geometric_means),
		cmocka_unit_test(test_classify_crafted_steps),
		cmocka_unit_test(test_saturated_step_is_last_level),
		cmocka_unit_test(test_merge_by_timer_spread),
		cmocka_unit_test(test_merge_by_step),
		cmocka_unit_test(test_merge_outermost_first),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_cost_verdicts),
		cmocka_unit_test(test_cut_at_interruption),
		cmocka_unit_test(test_methods_option),
		cmocka_unit_test(test_factor_option),
		cmocka_unit_test(test_working_sets_apart),
		cmocka_unit_test(test_record_nothing_measured),
		cmocka_unit_test(test_kernel_lines_refused_with_a_reason),
	};

	return cmocka_run_group_tests_name("coldcache_lines", tests, NULL, NULL);
}
