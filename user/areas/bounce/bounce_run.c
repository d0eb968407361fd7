// SPDX-License-Identifier: GPL-2.0
#include "areas/bounce/bounce_run.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "areas/bounce/bounce_barrier.h"
#include "harness/clock.h"
#include "harness/interrupt.h"

/* One thread's last run, on lines of its own: written after the timed
 * region, read by whichever thread runs the barrier's hook. */
struct thread_slot {
	_Alignas(128) uint64_t start, stop;
	int preempted;
	int pin_error;
};

struct run_shared {
	const struct cp_bounce_job *job;
	struct cp_bounce_timing *out;
	struct cp_bounce_barrier barrier;
	struct thread_slot *slots;
	uint64_t *starts, *stops;	/* scratch for the overlap */
	int stop;			/* written only in hooks */
	int error;
	unsigned int failed_cpu;
};

struct worker {
	struct run_shared *shared;
	unsigned int index;
	pthread_t thread;
};

double cp_bounce_overlap(const uint64_t *starts, const uint64_t *stops,
			 unsigned int n)
{
	uint64_t first = starts[0], last_start = starts[0];
	uint64_t first_stop = stops[0], last = stops[0];

	for (unsigned int i = 1; i < n; i++) {
		first = starts[i] < first ? starts[i] : first;
		last_start = starts[i] > last_start ? starts[i] : last_start;
		first_stop = stops[i] < first_stop ? stops[i] : first_stop;
		last = stops[i] > last ? stops[i] : last;
	}
	if (last <= first || first_stop <= last_start)
		return 0;
	return (double)(first_stop - last_start) / (double)(last - first);
}

static long involuntary_switches(void)
{
	struct rusage usage;

	if (getrusage(RUSAGE_THREAD, &usage))
		return 0;
	return usage.ru_nivcsw;
}

/* Hook after the threads pinned themselves: all go, or none. */
static void check_pinning(void *data)
{
	struct run_shared *shared = data;

	for (unsigned int i = 0; i < shared->out->threads; i++) {
		if (shared->slots[i].pin_error && !shared->error) {
			shared->error = shared->slots[i].pin_error;
			shared->failed_cpu = shared->job->cpus[i];
		}
	}
	shared->stop = shared->error || cp_interrupt_requested();
}

static bool any_preempted(const struct run_shared *shared)
{
	for (unsigned int i = 0; i < shared->out->threads; i++)
		if (shared->slots[i].preempted)
			return true;
	return false;
}

/* The last run's overlap, from the slots. */
static double run_overlap(struct run_shared *shared)
{
	for (unsigned int i = 0; i < shared->out->threads; i++) {
		shared->starts[i] = shared->slots[i].start;
		shared->stops[i] = shared->slots[i].stop;
	}
	return cp_bounce_overlap(shared->starts, shared->stops,
				 shared->out->threads);
}

static void keep_run(struct run_shared *shared, double overlap)
{
	struct cp_bounce_timing *out = shared->out;
	unsigned int threads = out->threads;

	for (unsigned int i = 0; i < threads; i++)
		out->ticks[(size_t)out->runs * threads + i] =
			shared->slots[i].stop - shared->slots[i].start;
	out->overlap[out->runs] = overlap;
	out->runs++;
}

/* Hook after every run: keep it or take it again; stop when done. */
static void after_run(void *data)
{
	struct run_shared *shared = data;
	struct cp_bounce_timing *out = shared->out;
	double overlap = out->threads > 1 ? run_overlap(shared) : 1;
	bool spoilt = any_preempted(shared) ||
		      overlap < shared->job->min_overlap;

	if (spoilt && out->retaken < shared->job->max_retakes)
		out->retaken++;
	else
		keep_run(shared, overlap);
	if (out->runs == shared->job->runs)
		shared->stop = 1;
	else if (cp_interrupt_requested())
		shared->stop = out->interrupted = true;
}

static int pin(unsigned int cpu)
{
	cpu_set_t mask;

	CPU_ZERO(&mask);
	CPU_SET(cpu, &mask);
	return sched_setaffinity(0, sizeof(mask), &mask) ? errno : 0;
}

static void *work(void *data)
{
	struct worker *worker = data;
	struct run_shared *shared = worker->shared;
	const struct cp_bounce_job *job = shared->job;
	struct thread_slot *slot = &shared->slots[worker->index];
	void *counter = cp_bounce_counter(job->layout, worker->index);

	slot->pin_error = pin(job->cpus[worker->index]);
	cp_bounce_barrier_wait(&shared->barrier, check_pinning, shared);
	while (!shared->stop) {
		long before = involuntary_switches();
		uint64_t start = cp_clock_start();

		job->loop(counter, job->count);
		slot->stop = cp_clock_stop();
		slot->start = start;
		slot->preempted = involuntary_switches() != before;
		shared->out->increments[worker->index] += job->count;
		cp_bounce_barrier_wait(&shared->barrier, after_run, shared);
	}
	return NULL;
}

static int allocate(const struct cp_bounce_job *job,
		    struct cp_bounce_timing *out, struct run_shared *shared)
{
	unsigned int threads = job->layout->threads;

	memset(out, 0, sizeof(*out));
	out->threads = threads;
	out->ticks = calloc((size_t)job->runs * threads, sizeof(*out->ticks));
	out->overlap = calloc(job->runs, sizeof(*out->overlap));
	out->increments = calloc(threads, sizeof(*out->increments));
	shared->slots = aligned_alloc(128, threads * sizeof(*shared->slots));
	shared->starts = calloc(threads, sizeof(*shared->starts));
	shared->stops = calloc(threads, sizeof(*shared->stops));
	if (shared->slots)
		memset(shared->slots, 0, threads * sizeof(*shared->slots));
	if (!out->ticks || !out->overlap || !out->increments ||
	    !shared->slots || !shared->starts || !shared->stops)
		return -ENOMEM;
	return 0;
}

static void release_shared(struct run_shared *shared)
{
	free(shared->slots);
	free(shared->starts);
	free(shared->stops);
}

/* Start every worker and wait for them.  When one cannot be created, the
 * calling thread arrives at the first barrier for each missing worker with
 * a failure, so the started ones leave at once. */
static int start_workers(struct run_shared *shared, struct worker *workers,
			 unsigned int threads)
{
	for (unsigned int i = 0; i < threads; i++) {
		workers[i] = (struct worker){ .shared = shared, .index = i };
		if (pthread_create(&workers[i].thread, NULL, work, &workers[i])) {
			for (unsigned int k = i; k < threads; k++)
				shared->slots[k].pin_error = EAGAIN;
			for (unsigned int k = i; k < threads; k++)
				cp_bounce_barrier_arrive(&shared->barrier,
							 check_pinning, shared);
			for (unsigned int k = 0; k < i; k++)
				pthread_join(workers[k].thread, NULL);
			return -EAGAIN;
		}
	}
	for (unsigned int i = 0; i < threads; i++)
		pthread_join(workers[i].thread, NULL);
	return 0;
}

int cp_bounce_run(const struct cp_bounce_job *job,
		  struct cp_bounce_timing *out, unsigned int *failed_cpu)
{
	struct run_shared shared = { .job = job, .out = out };
	unsigned int threads = job->layout->threads;
	struct worker *workers;
	int ret;

	if (!job->runs || !job->count || !job->loop)
		return -EINVAL;
	ret = allocate(job, out, &shared);
	workers = calloc(threads, sizeof(*workers));
	if (ret || !workers) {
		free(workers);
		release_shared(&shared);
		cp_bounce_timing_free(out);
		return -ENOMEM;
	}
	cp_bounce_barrier_init(&shared.barrier, threads);
	ret = start_workers(&shared, workers, threads);
	free(workers);
	release_shared(&shared);
	if (!ret && shared.error) {
		*failed_cpu = shared.failed_cpu;
		ret = -shared.error;
	}
	if (!ret && !out->runs)
		ret = -EINTR;
	if (ret)
		cp_bounce_timing_free(out);
	return ret;
}

void cp_bounce_timing_free(struct cp_bounce_timing *timing)
{
	free(timing->ticks);
	free(timing->overlap);
	free(timing->increments);
	timing->ticks = NULL;
	timing->overlap = NULL;
	timing->increments = NULL;
}
