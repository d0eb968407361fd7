// SPDX-License-Identifier: GPL-2.0
/*
 * range: make one buffer of a program's own cold with libcacheprobe, and
 * check on this machine that it really went cold.
 *
 * Each round warms the buffer and verifies it (mostly cached), evicts it
 * with cacheprobe_evict_range() (CLFLUSHOPT, else CLFLUSH, over its lines
 * only) and verifies it again (mostly memory); both verdicts are printed
 * per level.  A verdict is a sample of single loads, each of which an
 * interrupt or a neighbour on a shared host can slow down, so the judgment
 * is on the median over the rounds, not on one of them.
 *
 * Usage: range [SIZE_KIB]
 * The default, 256 KiB, is 64 pages: the smallest buffer verify samples
 * one line a page, out of the hardware prefetchers' reach (they stop at a
 * page's end), and it fits the L2 of recent x86-64 CPUs.
 *
 * Exit status:
 *   0   the evicted buffer is less cached than the warm one (medians)
 *   1   it is not: evict-range left it at least as warm
 *   2   bad usage, or a library call failed
 *   77  cannot verify here: the line timer tells no cache level from
 *       memory (an emulator, for one); nothing was judged
 * (77 is the "skipped" status of automake's test drivers.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cacheprobe.h>

#define EXIT_NOT_COLDER 1
#define EXIT_USAGE 2
#define EXIT_CANNOT_VERIFY 77
#define ROUNDS 5
#define VERIFY_ATTEMPTS 5

static void print_warmth(int round, const char *label,
			 const struct cacheprobe_warmth *w)
{
	printf("%d %-5s %5.1f%% cached (%3" PRIu32 " lines):", round, label,
	       w->cached_ppm / 1e4, w->lines_timed);
	for (uint32_t i = 0; i < w->nr_levels; i++)
		printf(" %s %.1f%%", w->levels[i].name, w->levels[i].ppm / 1e4);
	printf("\n");
}

/*
 * Reads every line, as the program that just used the buffer would have.
 * The sum goes through a volatile so the compiler keeps the reads.
 */
static void warm(const unsigned char *buf, size_t len)
{
	volatile unsigned long sink;
	unsigned long sum = 0;

	for (size_t i = 0; i < len; i += 64)
		sum += buf[i];
	sink = sum;
	(void)sink;
}

/*
 * Warms (@cold false) or evicts (@cold true) the buffer, then verifies it.
 * -EINTR says interruptions spoiled the timing; the library asks for the
 * buffer to be prepared and verified again, so a few attempts are made.
 * -EOPNOTSUPP passes through for main() to tell "cannot verify here" from
 * an error.
 */
static int prepare_and_verify(struct cacheprobe_ctx *ctx, unsigned char *buf,
			      size_t len, bool cold,
			      struct cacheprobe_warmth *out)
{
	int err = 0;

	for (int attempt = 0; attempt < VERIFY_ATTEMPTS; attempt++) {
		if (!cold) {
			warm(buf, len);
		} else {
			err = cacheprobe_evict_range(ctx, buf, len);
			if (err)
				break;
		}
		err = cacheprobe_verify_range(ctx, buf, len, out);
		if (err != -EINTR)
			break;
	}
	if (err)
		fprintf(stderr, "range: %s\n", cacheprobe_last_error());
	return err;
}

static int compare_ppm(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static uint32_t median(uint32_t *ppm, size_t n)
{
	qsort(ppm, n, sizeof(*ppm), compare_ppm);
	return ppm[n / 2];
}

/* The CLFLUSH method: the only eviction used here is evict-range, and a
 * CLFLUSH context sets up nothing at open (GARBAGE, AUTO's fallback, would
 * allocate its garbage and start its readers for nothing). */
static int open_clflush(struct cacheprobe_ctx **ctx)
{
	struct cacheprobe_options *options = cacheprobe_options_new();
	int err;

	if (!options)
		return -ENOMEM;
	err = cacheprobe_options_set_method(options, CACHEPROBE_METHOD_CLFLUSH);
	if (!err)
		err = cacheprobe_open(options, ctx);
	cacheprobe_options_free(options);
	return err;
}

int main(int argc, char **argv)
{
	uint32_t warm_ppm[ROUNDS], cold_ppm[ROUNDS], warm_median, cold_median;
	struct cacheprobe_warmth warmth;
	struct cacheprobe_ctx *ctx;
	unsigned long kib = 256;
	unsigned char *buf;
	int cpu, err = 0, status;
	cpu_set_t one;
	size_t len;

	if (argc > 2 || (argc == 2 && (sscanf(argv[1], "%lu", &kib) != 1 ||
				       kib == 0 || kib > (1UL << 20)))) {
		fprintf(stderr, "usage: range [SIZE_KIB]   (1 to 1048576)\n");
		return EXIT_USAGE;
	}
	len = kib * 1024;

	/*
	 * Stay on one CPU: the buffer is warmed in this CPU's private caches
	 * and verify must find it there; a migration in between would make
	 * the warm buffer look cold.
	 */
	cpu = sched_getcpu();
	if (cpu >= 0) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			perror("range: sched_setaffinity (continuing unpinned)");
	}

	if (open_clflush(&ctx)) {
		fprintf(stderr, "range: open: %s\n", cacheprobe_last_error());
		return EXIT_USAGE;
	}
	buf = aligned_alloc(4096, len);
	if (!buf) {
		fprintf(stderr, "range: cannot allocate %lu KiB\n", kib);
		cacheprobe_close(ctx);
		return EXIT_USAGE;
	}
	/* Written once so every page is faulted in before anything is timed. */
	memset(buf, 1, len);
	printf("range: %lu KiB buffer on CPU %d, libcacheprobe %s, %d rounds\n",
	       kib, cpu, cacheprobe_version(), ROUNDS);

	for (int round = 0; round < ROUNDS && !err; round++) {
		err = prepare_and_verify(ctx, buf, len, false, &warmth);
		if (err)
			break;
		print_warmth(round + 1, "warm", &warmth);
		warm_ppm[round] = warmth.cached_ppm;
		err = prepare_and_verify(ctx, buf, len, true, &warmth);
		if (err)
			break;
		print_warmth(round + 1, "cold", &warmth);
		cold_ppm[round] = warmth.cached_ppm;
	}

	if (err == -EOPNOTSUPP) {
		printf("range: cannot verify here; nothing judged (exit %d)\n",
		       EXIT_CANNOT_VERIFY);
		status = EXIT_CANNOT_VERIFY;
	} else if (err) {
		status = EXIT_USAGE;
	} else {
		warm_median = median(warm_ppm, ROUNDS);
		cold_median = median(cold_ppm, ROUNDS);
		status = cold_median < warm_median ? EXIT_SUCCESS
						   : EXIT_NOT_COLDER;
		printf("range: median %.1f%% cached warm, %.1f%% after evict-range: %s\n",
		       warm_median / 1e4, cold_median / 1e4,
		       status ? "NOT colder" : "colder");
	}
	free(buf);
	cacheprobe_close(ctx);
	return status;
}
