// SPDX-License-Identifier: GPL-2.0
#include "harness/turns.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness/clock.h"
#include "harness/interrupt.h"

#define NO_TURN SIZE_MAX

struct turns;

struct seat {
	struct turns *turns;
	size_t index;
	pthread_t thread;
	bool has_thread;
	bool done;
};

struct turns {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	size_t turn;			/* the seat that may run; NO_TURN */
	size_t n;
	struct seat *seats;
	cp_turn_fn work;
	cp_turn_start_fn start;
	void *data;
	sigset_t stop_signals;
};

/* The seat of this thread while it runs a part; NULL elsewhere. */
static _Thread_local struct seat *current;
/* How long this thread has waited for its turn, in ns. */
static _Thread_local uint64_t waited_ns;

/* The next seat after @from, round and round, that still runs a part
 * in a thread; @from itself when there is none. */
static size_t next_seat(const struct turns *turns, size_t from)
{
	for (size_t k = 1; k <= turns->n; k++) {
		size_t i = (from + k) % turns->n;

		if (turns->seats[i].has_thread && !turns->seats[i].done)
			return i;
	}
	return from;
}

/* Under the lock: wait for @seat's turn. */
static void await_turn(struct turns *turns, const struct seat *seat)
{
	while (turns->turn != seat->index)
		pthread_cond_wait(&turns->changed, &turns->lock);
}

/*
 * Only the part that has the turn takes the stop signals: the kernel
 * hands a process's signal to a thread that does not block it, and a
 * request the part waits in (a kernel-mode measurement) is cut short only
 * when its own thread has the signal pending.
 */
static void begin_turn(struct turns *turns, const struct seat *seat)
{
	pthread_sigmask(SIG_UNBLOCK, &turns->stop_signals, NULL);
	if (turns->start)
		turns->start(seat->index, turns->data);
}

static void end_turn(struct turns *turns)
{
	pthread_sigmask(SIG_BLOCK, &turns->stop_signals, NULL);
}

static void hand_over(struct seat *seat)
{
	struct turns *turns = seat->turns;
	double since;
	size_t next;

	pthread_mutex_lock(&turns->lock);
	next = next_seat(turns, seat->index);
	if (next == seat->index) {
		pthread_mutex_unlock(&turns->lock);
		return;
	}
	end_turn(turns);
	since = cp_clock_monotonic_ns();
	turns->turn = next;
	pthread_cond_broadcast(&turns->changed);
	await_turn(turns, seat);
	pthread_mutex_unlock(&turns->lock);
	waited_ns += (uint64_t)(cp_clock_monotonic_ns() - since);
	begin_turn(turns, seat);
}

int cp_turn_pass(void)
{
	if (current)
		hand_over(current);
	return cp_interrupt_requested() ? -EINTR : 0;
}

uint64_t cp_turn_waited_ns(void)
{
	return waited_ns;
}

static void *seat_main(void *arg)
{
	struct seat *seat = arg;
	struct turns *turns = seat->turns;

	pthread_mutex_lock(&turns->lock);
	await_turn(turns, seat);
	pthread_mutex_unlock(&turns->lock);
	current = seat;
	begin_turn(turns, seat);
	turns->work(seat->index, turns->data);
	end_turn(turns);
	current = NULL;
	pthread_mutex_lock(&turns->lock);
	seat->done = true;
	turns->turn = next_seat(turns, seat->index);
	if (turns->turn == seat->index)
		turns->turn = NO_TURN;
	pthread_cond_broadcast(&turns->changed);
	pthread_mutex_unlock(&turns->lock);
	return NULL;
}

/* Parts without a thread, one after another in this thread, none
 * handing over. */
static void run_in_order(struct turns *turns)
{
	for (size_t i = 0; i < turns->n; i++)
		if (!turns->seats || !turns->seats[i].has_thread) {
			if (turns->start)
				turns->start(i, turns->data);
			turns->work(i, turns->data);
		}
}

/* Each part in a thread of its own, taking turns; 0, or -ENOMEM. */
static int run_seats(struct turns *turns)
{
	size_t first = NO_TURN;
	sigset_t previous;

	turns->seats = calloc(turns->n, sizeof(*turns->seats));
	if (!turns->seats)
		return -ENOMEM;
	/* The seats start with the stop signals blocked (a thread inherits
	 * its maker's mask), and this thread keeps them blocked while it
	 * only waits. */
	cp_interrupt_signals(&turns->stop_signals);
	pthread_sigmask(SIG_BLOCK, &turns->stop_signals, &previous);
	for (size_t i = 0; i < turns->n; i++) {
		struct seat *seat = &turns->seats[i];

		*seat = (struct seat){ .turns = turns, .index = i };
		seat->has_thread = !pthread_create(&seat->thread, NULL,
						   seat_main, seat);
		if (seat->has_thread && first == NO_TURN)
			first = i;
	}
	/* No part starts before every thread is made: a part handing over
	 * must not wait for one that will never run. */
	pthread_mutex_lock(&turns->lock);
	turns->turn = first;
	pthread_cond_broadcast(&turns->changed);
	pthread_mutex_unlock(&turns->lock);
	for (size_t i = 0; i < turns->n; i++)
		if (turns->seats[i].has_thread)
			pthread_join(turns->seats[i].thread, NULL);
	pthread_sigmask(SIG_SETMASK, &previous, NULL);
	return 0;
}

void cp_turns_run(size_t n, cp_turn_fn work, cp_turn_start_fn start,
		  void *data)
{
	struct turns turns = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.changed = PTHREAD_COND_INITIALIZER,
		.turn = NO_TURN, .n = n, .work = work, .start = start,
		.data = data,
	};

	if (n > 1)
		run_seats(&turns);
	run_in_order(&turns);
	free(turns.seats);
}
