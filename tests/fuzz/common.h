/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the in-guest fuzzers nlfuzz and iocfuzz: a seeded PRNG (so a
 * printed seed reproduces a run exactly), errno histograms, a progress
 * watchdog and the privilege drop.  Header-only so that each fuzzer builds
 * from one command line.
 */
#ifndef CACHEPROBE_FUZZ_COMMON_H
#define CACHEPROBE_FUZZ_COMMON_H

#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/rng.h"

#define NOBODY_ID 65534

/* The project's SplitMix64: tiny, fast under emulation, good enough. */
struct rng {
	__u64 s;
};

static inline uint64_t rng_next(struct rng *r)
{
	return cp_splitmix64(&r->s);
}

/* Uniform enough in [0, n); n == 0 yields 0. */
static inline uint32_t rng_below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rng_next(r) % n) : 0;
}

static inline bool rng_pct(struct rng *r, unsigned int percent)
{
	return rng_below(r, 100) < percent;
}

static inline void rng_fill(struct rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)rng_next(r);
}

/* Picks one of an array's elements. */
#define RNG_PICK(r, arr) ((arr)[rng_below((r), sizeof(arr) / sizeof((arr)[0]))])

/*
 * Kernel-internal codes (ERESTARTSYS 512 .. ENOTSUPP 524 and up) must
 * never reach user space: seeing one is a module bug, so they get their
 * own bucket and the fuzzers fail on it.
 */
#define ERRNO_USER_MAX 512
#define ERRNO_BUCKETS (ERRNO_USER_MAX + 1)

struct errno_hist {
	unsigned long n[ERRNO_BUCKETS];
};

static inline void hist_add(struct errno_hist *h, int err)
{
	h->n[err > 0 && err < ERRNO_USER_MAX ? err : ERRNO_USER_MAX]++;
}

static inline const char *errno_label(int err, char *buf, size_t len)
{
	const char *name = err < ERRNO_USER_MAX ? strerrorname_np(err) : NULL;

	if (name)
		return name;
	snprintf(buf, len, "errno%d", err);
	return buf;
}

/* "EINVAL=12 EFAULT=3" (or "none"), one line. */
static inline void hist_print(const char *label, const struct errno_hist *h)
{
	char buf[32];
	bool any = false;

	printf("  %s:", label);
	for (int e = 1; e < ERRNO_BUCKETS; e++) {
		if (!h->n[e])
			continue;
		printf(" %s=%lu", e == ERRNO_USER_MAX ? "kernel-internal" :
		       errno_label(e, buf, sizeof(buf)), h->n[e]);
		any = true;
	}
	printf("%s\n", any ? "" : " none");
}

static inline double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Watchdog: if one operation blocks for a minute the kernel is stuck in
 * it; name the operation's index so that the input can be reproduced
 * (--seed, --count N+1, --dump N) before the host-side timeout kills all.
 */
static volatile sig_atomic_t watchdog_index;

static inline void watchdog_fire(int sig)
{
	char msg[96];
	int len = snprintf(msg, sizeof(msg),
			   "FUZZ-STUCK: operation %ld did not return within 60 s\n",
			   (long)watchdog_index);

	(void)sig;
	if (len > 0 && write(STDOUT_FILENO, msg, (size_t)len) < 0)
		_exit(4);
	_exit(3);
}

static inline void watchdog_start(void)
{
	signal(SIGALRM, watchdog_fire);
}

/* Re-armed every 256 operations: cheap, and still names a stuck one. */
static inline void watchdog_tick(long index)
{
	watchdog_index = index;
	if ((index & 255) == 0)
		alarm(60);
}

/*
 * A line every 20000 operations: if the kernel dies, the console shows how
 * far the run got, so a replay (--count) can stop just past the culprit.
 */
static inline void progress(const char *prog, const char *who, long index)
{
	if (index && index % 20000 == 0)
		printf("%s[%s]: %ld done\n", prog, who, index);
}

static inline void watchdog_stop(void)
{
	alarm(0);
}

/* Root to uid/gid 65534 with no supplementary groups (hence no caps). */
static inline int drop_privileges(void)
{
	if (setgroups(0, NULL) || setgid(NOBODY_ID) || setuid(NOBODY_ID))
		return -1;
	return getuid() == NOBODY_ID && geteuid() == NOBODY_ID &&
	       getgid() == NOBODY_ID ? 0 : -1;
}

/* Waits for @pid; its exit status, or 128 + signal. */
static inline int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* Common command line: --count N --seed S --as root|nobody|both --dump N. */
struct fuzz_args {
	unsigned long count;
	uint64_t seed;
	int as;		/* bit 0 root, bit 1 nobody */
	long dump;	/* index of the operation to hex-dump, -1 for none */
};

static inline int parse_args(int argc, char **argv, struct fuzz_args *a,
			     unsigned long default_count)
{
	a->count = default_count;
	a->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	a->as = 3;
	a->dump = -1;
	for (int i = 1; i + 1 < argc; i += 2) {
		const char *v = argv[i + 1];

		if (!strcmp(argv[i], "--count"))
			a->count = strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--seed"))
			a->seed = strtoull(v, NULL, 0);
		else if (!strcmp(argv[i], "--dump"))
			a->dump = strtol(v, NULL, 0);
		else if (!strcmp(argv[i], "--as"))
			a->as = !strcmp(v, "root") ? 1 : !strcmp(v, "nobody") ?
				2 : !strcmp(v, "both") ? 3 : 0;
		else
			return -1;
	}
	return (argc % 2 == 1 && a->as && a->count) ? 0 : -1;
}

static inline void hexdump(const char *what, long index, const void *buf,
			   size_t len)
{
	const unsigned char *p = buf;

	printf("dump of %s %ld (%zu bytes):", what, index, len);
	for (size_t i = 0; i < len; i++)
		printf("%s%02x", i % 32 ? " " : "\n  ", p[i]);
	printf("\n");
}

#endif
