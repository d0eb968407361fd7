// SPDX-License-Identifier: GPL-2.0
/*
 * The figures of libcacheprobe's performance targets, measured side by
 * side in one run (`make targets` prints them): the planned garbage
 * evict's residual warmth and speed against a stream of the same bytes
 * and against the naive read, the library's own cost a call, verify's
 * time and its view of warm and flushed buffers, and what the evict and
 * exec commands add.
 *
 * Usage: library-targets PATH-OF-cacheprobe-run [REPETITIONS]
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cacheprobe.h"
#include "evict/coldcache_garbage.h"
#include "evict/coldcache_plan.h"
#include "evict/garbage_readers.h"
#include "stats/stats.h"
#include "machine/topology.h"

#define NAIVE_BYTES CP_NAIVE_GARBAGE_BYTES
#define PROCESS_RUNS 5
#define EXEC_RUNS 50

extern char **environ;

static volatile uint64_t sink;

static double now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

static void warm(const char *buffer, size_t bytes)
{
	for (int lap = 0; lap < 4; lap++)
		for (size_t i = 0; i < bytes; i += 64)
			sink += *(const volatile char *)(buffer + i);
}

static char *populated(size_t bytes)
{
	char *buffer = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buffer == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	memset(buffer, 0x5a, bytes);
	return buffer;
}

static const char *met(bool ok)
{
	return ok ? "met" : "NOT MET";
}

static void must(int ret, const char *what)
{
	if (ret) {
		fprintf(stderr, "library-targets: %s: %s\n", what,
			cacheprobe_last_error());
		exit(1);
	}
}

/* What one way of evicting did to one buffer size over the repetitions. */
struct outcome {
	double worst_ppm;
	double median_ns;
};

typedef void (*evict_fn)(void *context, const char *buffer, size_t bytes);

static void library_evict(void *ctx, const char *buffer, size_t bytes)
{
	(void)buffer;
	(void)bytes;
	must(cacheprobe_evict(ctx), "evict");
}

/* The buffer's own lines flushed: the coldest a verify can see. */
static void range_evict(void *ctx, const char *buffer, size_t bytes)
{
	must(cacheprobe_evict_range(ctx, buffer, bytes), "evict range");
}

/* The naive recipe: 64 MiB read on every CPU of this process in turn. */
static void naive_evict(void *naive, const char *buffer, size_t bytes)
{
	cpu_set_t previous, one;

	(void)buffer;
	(void)bytes;
	sched_getaffinity(0, sizeof(previous), &previous);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &previous))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
		sink += cp_garbage_read(naive, NAIVE_BYTES);
	}
	sched_setaffinity(0, sizeof(previous), &previous);
}

static struct outcome measure(struct cacheprobe_ctx *ctx, evict_fn evict,
			      void *context, size_t bytes, unsigned int reps)
{
	char *buffer = populated(bytes);
	double *ns = calloc(reps, sizeof(*ns));
	struct outcome out = { 0, 0 };
	struct cacheprobe_warmth warmth;

	for (unsigned int r = 0; r < reps; r++) {
		double start;

		warm(buffer, bytes);
		start = now_ns();
		evict(context, buffer, bytes);
		ns[r] = now_ns() - start;
		must(cacheprobe_verify_range(ctx, buffer, bytes, &warmth),
		     "verify");
		if (warmth.cached_ppm > out.worst_ppm)
			out.worst_ppm = warmth.cached_ppm;
	}
	out.median_ns = cp_stats_median(ns, reps);
	free(ns);
	munmap(buffer, bytes);
	return out;
}

/* Median ns of @reps single-thread reads, twice over, of @bytes. */
static double stream_ns(size_t bytes, unsigned int reps)
{
	char *buffer = populated(bytes);
	double *ns = calloc(reps, sizeof(*ns)), median;

	for (unsigned int r = 0; r < reps; r++) {
		double start = now_ns();

		for (int pass = 0; pass < CP_PLAN_PASSES; pass++)
			sink += cp_garbage_read(buffer, bytes);
		ns[r] = now_ns() - start;
	}
	median = cp_stats_median(ns, reps);
	free(ns);
	munmap(buffer, bytes);
	return median;
}

/* The readers woken for a plan whose slices are empty: the library's
 * coordination of a call, without the reading. */
static double empty_round_ns(unsigned int reps)
{
	struct cp_topology *topology;
	struct cp_eviction_plan plan;
	struct cp_readers *readers;
	struct cp_error error;
	double *ns = calloc(reps, sizeof(*ns)), median;
	char byte = 0;

	if (cp_topology_load(NULL, &topology, &error) ||
	    cp_plan_eviction(topology, NULL, 1, 0, &plan, &error) ||
	    cp_readers_start(&plan, &readers, &error)) {
		fprintf(stderr, "library-targets: %s\n", error.msg);
		exit(1);
	}
	for (size_t i = 0; i < plan.nr_readers; i++)
		plan.readers[i].offset = plan.readers[i].bytes = 0;
	for (unsigned int r = 0; r < reps; r++) {
		double start = now_ns();

		cp_readers_read(readers, &plan, &byte);
		ns[r] = now_ns() - start;
	}
	median = cp_stats_median(ns, reps);
	cp_readers_stop(readers);
	cp_plan_free(&plan);
	cp_topology_free(topology);
	free(ns);
	return median;
}

/* Median wall ns of @argv run to completion, @runs times, started as
 * exec starts its runs (posix_spawn), so the two compare. */
static double process_ns(char *const argv[], unsigned int runs)
{
	double *ns = calloc(runs, sizeof(*ns)), median;

	for (unsigned int r = 0; r < runs; r++) {
		double start = now_ns();
		pid_t child;
		int status;

		if (posix_spawn(&child, argv[0], NULL, NULL, argv, environ)) {
			perror(argv[0]);
			exit(1);
		}
		waitpid(child, &status, 0);
		ns[r] = now_ns() - start;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "library-targets: %s %s failed\n",
				argv[0], argv[1]);
			exit(1);
		}
	}
	median = cp_stats_median(ns, runs);
	free(ns);
	return median;
}

/* A garbage context at @factor (0: the default). */
static struct cacheprobe_ctx *open_garbage(double factor)
{
	struct cacheprobe_options *options = cacheprobe_options_new();
	struct cacheprobe_ctx *ctx;

	must(cacheprobe_options_set_method(options, CACHEPROBE_METHOD_GARBAGE),
	     "options");
	if (factor > 0)
		must(cacheprobe_options_set_garbage_factor(options, factor),
		     "options");
	must(cacheprobe_open(options, &ctx), "open");
	cacheprobe_options_free(options);
	return ctx;
}

static const size_t buffer_sizes[] = { 512u << 10, 4u << 20 };
#define NR_SIZES 2

/* Factors tried for the cheapest planned read as cold as naive's. */
static const double sweep_factors[] = { 0.0625, 0.125, 0.25, 0.5, 1, 2 };
#define NR_SWEEP (sizeof(sweep_factors) / sizeof(sweep_factors[0]))

/*
 * The target compares the planned read with the naive one at the same
 * worst-case warmth: the cheapest factor whose worst case at every size
 * is no warmer than naive's, and its time against naive's.
 */
static void report_as_cold_as_naive(const struct outcome *naive,
				    unsigned int reps)
{
	for (size_t f = 0; f < NR_SWEEP; f++) {
		struct cacheprobe_ctx *ctx = open_garbage(sweep_factors[f]);
		struct outcome planned[NR_SIZES];
		bool as_cold = true;

		for (size_t i = 0; i < NR_SIZES; i++) {
			planned[i] = measure(ctx, library_evict, ctx,
					     buffer_sizes[i], reps);
			as_cold &= planned[i].worst_ppm <= naive[i].worst_ppm;
		}
		cacheprobe_close(ctx);
		if (!as_cold && f + 1 < NR_SWEEP)
			continue;
		printf("  cheapest planned read as cold as naive in the worst "
		       "case: x%g (worst %.2f %% and %.2f %% against %.2f %% and "
		       "%.2f %%)%s\n", sweep_factors[f],
		       planned[0].worst_ppm / 1e4, planned[1].worst_ppm / 1e4,
		       naive[0].worst_ppm / 1e4, naive[1].worst_ppm / 1e4,
		       as_cold ? "" : ": none was, the largest shown");
		printf("      time %.3g ms, naive %.3g ms: naive/planned %.2fx "
		       "(target >= 1.5x: %s)\n", planned[1].median_ns / 1e6,
		       naive[1].median_ns / 1e6,
		       naive[1].median_ns / planned[1].median_ns,
		       met(as_cold &&
			   naive[1].median_ns >= 1.5 * planned[1].median_ns));
		return;
	}
}

/* The coldcache area's rule: evicted when the worst repetition left at
 * most 1 %, or no more than a point above what flushing the buffer's own
 * lines leaves to the same timer (its floor of lines read as cached). */
static bool evicted(const struct outcome *planned,
		    const struct outcome *flushed)
{
	return planned->worst_ppm <= 10000 ||
	       planned->worst_ppm <= flushed->worst_ppm + 10000;
}

static void report_warmth(struct cacheprobe_ctx *ctx, unsigned int reps,
			  double *planned_ns)
{
	char *naive_buffer = populated(NAIVE_BYTES);
	struct outcome naive[NR_SIZES];

	for (size_t i = 0; i < NR_SIZES; i++) {
		struct outcome planned = measure(ctx, library_evict, ctx,
						 buffer_sizes[i], reps);
		struct outcome flushed = measure(ctx, range_evict, ctx,
						 buffer_sizes[i], reps);

		naive[i] = measure(ctx, naive_evict, naive_buffer,
				   buffer_sizes[i], reps);
		printf("  %4zu KiB buffer, worst of %u: planned %.2f %% cached "
		       "in %.3g ms, its own lines flushed %.2f %% (target <= 1 "
		       "%% or as cold as flushed: %s); naive 64 MiB/CPU %.2f %% "
		       "in %.3g ms\n", buffer_sizes[i] >> 10, reps,
		       planned.worst_ppm / 1e4, planned.median_ns / 1e6,
		       flushed.worst_ppm / 1e4, met(evicted(&planned, &flushed)),
		       naive[i].worst_ppm / 1e4, naive[i].median_ns / 1e6);
		*planned_ns = planned.median_ns;
	}
	munmap(naive_buffer, NAIVE_BYTES);
	report_as_cold_as_naive(naive, reps);
}

static void report_costs(struct cacheprobe_ctx *ctx, unsigned int reps,
			 double planned_ns)
{
	uint64_t read = cacheprobe_garbage_bytes(ctx);
	double stream = stream_ns(read / CP_PLAN_PASSES, reps);
	double empty = empty_round_ns(reps * 10);

	printf("  bandwidth over %llu MiB: planned %.1f GB/s, one-thread "
	       "stream %.1f GB/s: %.0f %% (target >= 80 %%: %s)\n",
	       (unsigned long long)(read >> 20), read / planned_ns,
	       read / stream, stream / planned_ns * 100,
	       met(stream / planned_ns >= 0.8));
	printf("  the library's own cost: %.1f us of a %.3g ms call: %.3f %% "
	       "(target <= 5 %%: %s)\n", empty / 1e3, planned_ns / 1e6,
	       empty / planned_ns * 100, met(empty <= 0.05 * planned_ns));
}

static void report_verify(struct cacheprobe_ctx *ctx, unsigned int reps)
{
	size_t bytes = 4u << 20;
	char *buffer = populated(bytes);
	double *ns = calloc(reps, sizeof(*ns)), worst = 0, median;
	double warm_ppm = 0, flushed_ppm = 0;
	struct cacheprobe_warmth warmth;

	for (unsigned int r = 0; r < reps; r++) {
		double start;

		warm(buffer, bytes);
		start = now_ns();
		must(cacheprobe_verify_range(ctx, buffer, bytes, &warmth),
		     "verify");
		ns[r] = now_ns() - start;
		worst = ns[r] > worst ? ns[r] : worst;
		warm_ppm += warmth.cached_ppm;
		warm(buffer, bytes);
		must(cacheprobe_evict_range(ctx, buffer, bytes), "evict range");
		must(cacheprobe_verify_range(ctx, buffer, bytes, &warmth),
		     "verify");
		flushed_ppm += warmth.cached_ppm;
	}
	median = cp_stats_median(ns, reps);
	printf("  verify of 4 MiB: median %.2f ms, slowest %.2f ms (target "
	       "<= 10 ms: %s)\n", median / 1e6, worst / 1e6,
	       met(worst <= 10e6));
	printf("      mean share cached: warm %.1f %%, after clflush %.1f %% "
	       "(levels: %s ... %s)\n", warm_ppm / reps / 1e4,
	       flushed_ppm / reps / 1e4, warmth.levels[0].name,
	       warmth.levels[warmth.nr_levels - 1].name);
	free(ns);
	munmap(buffer, bytes);
}

/* A server (evict --serve) on a socket of a fresh directory, once it
 * listens (it makes the socket when set up); its pid. */
static pid_t start_server(char *program, char *socket_path)
{
	char *serve[] = { program, "evict", "--serve", socket_path, "--quiet",
			  "--method", "garbage", NULL };
	struct stat st;
	pid_t server;
	int tries = 0;

	if (posix_spawn(&server, program, NULL, NULL, serve, environ)) {
		perror(program);
		exit(1);
	}
	while (stat(socket_path, &st) && tries++ < 1200)
		usleep(100000);
	/* Bound before it listens: a moment more. */
	usleep(100000);
	if (tries > 1200) {
		fprintf(stderr, "library-targets: the evict server did not start\n");
		kill(server, SIGTERM);
		exit(1);
	}
	return server;
}

static double served_ns(char *program)
{
	char dir[] = "/tmp/library-targets-XXXXXX", socket_path[64];
	char *ask[] = { program, "evict", "--connect", socket_path, "--quiet",
			NULL };
	double ns;
	pid_t server;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(socket_path, sizeof(socket_path), "%s/s", dir);
	server = start_server(program, socket_path);
	ns = process_ns(ask, PROCESS_RUNS);
	kill(server, SIGTERM);
	waitpid(server, NULL, 0);
	rmdir(dir);
	return ns;
}

static void report_commands(char *program, double planned_ns)
{
	char *evict[] = { program, "evict", "--quiet", "--method", "garbage",
			  NULL };
	char *exec_one[] = { program, "exec", "--warm", "-n", "1", "--quiet",
			     "--", "/bin/true", NULL };
	char *exec_many[] = { program, "exec", "--warm", "-n", "51",
			      "--quiet", "--", "/bin/true", NULL };
	char *plain[] = { "/bin/true", NULL };
	double process = process_ns(evict, PROCESS_RUNS);
	double served = served_ns(program);
	double one = process_ns(exec_one, PROCESS_RUNS);
	double many = process_ns(exec_many, PROCESS_RUNS);
	double command = process_ns(plain, EXEC_RUNS);
	double added = (many - one) / (EXEC_RUNS) - command;

	printf("  evict as a process: %.3g ms, the library's call %.3g ms: "
	       "%.1fx (target <= 1.3x: %s)\n", process / 1e6,
	       planned_ns / 1e6, process / planned_ns,
	       met(process <= 1.3 * planned_ns));
	printf("      with --connect to an evict --serve: %.3g ms: %.2fx "
	       "(target <= 1.3x: %s)\n", served / 1e6, served / planned_ns,
	       met(served <= 1.3 * planned_ns));
	printf("  exec: %.3f ms a run beyond the command's %.3f ms (target "
	       "<= 1 ms: %s)\n", added / 1e6, command / 1e6,
	       met(added <= 1e6));
}

int main(int argc, char **argv)
{
	unsigned int reps = argc > 2 ? (unsigned int)atoi(argv[2]) : 20;
	struct cacheprobe_ctx *ctx;
	double planned_ns = 0;

	if (argc < 2 || reps < 3) {
		fprintf(stderr,
			"usage: library-targets PATH-OF-cacheprobe-run [REPETITIONS >= 3]\n");
		return 2;
	}
	ctx = open_garbage(0);
	printf("libcacheprobe (garbage, %llu MiB read a call)\n",
	       (unsigned long long)(cacheprobe_garbage_bytes(ctx) >> 20));
	report_warmth(ctx, reps, &planned_ns);
	report_costs(ctx, reps, planned_ns);
	report_verify(ctx, reps);
	cacheprobe_close(ctx);
	report_commands(argv[1], planned_ns);
	return 0;
}
