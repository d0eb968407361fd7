// SPDX-License-Identifier: GPL-2.0
#include "areas/c2c/c2c_pingpong.h"

#include <errno.h>
#include <hwloc.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "harness/clock.h"
#include "harness/interrupt.h"
#include "measure/pingpong.h"

#define LINE_BYTES 4096		/* a page: nothing else shares the line */
/*
 * Every sample plays on CP_C2C_LINES_PER_SAMPLE lines of its own in turn,
 * one page each, its round trips shared among them in segments.  On a
 * mesh of last-level-cache slices the round trip depends on which slice
 * tracks the line, set by its physical address: lines of one run here
 * fall into a fast group near 105 ns and a slow one near 135 ns.  With a
 * line per job, a run's median was where its line happened to land; with
 * a line per sample, the median of a run sat between the two groups and
 * jumped with their mix (run medians 119 to 135 ns with 201 samples).  A
 * sample over many lines is the mean over their slices, and the mix
 * varies little from one sample to the next.
 *
 * The initiator also notes when each segment ends, so that how the lines
 * differ is not lost in that mean (areas/c2c/c2c_line_spread.h): RDTSCP after
 * the answer to a segment's last turn, no fence after it, so the next
 * line's first turn need not wait for the read.  It costs some 40 cycles
 * a segment of about 100 round trips (0.1 %); eight runs with and eight
 * without, interleaved: medians of the runs' medians 124 and 124 ns
 * (CAS), 131 and 130 ns (flag), inside their run-to-run spread (flag
 * 127-133).
 */

struct worker {
	struct cp_c2c_pinger *pinger;
	pthread_t thread;
	int cpu;			/* where it is pinned; -1 nowhere */
	/* This job: the CPU, the role, whether it places the line. */
	unsigned int want_cpu;
	bool initiator, places;
	int error;
};

struct cp_c2c_pinger {
	const struct cp_topology *topology;
	struct worker workers[2];
	const struct cp_c2c_job *job;
	uint64_t *ticks;
	uint64_t *segment_ticks;		/* NULL: not wanted */
	_Alignas(128) atomic_uint generation;	/* a new job (or quit) */
	_Alignas(128) atomic_uint arrived;	/* threads ready, then done */
	_Alignas(128) atomic_uint placed;	/* the line is in place */
	volatile uint64_t *lines;		/* LINE_BYTES apart, sample by sample */
	unsigned int nr_lines;
	atomic_int quit;
	/* Set by the job's caller to end a job between two looks at the
	 * line: a busy machine can stretch one job to seconds.  Also set by
	 * the initiator when the job's deadline passed (@ended), the
	 * samples before it valid (@taken). */
	_Alignas(128) atomic_int abandon;
	atomic_int ended;
	unsigned int taken;
	unsigned int moves;
};

/* Spins between two looks at @abandon: a few microseconds. */
#define SPINS_PER_LOOK 4096

const char *cp_c2c_variant_name(enum cp_c2c_variant variant)
{
	return variant == CP_C2C_FLAG ? "flag" : "cas";
}

/*
 * Wait until a job's count @word reaches @value.  At least, not exactly:
 * the counts only grow during a job, and the other worker may pass the
 * mark and count on before this one looks (abandoned at once, its play
 * ends and it counts again), which left the waiter spinning forever and
 * the run deaf to SIGTERM on a busy machine.
 */
static void spin_until(atomic_uint *word, unsigned int value)
{
	while (atomic_load_explicit(word, memory_order_acquire) < value)
		__builtin_ia32_pause();
}

static bool abandoned(struct cp_c2c_pinger *p, unsigned int *spins)
{
	return ++*spins % SPINS_PER_LOOK == 0 &&
	       atomic_load_explicit(&p->abandon, memory_order_relaxed);
}

/* Wait until @line holds @v (false: the job was abandoned first). */
static inline bool await(struct cp_c2c_pinger *p, volatile uint64_t *line,
			 uint64_t v)
{
	unsigned int spins = 0;

	while (cp_pingpong_look((const __u64 *)line) != v)
		if (abandoned(p, &spins))
			return false;
	return true;
}

/* Wait until the line holds @v, then make it @v + 1 (false: the job was
 * abandoned first). */
static inline bool turn(struct cp_c2c_pinger *p, volatile uint64_t *line,
			uint64_t v, bool cas)
{
	unsigned int spins = 0;

	while (!cp_pingpong_try((__u64 *)line, v, cas))
		if (abandoned(p, &spins))
			return false;
	return true;
}

unsigned int cp_c2c_pool_lines(unsigned int samples)
{
	size_t lines = (size_t)samples * CP_C2C_LINES_PER_SAMPLE;

	return lines > CP_C2C_LINE_POOL ? CP_C2C_LINE_POOL
					: (unsigned int)lines;
}

uint32_t cp_c2c_segment_trips(uint32_t round_trips, unsigned int place)
{
	uint32_t share = round_trips / CP_C2C_LINES_PER_SAMPLE;

	return share + (place < round_trips % CP_C2C_LINES_PER_SAMPLE);
}

/* Line @segment of sample @sample: samples take the pool's lines in
 * turn, CP_C2C_LINES_PER_SAMPLE at a time. */
static volatile uint64_t *line_of(const struct cp_c2c_pinger *p,
				   unsigned int sample, unsigned int segment)
{
	size_t index = cp_c2c_line_of_segment(
		(size_t)sample * CP_C2C_LINES_PER_SAMPLE + segment,
		p->nr_lines);

	return p->lines + index * (LINE_BYTES / sizeof(*p->lines));
}

/* The end of a segment: RDTSCP waits for the answer's load, and nothing
 * after it waits for RDTSCP (no fence).  Without RDTSCP, LFENCE; RDTSC. */
static inline uint64_t segment_mark(void)
{
	uint32_t low, high, aux;

	if (__builtin_expect(!cp_clock_has_rdtscp, 0))
		__asm__ __volatile__("lfence\n\trdtsc"
				     : "=a"(low), "=d"(high) : : "memory");
	else
		__asm__ __volatile__("rdtscp"
				     : "=a"(low), "=d"(high), "=c"(aux)
				     : : "memory");
	return ((uint64_t)high << 32) | low;
}

/* A segment ends with the answer to its last turn, so the next line's
 * first round trip starts from a settled one, as every other does. */
static void initiate(struct cp_c2c_pinger *p)
{
	const struct cp_c2c_job *job = p->job;
	bool cas = job->variant == CP_C2C_CAS;

	for (unsigned int s = 0; s < job->samples; s++) {
		uint64_t *marks = p->segment_ticks
			? p->segment_ticks + (size_t)s * CP_C2C_LINES_PER_SAMPLE
			: NULL;
		uint64_t start = cp_clock_start(), mark = start;

		for (unsigned int j = 0; j < CP_C2C_LINES_PER_SAMPLE; j++) {
			volatile uint64_t *line = line_of(p, s, j);
			uint32_t trips = cp_c2c_segment_trips(job->round_trips,
							      j);
			uint64_t v = 0;

			for (uint32_t k = 0; k < trips; k++, v += 2)
				if (!turn(p, line, v, cas))
					return;
			if (!await(p, line, v))
				return;
			/* The last segment ends where the sample does. */
			if (marks && j + 1 < CP_C2C_LINES_PER_SAMPLE) {
				uint64_t now = segment_mark();

				marks[j] = now - mark;
				mark = now;
			}
		}
		p->ticks[s] = cp_clock_stop() - start;
		if (marks)
			marks[CP_C2C_LINES_PER_SAMPLE - 1] =
				start + p->ticks[s] - mark;
		/* The responder is done with these lines (each answer was
		 * awaited) and is already on the next sample's: back to 0
		 * for their next turn in the pool, outside the timing.  The
		 * fence waits for those stores to leave: each takes the line
		 * back from the responder, and the next sample's first
		 * turn would otherwise wait for them (the lines of a
		 * sample's first segment measured 5 % slower). */
		for (unsigned int j = 0; j < CP_C2C_LINES_PER_SAMPLE; j++)
			*line_of(p, s, j) = 0;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		p->taken = s + 1;
		/* The share is spent: the responder, waiting for the next
		 * sample's first turn, gives up at its next look. */
		if (job->deadline_tsc && s + 1 >= job->least &&
		    s + 1 < job->samples &&
		    cp_clock_stop() > job->deadline_tsc) {
			atomic_store(&p->ended, 1);
			atomic_store(&p->abandon, 1);
			return;
		}
	}
}

static void respond(struct cp_c2c_pinger *p)
{
	const struct cp_c2c_job *job = p->job;
	bool cas = job->variant == CP_C2C_CAS;

	for (unsigned int s = 0; s < job->samples; s++) {
		for (unsigned int j = 0; j < CP_C2C_LINES_PER_SAMPLE; j++) {
			volatile uint64_t *line = line_of(p, s, j);
			uint32_t trips = cp_c2c_segment_trips(job->round_trips,
							      j);

			for (uint64_t k = 0; k < trips; k++)
				if (!turn(p, line, 2 * k + 1, cas))
					return;
		}
	}
}

static int move_to(struct worker *w)
{
	cpu_set_t mask;

	if (w->cpu == (int)w->want_cpu)
		return 0;
	CPU_ZERO(&mask);
	CPU_SET(w->want_cpu, &mask);
	if (sched_setaffinity(0, sizeof(mask), &mask))
		return -errno;
	w->cpu = (int)w->want_cpu;
	w->pinger->moves++;
	return 0;
}

/* The initiator's segment marks, written before the job: a first write
 * to a page faults, and a fault between two segments lands in the next
 * one -- every 32nd sample's same line ran 60 % slower, a "slow line"
 * that was not one. */
static void touch_marks(struct cp_c2c_pinger *p)
{
	if (p->segment_ticks)
		memset(p->segment_ticks, 0,
		       (size_t)p->job->samples * CP_C2C_LINES_PER_SAMPLE *
			       sizeof(*p->segment_ticks));
}

/* One job on this worker: move, place the line (home side), meet, play. */
static void play(struct worker *w)
{
	struct cp_c2c_pinger *p = w->pinger;

	w->error = move_to(w);
	if (w->initiator)
		touch_marks(p);
	if (w->places) {
		/* First touch from the home CPU decides the pages' node when
		 * they are not bound already. */
		for (unsigned int i = 0; !w->error && i < p->nr_lines; i++)
			p->lines[(size_t)i * (LINE_BYTES / sizeof(*p->lines))] = 0;
		atomic_store_explicit(&p->placed, 1, memory_order_release);
	}
	atomic_fetch_add(&p->arrived, 1);
	spin_until(&p->arrived, 2);
	spin_until(&p->placed, 1);
	if (!p->workers[0].error && !p->workers[1].error) {
		if (w->initiator)
			initiate(p);
		else
			respond(p);
	}
	atomic_fetch_add(&p->arrived, 1);
}

/*
 * Idle workers sleep on the generation word until a job (or quit) bumps
 * it.  They used to poll it every 50 us: some 40,000 wake-ups a second
 * from the two, which other areas measuring between c2c's rounds (the
 * run's areas take turns, cli/run_turns.h) would have paid for.
 */
static void await_generation(atomic_uint *generation, unsigned int seen)
{
	while (atomic_load(generation) == seen)
		syscall(SYS_futex, (unsigned int *)generation,
			FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void next_generation(atomic_uint *generation)
{
	atomic_fetch_add(generation, 1);
	syscall(SYS_futex, (unsigned int *)generation, FUTEX_WAKE_PRIVATE,
		INT_MAX, NULL, NULL, 0);
}

static void *work(void *data)
{
	struct worker *w = data;
	struct cp_c2c_pinger *p = w->pinger;
	unsigned int seen = 0;

	for (;;) {
		await_generation(&p->generation, seen);
		seen = atomic_load(&p->generation);
		if (atomic_load(&p->quit))
			return NULL;
		play(w);
	}
}

int cp_c2c_pinger_start(const struct cp_topology *topology,
			struct cp_c2c_pinger **out)
{
	struct cp_c2c_pinger *p = aligned_alloc(128, sizeof(*p));
	sigset_t stop, previous;
	int ret = 0;

	if (!p)
		return -ENOMEM;
	memset(p, 0, sizeof(*p));
	p->topology = topology;
	/* A stop signal is for the thread that runs the jobs (it abandons
	 * them): taken by a worker, which sleeps through other areas' turns,
	 * it would not cut short the request that thread waits in.  The
	 * workers are born with the stop signals blocked. */
	cp_interrupt_signals(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &previous);
	for (int i = 0; i < 2 && !ret; i++) {
		p->workers[i] = (struct worker){ .pinger = p, .cpu = -1 };
		if (pthread_create(&p->workers[i].thread, NULL, work,
				   &p->workers[i])) {
			atomic_store(&p->quit, 1);
			next_generation(&p->generation);
			if (i)
				pthread_join(p->workers[0].thread, NULL);
			free(p);
			ret = -EAGAIN;
		}
	}
	pthread_sigmask(SIG_SETMASK, &previous, NULL);
	if (!ret)
		*out = p;
	return ret;
}

void cp_c2c_pinger_stop(struct cp_c2c_pinger *pinger)
{
	if (!pinger)
		return;
	atomic_store(&pinger->quit, 1);
	next_generation(&pinger->generation);
	for (int i = 0; i < 2; i++)
		pthread_join(pinger->workers[i].thread, NULL);
	free(pinger);
}

unsigned int cp_c2c_pinger_moves(const struct cp_c2c_pinger *pinger)
{
	return pinger->moves;
}

/* Worker 0 keeps its CPU when it is in the pair, else worker 1 does. */
static void assign(struct cp_c2c_pinger *p, const struct cp_c2c_job *job)
{
	unsigned int home = job->home_is_responder ? job->responder
						   : job->initiator;
	int keep0 = p->workers[0].cpu == (int)job->initiator ||
		    p->workers[0].cpu == (int)job->responder;
	int w0_initiator = keep0 ? p->workers[0].cpu == (int)job->initiator
				 : p->workers[1].cpu == (int)job->responder;

	p->workers[0].want_cpu = w0_initiator ? job->initiator : job->responder;
	p->workers[1].want_cpu = w0_initiator ? job->responder : job->initiator;
	p->workers[0].initiator = w0_initiator;
	p->workers[1].initiator = !w0_initiator;
	p->workers[0].places = p->workers[0].want_cpu == home;
	p->workers[1].places = !p->workers[0].places;
}

/* @n pages on @home's node: bound with hwloc where there are several
 * nodes, else left to the first touch. */
static volatile uint64_t *place_lines(const struct cp_topology *topology,
				      unsigned int home, unsigned int n,
				      struct cp_c2c_placement *placement)
{
	hwloc_topology_t hwloc = topology->hwloc;
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(hwloc, home);
	void *page;

	placement->node = -1;
	placement->membind = false;
	if (pu && pu->nodeset)
		placement->node = hwloc_bitmap_first(pu->nodeset);
	if (pu && pu->nodeset && topology->nr_numa_nodes > 1) {
		page = hwloc_alloc_membind(hwloc, (size_t)n * LINE_BYTES,
					   pu->nodeset,
					   HWLOC_MEMBIND_BIND,
					   HWLOC_MEMBIND_BYNODESET);
		if (page) {
			placement->membind = true;
			return page;
		}
	}
	page = mmap(NULL, (size_t)n * LINE_BYTES, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return page == MAP_FAILED ? NULL : page;
}

static void free_lines(const struct cp_topology *topology,
		       volatile uint64_t *lines, unsigned int n,
		       const struct cp_c2c_placement *placement)
{
	if (placement->membind)
		hwloc_free(topology->hwloc, (void *)lines,
			   (size_t)n * LINE_BYTES);
	else
		munmap((void *)lines, (size_t)n * LINE_BYTES);
}

int cp_c2c_pinger_run(struct cp_c2c_pinger *pinger,
		      const struct cp_c2c_job *job, uint64_t *ticks,
		      uint64_t *segment_ticks,
		      struct cp_c2c_placement *placement, unsigned int *taken,
		      unsigned int *failed_cpu, bool (*stop)(void))
{
	struct cp_c2c_pinger *p = pinger;
	int ret = 0;

	p->nr_lines = cp_c2c_pool_lines(job->samples);
	p->lines = place_lines(p->topology,
			       job->home_is_responder ? job->responder
						      : job->initiator,
			       p->nr_lines, placement);
	if (!p->lines)
		return -ENOMEM;
	p->job = job;
	p->ticks = ticks;
	p->segment_ticks = segment_ticks;
	assign(p, job);
	atomic_store(&p->arrived, 0);
	atomic_store(&p->placed, 0);
	atomic_store(&p->abandon, 0);
	atomic_store(&p->ended, 0);
	p->taken = 0;
	next_generation(&p->generation);
	/* Sleep, not spin, and seldom: this thread must leave the CPUs to
	 * the two (every wake-up could preempt one of them mid-trip). */
	while (atomic_load(&p->arrived) != 4) {
		if (stop && stop())
			atomic_store(&p->abandon, 1);
		usleep(2000);
	}
	if (atomic_load(&p->abandon) && !atomic_load(&p->ended))
		ret = -EINTR;
	*taken = p->taken;
	for (int i = 0; i < 2 && !ret; i++) {
		if (p->workers[i].error) {
			*failed_cpu = p->workers[i].want_cpu;
			ret = -EINVAL;
		}
	}
	free_lines(p->topology, p->lines, p->nr_lines, placement);
	return ret;
}
