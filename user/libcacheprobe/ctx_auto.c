// SPDX-License-Identifier: GPL-2.0
/*
 * AUTO: WBINVD through the module only where it is shown to evict here.
 * Under a hypervisor WBINVD may be ignored (KVM without assigned devices
 * makes it a no-op), and an emulator has no caches to flush: trusting the
 * instruction there would hand out warm caches labelled cold.  So a
 * buffer is warmed, verified cached, flushed with WBINVD on this CPU and
 * verified again; anything short of evicted falls back to the planned
 * garbage read, and the reason says what was seen.
 */
#include "libcacheprobe/context.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "machine/cpuset.h"

#define PROBE_BYTES (256u << 10)
#define PROBE_WARM_LAPS 4
/* Warm must show at least this much cached for the check to mean
 * anything; after WBINVD at most this much may stay. */
#define WARM_MIN_PPM 500000
#define EVICTED_MAX_PPM 10000

static volatile uint64_t probe_sink;

static void warm(const char *probe)
{
	for (int lap = 0; lap < PROBE_WARM_LAPS; lap++)
		for (size_t i = 0; i < PROBE_BYTES; i += 64)
			probe_sink += *(const volatile char *)(probe + i);
}

static int fall_back(struct cacheprobe_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fall_back(struct cacheprobe_ctx *ctx, const char *fmt, ...)
{
	size_t used;
	va_list args;

	va_start(args, fmt);
	used = (size_t)vsnprintf(ctx->reason, sizeof(ctx->reason), fmt, args);
	va_end(args);
	if (used < sizeof(ctx->reason))
		snprintf(ctx->reason + used, sizeof(ctx->reason) - used,
			 ": garbage read planned from the cache topology");
	if (ctx->client)
		cp_client_close(ctx->client);
	ctx->client = NULL;
	return ctx_garbage_setup(ctx);
}

/* Warm, verify, WBINVD on this CPU, verify: the two shares. */
static int check_wbinvd(struct cacheprobe_ctx *ctx, char *probe,
			struct cacheprobe_warmth *warm_share,
			struct cacheprobe_warmth *flushed_share)
{
	struct cp_cpuset *here = cp_cpuset_new(CPU_SETSIZE);
	int cpu = sched_getcpu(), ret;

	if (!here || cpu < 0) {
		cp_cpuset_free(here);
		return -ENOMEM;
	}
	cp_cpuset_set(here, (unsigned int)cpu);
	warm(probe);
	ret = ctx_verify(ctx, probe, PROBE_BYTES, warm_share);
	if (!ret) {
		warm(probe);
		ret = ctx_module_flush(ctx, CACHEPROBE_METHOD_WBINVD, here);
	}
	if (!ret)
		ret = ctx_verify(ctx, probe, PROBE_BYTES, flushed_share);
	cp_cpuset_free(here);
	return ret;
}

/* The check pinned to one CPU, so warming, flushing and timing meet the
 * same caches. */
static int check_pinned(struct cacheprobe_ctx *ctx, char *probe,
			struct cacheprobe_warmth *warm_share,
			struct cacheprobe_warmth *flushed_share)
{
	cpu_set_t previous, here;
	int cpu = sched_getcpu(), ret;

	if (cpu < 0 || sched_getaffinity(0, sizeof(previous), &previous))
		return -errno;
	CPU_ZERO(&here);
	CPU_SET(cpu, &here);
	if (sched_setaffinity(0, sizeof(here), &here))
		return -errno;
	ret = check_wbinvd(ctx, probe, warm_share, flushed_share);
	sched_setaffinity(0, sizeof(previous), &previous);
	return ret;
}

static int judge(struct cacheprobe_ctx *ctx,
		 const struct cacheprobe_warmth *warm_share,
		 const struct cacheprobe_warmth *flushed_share)
{
	double warm_pct = warm_share->cached_ppm / 1e4;
	double flushed_pct = flushed_share->cached_ppm / 1e4;

	if (warm_share->cached_ppm < WARM_MIN_PPM)
		return fall_back(ctx,
				 "WBINVD could not be checked: a warmed %u KiB buffer showed only %.1f %% cached",
				 PROBE_BYTES >> 10, warm_pct);
	if (flushed_share->cached_ppm > EVICTED_MAX_PPM)
		return fall_back(ctx,
				 "WBINVD does not evict here (a hypervisor may ignore it): it left %.1f %% of a warmed %u KiB buffer cached",
				 flushed_pct, PROBE_BYTES >> 10);
	ctx->method = CACHEPROBE_METHOD_WBINVD;
	snprintf(ctx->reason, sizeof(ctx->reason),
		 "WBINVD through the cacheprobe module (%s), checked: a warmed %u KiB buffer went from %.1f %% to %.1f %% cached",
		 cp_client_transport_name(ctx->client), PROBE_BYTES >> 10,
		 warm_pct, flushed_pct);
	return 0;
}

int ctx_auto_choose(struct cacheprobe_ctx *ctx)
{
	struct cacheprobe_warmth warm_share, flushed_share;
	char *probe;
	int ret;

	if (ctx_module_connect(ctx, CACHEPROBE_METHOD_WBINVD))
		return fall_back(ctx, "%s", cacheprobe_last_error());
	ret = ctx_module_flush(ctx, CACHEPROBE_METHOD_WBINVD, ctx->cpus);
	if (ret)
		return fall_back(ctx, "%s", cacheprobe_last_error());
	probe = mmap(NULL, PROBE_BYTES, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (probe == MAP_FAILED)
		return ctx_fail(ENOMEM, "no memory for the WBINVD check");
	ret = check_pinned(ctx, probe, &warm_share, &flushed_share);
	munmap(probe, PROBE_BYTES);
	if (ret)
		return fall_back(ctx, "WBINVD could not be checked: %s",
				 cacheprobe_last_error());
	return judge(ctx, &warm_share, &flushed_share);
}
