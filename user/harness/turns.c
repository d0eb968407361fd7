// SPDX-License-Identifier: GPL-2.0
#include "harness/turns.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

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
};

/* The seat of this thread while it runs a part; NULL elsewhere. */
static _Thread_local struct seat *current;

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

static void begin_turn(struct turns *turns, const struct seat *seat)
{
	if (turns->start)
		turns->start(seat->index, turns->data);
}

static void hand_over(struct seat *seat)
{
	struct turns *turns = seat->turns;
	size_t next;

	pthread_mutex_lock(&turns->lock);
	next = next_seat(turns, seat->index);
	if (next == seat->index) {
		pthread_mutex_unlock(&turns->lock);
		return;
	}
	turns->turn = next;
	pthread_cond_broadcast(&turns->changed);
	await_turn(turns, seat);
	pthread_mutex_unlock(&turns->lock);
	begin_turn(turns, seat);
}

int cp_turn_pass(void)
{
	if (current)
		hand_over(current);
	return cp_interrupt_requested() ? -EINTR : 0;
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

/* Parts one after another in this thread, none handing over. */
static void run_in_order(struct turns *turns, size_t from)
{
	for (size_t i = from; i < turns->n; i++)
		if (!turns->seats || !turns->seats[i].has_thread) {
			if (turns->start)
				turns->start(i, turns->data);
			turns->work(i, turns->data);
		}
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
	size_t first = NO_TURN;

	if (n > 1)
		turns.seats = calloc(n, sizeof(*turns.seats));
	if (!turns.seats) {
		run_in_order(&turns, 0);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct seat *seat = &turns.seats[i];

		*seat = (struct seat){ .turns = &turns, .index = i };
		seat->has_thread = !pthread_create(&seat->thread, NULL,
						   seat_main, seat);
		if (seat->has_thread && first == NO_TURN)
			first = i;
	}
	/* No part starts before every thread is made: a part handing over
	 * must not wait for one that will never run. */
	pthread_mutex_lock(&turns.lock);
	turns.turn = first;
	pthread_cond_broadcast(&turns.changed);
	pthread_mutex_unlock(&turns.lock);
	for (size_t i = 0; i < n; i++)
		if (turns.seats[i].has_thread)
			pthread_join(turns.seats[i].thread, NULL);
	run_in_order(&turns, 0);
	free(turns.seats);
}
