// SPDX-License-Identifier: GPL-2.0
#include "areas/xcore/xcore_run.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "harness/clock.h"
#include "harness/interrupt.h"

struct shared {
	const struct cp_xcore_job *job;
	struct cp_xcore_timing *out;
	/* Each on its own lines: the handshake must not share a line with
	 * anything the walk measures. */
	_Alignas(128) atomic_uint request;	/* round asked for */
	_Alignas(128) atomic_uint produced;	/* round the producer did */
	_Alignas(128) atomic_int producer_state;	/* 0 starting, 1 ready,
							 * -errno failed */
	atomic_int quit;
	int consumer_error;
};

static int pin(unsigned int cpu)
{
	cpu_set_t mask;

	CPU_ZERO(&mask);
	CPU_SET(cpu, &mask);
	return sched_setaffinity(0, sizeof(mask), &mask) ? -errno : 0;
}

static long involuntary_switches(void)
{
	struct rusage usage;

	if (getrusage(RUSAGE_THREAD, &usage))
		return 0;
	return usage.ru_nivcsw;
}

static void *produce(void *data)
{
	struct shared *shared = data;
	unsigned int done = 0;
	int ret = pin(shared->job->producer);

	atomic_store(&shared->producer_state, ret ? ret : 1);
	if (ret)
		return NULL;
	while (!atomic_load(&shared->quit)) {
		unsigned int wanted = atomic_load_explicit(&shared->request,
							   memory_order_acquire);

		if (wanted == done) {
			__builtin_ia32_pause();
			continue;
		}
		cp_xcore_touch(shared->job->block, shared->job->touch);
		done = wanted;
		atomic_store_explicit(&shared->produced, done,
				      memory_order_release);
	}
	return NULL;
}

/* Have round @round's block touched: by the producer thread, by this
 * thread (same CPU), or by nobody. */
static void prepare_round(struct shared *shared, bool producer_thread,
			  unsigned int round)
{
	const struct cp_xcore_job *job = shared->job;

	cp_xcore_flush(job->block);
	if (!producer_thread) {
		cp_xcore_touch(job->block, job->touch);
		return;
	}
	atomic_store_explicit(&shared->request, round, memory_order_release);
	while (atomic_load_explicit(&shared->produced, memory_order_acquire) !=
	       round)
		__builtin_ia32_pause();
}

static void take_rounds(struct shared *shared, bool producer_thread)
{
	const struct cp_xcore_job *job = shared->job;
	struct cp_xcore_timing *out = shared->out;
	void *head = job->block->position;
	unsigned int round = 0;

	while (out->rounds < job->rounds) {
		long before;
		uint64_t start, stop;
		void *end;

		if (cp_interrupt_requested()) {
			out->interrupted = true;
			return;
		}
		prepare_round(shared, producer_thread, ++round);
		before = involuntary_switches();
		start = cp_clock_start();
		end = cp_xcore_walk(head, job->block->nr_lines, job->delay);
		stop = cp_clock_stop();
		__asm__ __volatile__("" : : "r"(end));
		if (involuntary_switches() != before &&
		    out->retaken < job->max_retakes) {
			out->retaken++;
			continue;
		}
		out->ticks[out->rounds++] = stop - start;
	}
}

static void *consume(void *data)
{
	struct shared *shared = data;
	const struct cp_xcore_job *job = shared->job;
	bool producer_thread = job->producer != job->consumer &&
			       job->touch != CP_XCORE_TOUCH_NONE;
	double before, after;
	int state;

	shared->consumer_error = pin(job->consumer);
	if (shared->consumer_error)
		return NULL;
	while (producer_thread &&
	       !(state = atomic_load(&shared->producer_state)))
		__builtin_ia32_pause();
	if (producer_thread && state < 0)
		return NULL;
	before = cp_clock_core_cycles_per_tick();
	take_rounds(shared, producer_thread);
	after = cp_clock_core_cycles_per_tick();
	shared->out->core_ratio_before = before;
	shared->out->core_ratio_after = after;
	return NULL;
}

static int start_threads(struct shared *shared, bool with_producer,
			 unsigned int *failed_cpu)
{
	pthread_t producer, consumer;
	int ret = 0;

	if (with_producer && pthread_create(&producer, NULL, produce, shared))
		return -EAGAIN;
	if (pthread_create(&consumer, NULL, consume, shared)) {
		ret = -EAGAIN;
	} else {
		pthread_join(consumer, NULL);
	}
	atomic_store(&shared->quit, 1);
	if (with_producer)
		pthread_join(producer, NULL);
	if (ret)
		return ret;
	if (shared->consumer_error) {
		*failed_cpu = shared->job->consumer;
		return -EINVAL;
	}
	if (with_producer && atomic_load(&shared->producer_state) < 0) {
		*failed_cpu = shared->job->producer;
		return -EINVAL;
	}
	return 0;
}

int cp_xcore_run(const struct cp_xcore_job *job, struct cp_xcore_timing *out,
		 unsigned int *failed_cpu)
{
	bool with_producer = job->producer != job->consumer &&
			     job->touch != CP_XCORE_TOUCH_NONE;
	struct shared *shared = aligned_alloc(128, sizeof(*shared));
	int ret;

	memset(out, 0, sizeof(*out));
	out->ticks = calloc(job->rounds ? job->rounds : 1, sizeof(*out->ticks));
	if (!shared || !out->ticks) {
		free(shared);
		cp_xcore_timing_free(out);
		return -ENOMEM;
	}
	memset(shared, 0, sizeof(*shared));
	shared->job = job;
	shared->out = out;
	ret = start_threads(shared, with_producer, failed_cpu);
	free(shared);
	if (!ret && !out->rounds && out->interrupted)
		ret = -EINTR;
	if (ret)
		cp_xcore_timing_free(out);
	return ret;
}

void cp_xcore_timing_free(struct cp_xcore_timing *timing)
{
	free(timing->ticks);
	timing->ticks = NULL;
}
