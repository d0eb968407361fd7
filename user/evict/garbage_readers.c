// SPDX-License-Identifier: GPL-2.0
#include "evict/garbage_readers.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evict/coldcache_garbage.h"

/* Where read results go, so no read is optimised away. */
static volatile uint64_t readers_sink;

struct reader_slot {
	struct cp_readers *owner;
	pthread_t thread;
	unsigned int cpu;
	int pin_status;
	/* This round's work: NULL start = nothing for this CPU. */
	const char *start;
	size_t bytes;
	size_t chunk_bytes;
};

struct cp_readers {
	pid_t pid;			/* of the process the threads are in */
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* a new round, or the stop */
	pthread_cond_t done;		/* a reader finished its part */
	unsigned long round;
	size_t busy;			/* readers still at work, or starting */
	bool stopping;
	size_t nr_slots;
	struct reader_slot *slots;
};

static int pin_self(unsigned int cpu)
{
	cpu_set_t mask;

	CPU_ZERO(&mask);
	CPU_SET(cpu, &mask);
	return sched_setaffinity(0, sizeof(mask), &mask) ? -errno : 0;
}

static void finish_part(struct cp_readers *readers)
{
	if (--readers->busy == 0)
		pthread_cond_signal(&readers->done);
}

static void *reader_main(void *data)
{
	struct reader_slot *slot = data;
	struct cp_readers *readers = slot->owner;
	unsigned long seen = 0;

	slot->pin_status = pin_self(slot->cpu);
	pthread_mutex_lock(&readers->lock);
	finish_part(readers);
	for (;;) {
		while (readers->round == seen && !readers->stopping)
			pthread_cond_wait(&readers->wake, &readers->lock);
		if (readers->stopping)
			break;
		seen = readers->round;
		pthread_mutex_unlock(&readers->lock);
		if (slot->start)
			readers_sink += cp_garbage_read_twice(slot->start,
							      slot->bytes,
							      slot->chunk_bytes);
		pthread_mutex_lock(&readers->lock);
		finish_part(readers);
	}
	pthread_mutex_unlock(&readers->lock);
	return NULL;
}

static struct reader_slot *slot_of(struct cp_readers *readers,
				   unsigned int cpu)
{
	for (size_t i = 0; i < readers->nr_slots; i++)
		if (readers->slots[i].cpu == cpu)
			return &readers->slots[i];
	return NULL;
}

/* The distinct reader CPUs of @plan into @readers->slots. */
static int collect_cpus(struct cp_readers *readers,
			const struct cp_eviction_plan *plan)
{
	readers->slots = calloc(plan->nr_readers ? plan->nr_readers : 1,
				sizeof(*readers->slots));
	if (!readers->slots)
		return -ENOMEM;
	for (size_t i = 0; i < plan->nr_readers; i++) {
		unsigned int cpu = plan->readers[i].cpu;

		if (slot_of(readers, cpu))
			continue;
		readers->slots[readers->nr_slots].owner = readers;
		readers->slots[readers->nr_slots++].cpu = cpu;
	}
	return readers->nr_slots ? 0 : -EINVAL;
}

/* Join the @started threads and free everything. */
static void teardown(struct cp_readers *readers, size_t started)
{
	pthread_mutex_lock(&readers->lock);
	readers->stopping = true;
	pthread_cond_broadcast(&readers->wake);
	pthread_mutex_unlock(&readers->lock);
	for (size_t i = 0; i < started; i++)
		pthread_join(readers->slots[i].thread, NULL);
	pthread_cond_destroy(&readers->wake);
	pthread_cond_destroy(&readers->done);
	pthread_mutex_destroy(&readers->lock);
	free(readers->slots);
	free(readers);
}

/* Start the threads with every signal blocked (they inherit the mask). */
static int spawn(struct cp_readers *readers, size_t *started)
{
	sigset_t all, previous;
	int ret = 0;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &previous);
	for (; *started < readers->nr_slots; (*started)++) {
		struct reader_slot *slot = &readers->slots[*started];

		ret = -pthread_create(&slot->thread, NULL, reader_main, slot);
		if (ret)
			break;
	}
	pthread_sigmask(SIG_SETMASK, &previous, NULL);
	return ret;
}

/* Wait until the started threads have pinned themselves; the first CPU
 * that could not be had, or -1. */
static int wait_pinned(struct cp_readers *readers, size_t started,
		       int *status)
{
	pthread_mutex_lock(&readers->lock);
	readers->busy -= readers->nr_slots - started;
	while (readers->busy)
		pthread_cond_wait(&readers->done, &readers->lock);
	pthread_mutex_unlock(&readers->lock);
	for (size_t i = 0; i < started; i++)
		if (readers->slots[i].pin_status) {
			*status = readers->slots[i].pin_status;
			return (int)readers->slots[i].cpu;
		}
	return -1;
}

int cp_readers_start(const struct cp_eviction_plan *plan,
		     struct cp_readers **out, struct cp_error *error)
{
	struct cp_readers *readers = calloc(1, sizeof(*readers));
	size_t started = 0;
	int ret, failed_cpu, status = 0;

	if (!readers)
		return cp_error_set(error, ENOMEM, "no memory for the readers");
	readers->pid = getpid();
	pthread_mutex_init(&readers->lock, NULL);
	pthread_cond_init(&readers->wake, NULL);
	pthread_cond_init(&readers->done, NULL);
	ret = collect_cpus(readers, plan);
	if (ret) {
		teardown(readers, 0);
		return cp_error_set(error, -ret, "the plan has no reader");
	}
	readers->busy = readers->nr_slots;
	ret = spawn(readers, &started);
	failed_cpu = wait_pinned(readers, started, &status);
	if (ret || failed_cpu >= 0) {
		teardown(readers, started);
		if (ret)
			return cp_error_set(error, -ret,
					    "cannot start a garbage reader thread");
		return cp_error_set(error, -status,
				    "cannot pin a garbage reader to CPU %d",
				    failed_cpu);
	}
	*out = readers;
	return 0;
}

/* Hand each slot its part of @plan's read of @window. */
static int assign(struct cp_readers *readers,
		  const struct cp_eviction_plan *plan, const char *window)
{
	for (size_t i = 0; i < readers->nr_slots; i++)
		readers->slots[i].start = NULL;
	for (size_t i = 0; i < plan->nr_readers; i++) {
		const struct cp_plan_reader *reader = &plan->readers[i];
		struct reader_slot *slot = slot_of(readers, reader->cpu);

		/* Two readers on one CPU would read one after the other:
		 * a plan the readers were not started for. */
		if (!slot || slot->start)
			return -EINVAL;
		slot->start = window + reader->offset;
		slot->bytes = reader->bytes;
		slot->chunk_bytes = reader->chunk_bytes;
	}
	return 0;
}

int cp_readers_read(struct cp_readers *readers,
		    const struct cp_eviction_plan *plan, const char *window)
{
	int ret;

	if (getpid() != readers->pid)
		return -ECHILD;
	pthread_mutex_lock(&readers->lock);
	ret = assign(readers, plan, window);
	if (!ret) {
		readers->busy = readers->nr_slots;
		readers->round++;
		pthread_cond_broadcast(&readers->wake);
		while (readers->busy)
			pthread_cond_wait(&readers->done, &readers->lock);
	}
	pthread_mutex_unlock(&readers->lock);
	return ret;
}

void cp_readers_stop(struct cp_readers *readers)
{
	if (!readers)
		return;
	/* A child has no threads to join; its copy of the lock may even be
	 * held by a thread that no longer exists. */
	if (getpid() != readers->pid) {
		free(readers->slots);
		free(readers);
		return;
	}
	teardown(readers, readers->nr_slots);
}
