// SPDX-License-Identifier: GPL-2.0
#include "cli/evict_probe.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* Laps over the probe before each verify: enough that the caches hold
 * what they will of it. */
#define WARM_LAPS 4

/* Rounds tried when interruptions spoil a verify. */
#define INTERRUPTED_TRIES 3

static volatile uint64_t probe_sink;

static double now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

static void warm(const char *probe, uint64_t bytes)
{
	for (int lap = 0; lap < WARM_LAPS; lap++)
		for (uint64_t i = 0; i < bytes; i += 64)
			probe_sink += *(const volatile char *)(probe + i);
}

static int timed_evict(struct cacheprobe_ctx *ctx, double *ns)
{
	double start = now_ns();
	int ret = cacheprobe_evict(ctx);

	*ns = now_ns() - start;
	return ret;
}

static int probe_and_evict(struct cacheprobe_ctx *ctx, char *probe,
			   struct evict_outcome *out)
{
	int ret;

	/* The probe is the method's range for clflush. */
	if (cacheprobe_method(ctx) == CACHEPROBE_METHOD_CLFLUSH) {
		ret = cacheprobe_add_range(ctx, probe, out->probe_bytes);
		if (ret)
			return ret;
	}
	warm(probe, out->probe_bytes);
	ret = cacheprobe_verify_range(ctx, probe, out->probe_bytes, &out->warm);
	if (ret)
		return ret;
	warm(probe, out->probe_bytes);
	ret = timed_evict(ctx, &out->evict_ns);
	if (ret)
		return ret;
	return cacheprobe_verify_range(ctx, probe, out->probe_bytes,
				       &out->evicted);
}

int evict_once(struct cacheprobe_ctx *ctx, uint64_t probe_bytes,
	       struct evict_outcome *out)
{
	char *probe;
	int ret;

	memset(out, 0, sizeof(*out));
	out->probe_cpu = sched_getcpu();
	if (!probe_bytes)
		return timed_evict(ctx, &out->evict_ns);
	probe = mmap(NULL, probe_bytes, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (probe == MAP_FAILED)
		return -errno;
	/* Written, so every page is a page of its own, not the zero page. */
	memset(probe, 0x5a, probe_bytes);
	out->probe_bytes = probe_bytes;
	/* A verify spoiled by interruptions read the probe: warm and evict
	 * again rather than fail a command made for shell loops. */
	for (int try = 0; try < INTERRUPTED_TRIES; try++) {
		ret = probe_and_evict(ctx, probe, out);
		if (ret != -EINTR)
			break;
	}
	munmap(probe, probe_bytes);
	return ret;
}
