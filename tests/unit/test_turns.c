// SPDX-License-Identifier: GPL-2.0
/*
 * Work that takes turns (harness/turns.h) and the run's areas taking
 * turns (cli/run_turns.h): who runs when, that one runs at a time, and
 * that each area's results join the run's in the areas' order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/run_turns.h"
#include "harness/interrupt.h"
#include "harness/turns.h"

#define MAX_STEPS 64

/* What the parts did, in the order they did it. */
struct log {
	unsigned int steps_of[4];	/* each part's steps */
	size_t part[MAX_STEPS];
	unsigned int step[MAX_STEPS];
	size_t n;
	atomic_int running;		/* parts inside a step at once */
	bool overlapped;
	size_t started[MAX_STEPS];	/* the start hook, in order */
	size_t nr_started;
	pthread_t caller;
	bool in_caller;
};

static void note_step(struct log *log, size_t part, unsigned int step)
{
	if (atomic_fetch_add(&log->running, 1))
		log->overlapped = true;
	log->part[log->n] = part;
	log->step[log->n] = step;
	log->n++;
	atomic_fetch_sub(&log->running, 1);
}

static void part_work(size_t index, void *data)
{
	struct log *log = data;

	if (pthread_equal(pthread_self(), log->caller))
		log->in_caller = true;
	for (unsigned int s = 0; s < log->steps_of[index]; s++) {
		if (s)
			cp_turn_pass();
		note_step(log, index, s);
	}
}

static void part_started(size_t index, void *data)
{
	struct log *log = data;

	log->started[log->nr_started++] = index;
}

static void assert_log(const struct log *log, const size_t *parts,
		       const unsigned int *steps, size_t n)
{
	assert_int_equal(log->n, n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(log->part[i], parts[i]);
		assert_int_equal(log->step[i], steps[i]);
	}
	assert_false(log->overlapped);
}

static void run_parts(struct log *log, size_t n)
{
	log->caller = pthread_self();
	cp_turns_run(n, part_work, part_started, log);
}

/* Round after round, each part still running one step, in index order. */
static void test_parts_alternate(void **state)
{
	struct log log = { .steps_of = { 3, 3, 3 } };
	const size_t parts[] = { 0, 1, 2, 0, 1, 2, 0, 1, 2 };
	const unsigned int steps[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 };

	(void)state;
	run_parts(&log, 3);
	assert_log(&log, parts, steps, 9);
	assert_false(log.in_caller);
	/* The hook at every turn: the first three and each pass. */
	assert_int_equal(log.nr_started, 9);
	for (size_t i = 0; i < 9; i++)
		assert_int_equal(log.started[i], parts[i]);
}

/* A part that is done leaves the turn to the others; one that never
 * passes runs whole in its turn. */
static void test_finished_parts_left_out(void **state)
{
	struct log log = { .steps_of = { 1, 4, 2 } };
	const size_t parts[] = { 0, 1, 2, 1, 2, 1, 1 };
	const unsigned int steps[] = { 0, 0, 0, 1, 1, 2, 3 };

	(void)state;
	run_parts(&log, 3);
	assert_log(&log, parts, steps, 7);
}

/* One part: in the calling thread, passing is a no-op; and outside any
 * turns it returns at once. */
static void test_one_part_in_caller(void **state)
{
	struct log log = { .steps_of = { 3 } };

	(void)state;
	cp_turn_pass();
	run_parts(&log, 1);
	assert_int_equal(log.n, 3);
	assert_true(log.in_caller);
	assert_int_equal(log.nr_started, 1);
	run_parts(&log, 0);
	assert_int_equal(log.n, 3);
}

/* An area that measures two things with a pass between them, noting
 * which area measured before it. */
static const char *last_area;

static int add_named(struct cp_results *results, const char *area,
		     const char *name)
{
	struct cp_measurement *m = cp_results_add(results);

	if (!m)
		return -ENOMEM;
	snprintf(m->area, sizeof(m->area), "%s", area);
	snprintf(m->name, sizeof(m->name), "%s", name);
	return 0;
}

static int area_run(const char *area, struct cp_area_context *context,
		    struct cp_error *error)
{
	char name[64];

	(void)error;
	snprintf(name, sizeof(name), "first after %s",
		 last_area ? last_area : "none");
	last_area = area;
	if (add_named(context->results, area, name))
		return -ENOMEM;
	cp_results_note(context->results, area, "note of %s", area);
	cp_turn_pass();
	snprintf(name, sizeof(name), "second after %s", last_area);
	last_area = area;
	return add_named(context->results, area, name);
}

static int run_alpha(struct cp_area_context *context, struct cp_error *error)
{
	context->results->nr_levels = 1;
	snprintf(context->results->levels[0].name,
		 sizeof(context->results->levels[0].name), "L1d");
	return area_run("alpha", context, error);
}

static int run_beta(struct cp_area_context *context, struct cp_error *error)
{
	int ret = area_run("beta", context, error);

	cp_error_set(error, EIO, "beta: failed");
	return ret ? ret : -EIO;
}

static const struct cp_area alpha = { .name = "alpha", .run = run_alpha };
static const struct cp_area beta = { .name = "beta", .run = run_beta };

static void test_areas_merge_in_order(void **state)
{
	struct run_turn turns[2] = { { .area = &alpha }, { .area = &beta } };
	struct cp_results run;
	struct cli_progress progress;
	struct cp_area_context context = { .results = &run };
	const char *expect[][2] = {
		{ "alpha", "first after none" },
		{ "alpha", "second after beta" },
		{ "beta", "first after alpha" },
		{ "beta", "second after alpha" },
	};

	(void)state;
	last_area = NULL;
	cp_results_init(&run);
	run.samples_requested = 15;
	cli_progress_init(&progress, true);
	run_turns(turns, 2, &context, &progress);
	assert_int_equal(turns[0].ret, 0);
	assert_int_equal(turns[1].ret, -EIO);
	assert_false(turns[1].stopped);
	assert_string_equal(turns[1].error.msg, "beta: failed");
	/* Each area's own results started from the run's header. */
	assert_int_equal(turns[0].results.samples_requested, 15);
	assert_int_equal(turns[0].results.nr_measurements, 2);
	for (size_t i = 0; i < 2; i++)
		assert_int_equal(run_turn_merge(&run, &turns[i]), 0);
	assert_int_equal(turns[0].results.nr_measurements, 0);
	assert_int_equal(run.nr_measurements, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(run.measurements[i].area, expect[i][0]);
		assert_string_equal(run.measurements[i].name, expect[i][1]);
	}
	assert_int_equal(run.nr_area_notes, 2);
	assert_string_equal(run.area_notes[1].text, "note of beta");
	assert_int_equal(run.nr_levels, 1);
	assert_string_equal(run.levels[0].name, "L1d");
	cp_results_free(&run);
}

/* Stopped before an area began: it does not begin. */
static void test_interrupt_before_an_area(void **state)
{
	struct run_turn turns[1] = { { .area = &alpha } };
	struct cp_results run;
	struct cli_progress progress;
	struct cp_area_context context = { .results = &run };

	(void)state;
	cp_results_init(&run);
	cli_progress_init(&progress, true);
	cp_interrupt_request(2);
	run_turns(turns, 1, &context, &progress);
	cp_interrupt_reset();
	assert_int_equal(turns[0].ret, -EINTR);
	assert_true(turns[0].stopped);
	assert_int_equal(run_turn_merge(&run, &turns[0]), 0);
	assert_int_equal(run.nr_measurements, 0);
	cp_results_free(&run);
}

/* A stop signal sent to the process reaches the part that has the turn,
 * not the waiting caller nor a part waiting for its turn: a request it
 * waits in (kernel mode) is cut short only in its own thread. */
static pthread_t signalled_thread;
static volatile sig_atomic_t signalled;

static void on_term(int signal_number)
{
	(void)signal_number;
	signalled_thread = pthread_self();
	signalled = 1;
}

/* Sends SIGTERM to the process from a thread that blocks it. */
static void *send_term(void *data)
{
	sigset_t term;

	(void)data;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &term, NULL);
	kill(getpid(), SIGTERM);
	return NULL;
}

struct signal_parts {
	pthread_t holder;
	bool sent;
};

static void signal_work(size_t index, void *data)
{
	struct signal_parts *parts = data;
	const struct timespec pause = { .tv_nsec = 1000000 };
	pthread_t sender;

	if (index == 0) {
		cp_turn_pass();
		return;
	}
	parts->holder = pthread_self();
	if (pthread_create(&sender, NULL, send_term, NULL))
		return;
	pthread_join(sender, NULL);
	parts->sent = true;
	for (int i = 0; i < 1000 && !signalled; i++)
		nanosleep(&pause, NULL);
}

static void test_signal_reaches_the_turn(void **state)
{
	struct sigaction action = { .sa_handler = on_term }, previous;
	struct signal_parts parts = { 0 };

	(void)state;
	sigemptyset(&action.sa_mask);
	assert_int_equal(sigaction(SIGTERM, &action, &previous), 0);
	signalled = 0;
	cp_turns_run(2, signal_work, NULL, &parts);
	sigaction(SIGTERM, &previous, NULL);
	cp_interrupt_reset();
	assert_true(parts.sent);
	assert_true(signalled);
	assert_true(pthread_equal(signalled_thread, parts.holder));
}

/* The time a part waits for its turn is counted for it, and only that:
 * c2c keeps its budget without the others' turns. */
struct waits {
	uint64_t waited_ns[2];
};

static void wait_work(size_t index, void *data)
{
	struct waits *waits = data;
	const struct timespec busy = { .tv_nsec = 30000000 };
	uint64_t before = cp_turn_waited_ns();

	if (index == 0)
		cp_turn_pass();
	else
		nanosleep(&busy, NULL);
	waits->waited_ns[index] = cp_turn_waited_ns() - before;
}

static void test_waits_counted(void **state)
{
	struct waits waits = { { 0 } };

	(void)state;
	cp_turns_run(2, wait_work, NULL, &waits);
	assert_true(waits.waited_ns[0] >= 30000000u);
	assert_int_equal(waits.waited_ns[1], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts_alternate),
		cmocka_unit_test(test_finished_parts_left_out),
		cmocka_unit_test(test_one_part_in_caller),
		cmocka_unit_test(test_areas_merge_in_order),
		cmocka_unit_test(test_interrupt_before_an_area),
		cmocka_unit_test(test_signal_reaches_the_turn),
		cmocka_unit_test(test_waits_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
