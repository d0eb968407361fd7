// SPDX-License-Identifier: GPL-2.0
/*
 * AUTO: WBINVD through the module only where it is shown to evict here.
 * Under a hypervisor WBINVD may be ignored (KVM without assigned devices
 * makes it a no-op), and an emulator has no caches to flush: trusting the
 * instruction there would hand out warm caches labelled cold.  So a
 * buffer is warmed and verified cached; warmed, passed through a call
 * into the module that evicts nothing (WBNOINVD where the CPU has it
 * and no hypervisor may trap it as WBINVD, else the module's info), and
 * verified still cached;
 * warmed, flushed with WBINVD on this CPU, and verified evicted.  The
 * idle call tells WBINVD's work from the call's: under QEMU's emulation
 * the call alone made the buffer time as evicted, and the check once
 * took that for WBINVD.  The whole check is taken twice and judged on
 * the worst of each share, as one lucky timing is not evidence; anything
 * short of evicted falls back to the planned garbage read, and the
 * reason says what was seen.
 */
#include "libcacheprobe/context.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
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

/* The shares of the buffer cached, the worst over the trials. */
struct wbinvd_check {
	uint32_t warm_ppm;	/* after warming: the least */
	uint32_t idle_ppm;	/* after warming and the idle call: the least */
	uint32_t flushed_ppm;	/* after warming and WBINVD: the most */
};

#define CHECK_TRIALS 2

/* Warm, then @step (NULL: nothing), then verify: the share cached. */
static int warm_step_verify(struct cacheprobe_ctx *ctx, char *probe,
			    int (*step)(struct cacheprobe_ctx *ctx,
					const struct cp_cpuset *here),
			    const struct cp_cpuset *here, uint32_t *cached_ppm)
{
	struct cacheprobe_warmth share;
	int ret;

	/* An interruption across the timed lines is taken once more: six
	 * verifies in a row meet one more often than a single one. */
	for (int attempt = 0; attempt < 2; attempt++) {
		warm(probe);
		ret = step ? step(ctx, here) : 0;
		if (!ret)
			ret = ctx_verify(ctx, probe, PROBE_BYTES, &share);
		if (ret != -EINTR)
			break;
	}
	if (!ret)
		*cached_ppm = share.cached_ppm;
	return ret;
}

static int flush_here(struct cacheprobe_ctx *ctx, const struct cp_cpuset *here)
{
	return ctx_module_flush(ctx, CACHEPROBE_METHOD_WBINVD, here);
}

static int check_trial(struct cacheprobe_ctx *ctx, char *probe,
		       const struct cp_cpuset *here, struct wbinvd_check *seen)
{
	uint32_t warm_ppm, idle_ppm, flushed_ppm;
	int ret = warm_step_verify(ctx, probe, NULL, here, &warm_ppm);

	if (!ret)
		ret = warm_step_verify(ctx, probe, ctx_module_call_idle, here,
				       &idle_ppm);
	if (!ret)
		ret = warm_step_verify(ctx, probe, flush_here, here,
				       &flushed_ppm);
	if (ret)
		return ret;
	if (warm_ppm < seen->warm_ppm)
		seen->warm_ppm = warm_ppm;
	if (idle_ppm < seen->idle_ppm)
		seen->idle_ppm = idle_ppm;
	if (flushed_ppm > seen->flushed_ppm)
		seen->flushed_ppm = flushed_ppm;
	return 0;
}

static int check_wbinvd(struct cacheprobe_ctx *ctx, char *probe,
			struct wbinvd_check *seen)
{
	int cpu = sched_getcpu(), ret = 0;
	struct cp_cpuset *here;

	if (cpu < 0)
		return ctx_fail(errno, "cannot tell which CPU this thread is on");
	here = cp_cpuset_new(CPU_SETSIZE);
	if (!here)
		return ctx_fail(ENOMEM, "no memory for the WBINVD check");
	cp_cpuset_set(here, (unsigned int)cpu);
	*seen = (struct wbinvd_check){ .warm_ppm = UINT32_MAX,
				       .idle_ppm = UINT32_MAX };
	for (int trial = 0; trial < CHECK_TRIALS && !ret; trial++)
		ret = check_trial(ctx, probe, here, seen);
	cp_cpuset_free(here);
	return ret;
}

/* The check pinned to one CPU, so warming, flushing and timing meet the
 * same caches. */
static int check_pinned(struct cacheprobe_ctx *ctx, char *probe,
			struct wbinvd_check *seen)
{
	cpu_set_t previous, here;
	int cpu = sched_getcpu(), ret;

	if (cpu < 0 || sched_getaffinity(0, sizeof(previous), &previous))
		return ctx_fail(errno, "cannot tell which CPU this thread is on");
	CPU_ZERO(&here);
	CPU_SET(cpu, &here);
	if (sched_setaffinity(0, sizeof(here), &here))
		return ctx_fail(errno, "cannot stay on CPU %d for the check", cpu);
	ret = check_wbinvd(ctx, probe, seen);
	sched_setaffinity(0, sizeof(previous), &previous);
	return ret;
}

static int judge(struct cacheprobe_ctx *ctx, const struct wbinvd_check *seen)
{
	double warm_pct = seen->warm_ppm / 1e4;
	double idle_pct = seen->idle_ppm / 1e4;
	double flushed_pct = seen->flushed_ppm / 1e4;

	if (seen->warm_ppm < WARM_MIN_PPM)
		return fall_back(ctx,
				 "WBINVD could not be checked: a warmed %u KiB buffer showed only %.1f %% cached",
				 PROBE_BYTES >> 10, warm_pct);
	if (seen->idle_ppm < WARM_MIN_PPM)
		return fall_back(ctx,
				 "WBINVD could not be checked: a call into the module that evicts nothing left only %.1f %% of a warmed %u KiB buffer cached",
				 idle_pct, PROBE_BYTES >> 10);
	if (seen->flushed_ppm > EVICTED_MAX_PPM)
		return fall_back(ctx,
				 "WBINVD does not evict here (a hypervisor may ignore it): it left %.1f %% of a warmed %u KiB buffer cached",
				 flushed_pct, PROBE_BYTES >> 10);
	ctx->method = CACHEPROBE_METHOD_WBINVD;
	snprintf(ctx->reason, sizeof(ctx->reason),
		 "WBINVD through the cacheprobe module (%s), checked %d times: a warmed %u KiB buffer stayed at least %.1f %% cached through a call that evicts nothing, and WBINVD left at most %.1f %%",
		 cp_client_transport_name(ctx->client), CHECK_TRIALS,
		 PROBE_BYTES >> 10, idle_pct, flushed_pct);
	return 0;
}

int ctx_auto_choose(struct cacheprobe_ctx *ctx)
{
	struct wbinvd_check seen;
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
	ret = check_pinned(ctx, probe, &seen);
	munmap(probe, PROBE_BYTES);
	if (ret)
		return fall_back(ctx, "WBINVD could not be checked: %s",
				 cacheprobe_last_error());
	return judge(ctx, &seen);
}
