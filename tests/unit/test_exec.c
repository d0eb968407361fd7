// SPDX-License-Identifier: GPL-2.0
/* exec's parts that need no eviction library: the order of cold and warm
 * runs, how a run ended and the exit status passed on, a series stopped
 * by a failed eviction, and the results it makes (the positions of the
 * runs, the cold/warm contrast). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/exec_results.h"
#include "cli/exec_runs.h"
#include "cli/exec_series.h"

static void test_both_alternate_cold_first(void **state)
{
	struct exec_series series;

	(void)state;
	assert_int_equal(exec_series_init(&series, EXEC_BOTH, 3), 0);
	assert_int_equal(exec_series_length(&series), 6);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(exec_series_kind(&series, i),
				 i % 2 ? EXEC_KIND_WARM : EXEC_KIND_COLD);
	exec_series_free(&series);
	assert_int_equal(exec_series_init(&series, EXEC_WARM, 3), 0);
	assert_int_equal(exec_series_length(&series), 3);
	assert_int_equal(exec_series_kind(&series, 2), EXEC_KIND_WARM);
	exec_series_free(&series);
}

static void test_exit_status_passed_on(void **state)
{
	struct exec_outcome exited = { .end = EXEC_EXITED, .code = 3 };
	struct exec_outcome killed = { .end = EXEC_KILLED, .code = SIGKILL };
	struct exec_outcome missing = { .end = EXEC_NOT_STARTED,
					.code = ENOENT };
	struct exec_outcome refused = { .end = EXEC_NOT_STARTED,
					.code = EACCES };
	char text[128];

	(void)state;
	assert_int_equal(exec_outcome_status(&exited), 3);
	assert_int_equal(exec_outcome_status(&killed), 128 + SIGKILL);
	assert_int_equal(exec_outcome_status(&missing), 127);
	assert_int_equal(exec_outcome_status(&refused), 126);
	exec_outcome_describe(&killed, text, sizeof(text));
	assert_string_equal(text, "was killed by signal 9 (SIGKILL)");
	exec_outcome_describe(&exited, text, sizeof(text));
	assert_string_equal(text, "exited with status 3");
}

static void test_run_once_tells_how_it_ended(void **state)
{
	char *exits[] = { "sh", "-c", "exit 5", NULL };
	char *killed[] = { "sh", "-c", "kill -TERM $$", NULL };
	char *missing[] = { "/nonexistent/command", NULL };
	struct exec_timing timing;
	struct exec_outcome outcome;

	(void)state;
	assert_int_equal(exec_run_once(exits, false, &timing, &outcome), 0);
	assert_int_equal(outcome.end, EXEC_EXITED);
	assert_int_equal(outcome.code, 5);
	assert_true(timing.wall_ns > 0);
	assert_int_equal(exec_run_once(killed, false, &timing, &outcome), 0);
	assert_int_equal(outcome.end, EXEC_KILLED);
	assert_int_equal(outcome.code, SIGTERM);
	assert_int_equal(exec_run_once(missing, false, &timing, &outcome), 0);
	assert_int_equal(outcome.end, EXEC_NOT_STARTED);
	assert_int_equal(outcome.code, ENOENT);
}

/* Succeeds once, then fails as a library would. */
static int evict_once(void *context, char *why, size_t why_len)
{
	int *calls = context;

	if ((*calls)++ == 0)
		return 0;
	snprintf(why, why_len, "eviction failed: planted");
	return -EIO;
}

static void test_failed_eviction_stops(void **state)
{
	char *command[] = { "true", NULL };
	struct exec_series series;
	int calls = 0;

	(void)state;
	assert_int_equal(exec_series_init(&series, EXEC_BOTH, 3), 0);
	series.argv = command;
	series.evict = evict_once;
	series.evict_context = &calls;
	exec_series_run(&series);
	/* cold, warm, then the second eviction fails before run 3. */
	assert_int_equal(series.stop, EXEC_STOP_EVICT);
	assert_int_equal(series.stopped_at, 3);
	assert_int_equal(series.samples[EXEC_KIND_COLD].nr, 1);
	assert_int_equal(series.samples[EXEC_KIND_WARM].nr, 1);
	assert_string_equal(series.why, "eviction failed: planted");
	exec_series_free(&series);
}

/* Three cold runs of twice the warm ones' time, as the series leaves
 * them. */
static void fill_both(struct exec_series *series)
{
	static const double warm[] = { 1e6, 1.1e6, 0.9e6 };

	assert_int_equal(exec_series_init(series, EXEC_BOTH, 3), 0);
	for (size_t i = 0; i < 3; i++) {
		struct exec_samples *c = &series->samples[EXEC_KIND_COLD];
		struct exec_samples *w = &series->samples[EXEC_KIND_WARM];

		c->wall_ns[i] = 2 * warm[i];
		c->user_ns[i] = c->sys_ns[i] = 0;
		c->evict_ns[i] = 5e6;
		w->wall_ns[i] = warm[i];
		w->user_ns[i] = w->sys_ns[i] = 0;
	}
	series->samples[EXEC_KIND_COLD].nr = 3;
	series->samples[EXEC_KIND_WARM].nr = 3;
}

static void test_results_record_order_and_contrast(void **state)
{
	const struct exec_eviction eviction = {
		.method = 3, .name = "garbage", .reason = "no module",
		.garbage_bytes = 4096,
	};
	struct exec_series series;
	struct exec_contrast contrast;
	struct cp_results results;
	const struct cp_measurement *cold, *warm, *evict;

	(void)state;
	fill_both(&series);
	assert_int_equal(exec_contrast_compute(&series, &contrast), 0);
	assert_true(contrast.valid);
	assert_true(contrast.ratio.estimate > 1.9 &&
		    contrast.ratio.estimate < 2.1);
	cp_results_init(&results);
	assert_int_equal(exec_results_add(&results, &series, "bench",
					  &eviction, &contrast, 2e9, ""), 0);
	assert_int_equal(results.nr_measurements, 7);
	cold = cp_results_find(&results, EXEC_AREA, "cold wall");
	warm = cp_results_find(&results, EXEC_AREA, "warm wall");
	evict = cp_results_find(&results, EXEC_AREA, "evict");
	assert_non_null(cold);
	assert_non_null(warm);
	assert_non_null(evict);
	assert_int_equal(cp_measurement_param(cold, "run_first", 0), 1);
	assert_int_equal(cp_measurement_param(cold, "run_step", 0), 2);
	assert_int_equal(cp_measurement_param(warm, "run_first", 0), 2);
	assert_int_equal(cp_measurement_param(cold, "cold_warm_milli", 0),
			 llround(contrast.ratio.estimate * 1000));
	assert_true(cp_measurement_param(cold, "mann_whitney_p_millionths",
					 -1) >= 0);
	assert_int_equal(cp_measurement_param(evict, "garbage_bytes", 0),
			 4096);
	assert_string_equal(evict->warnings[0], "garbage: no module");
	/* ticks at 2 GHz: twice the ns. */
	assert_true(cold->ticks[0] == 2 * cold->ns[0]);
	assert_string_equal(cold->note, "bench");
	assert_false(results.interrupted);
	cp_results_free(&results);
	exec_series_free(&series);
}

static void test_command_text_is_cut(void **state)
{
	char *argv[] = { "sh", "-c", "a long command line", NULL };
	char text[12];

	(void)state;
	exec_command_text(argv, text, sizeof(text));
	assert_string_equal(text, "sh -c a ...");
	exec_command_text(argv, text, 4);
	assert_string_equal(text, "sh ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_alternate_cold_first),
		cmocka_unit_test(test_exit_status_passed_on),
		cmocka_unit_test(test_run_once_tells_how_it_ended),
		cmocka_unit_test(test_failed_eviction_stops),
		cmocka_unit_test(test_results_record_order_and_contrast),
		cmocka_unit_test(test_command_text_is_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
