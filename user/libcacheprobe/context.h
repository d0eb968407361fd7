/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an open libcacheprobe context holds (include/cacheprobe.h), shared
 * by the library's entry points in this folder only.
 */
#ifndef CACHEPROBE_LIBCACHEPROBE_CONTEXT_H
#define CACHEPROBE_LIBCACHEPROBE_CONTEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <sys/types.h>

#include "cacheprobe.h"
#include "client/client.h"
#include "evict/coldcache_flush.h"
#include "evict/coldcache_garbage.h"
#include "evict/coldcache_lines.h"
#include "evict/coldcache_plan.h"
#include "util/error.h"
#include "machine/topology.h"

#define CTX_REASON_LEN 320

struct cacheprobe_options {
	enum cacheprobe_method method;
	char *cpu_list;			/* NULL: the thread's affinity */
	double garbage_factor;
	enum cp_transport transport;
};

struct ctx_range {
	const void *addr;
	size_t len;
};

struct cacheprobe_ctx {
	pid_t pid;			/* the process that opened it */
	enum cacheprobe_method method;	/* AUTO resolved */
	char reason[CTX_REASON_LEN];
	struct cp_topology *topology;
	struct cp_cpuset *cpus;
	double garbage_factor;
	enum cp_transport transport;
	enum cp_flush_instruction flush;
	/* GARBAGE */
	struct cp_eviction_plan plan;
	bool planned;
	struct cp_garbage garbage;
	struct cp_readers *readers;
	/* WBINVD, WBNOINVD */
	struct cp_client *client;
	/* CLFLUSH */
	struct ctx_range *ranges;
	size_t nr_ranges;
	size_t ranges_capacity;
	/* verify's classifier, calibrated at open */
	bool calibrated;
	/* verify calibrated again once, after open's saw no level apart */
	bool recalibrated;
	struct cp_line_levels levels;
	char calibration_error[CACHEPROBE_MSG_MAX + 16];
};

/* Record the calling thread's last error and return -@err. */
int ctx_fail(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same from a struct cp_error, prefixed with @what. */
int ctx_fail_error(const struct cp_error *error, const char *what);
/* A call succeeded: the last error is cleared. */
void ctx_clear_error(void);
/* -ECHILD (with the error set) when @ctx was opened by another process. */
int ctx_check_process(const struct cacheprobe_ctx *ctx);

/* GARBAGE: plan, garbage and readers for ctx->cpus (ctx_garbage.c). */
int ctx_garbage_setup(struct cacheprobe_ctx *ctx);
void ctx_garbage_teardown(struct cacheprobe_ctx *ctx);
int ctx_garbage_evict(struct cacheprobe_ctx *ctx);

/* WBINVD, WBNOINVD: the module for ctx->cpus (ctx_module.c). */
int ctx_module_setup(struct cacheprobe_ctx *ctx,
		     enum cacheprobe_method method);
int ctx_module_evict(struct cacheprobe_ctx *ctx);
/* The module in ctx->client, and the method's instruction on this CPU. */
int ctx_module_connect(struct cacheprobe_ctx *ctx,
		       enum cacheprobe_method method);
int ctx_module_flush(struct cacheprobe_ctx *ctx, enum cacheprobe_method method,
		     const struct cp_cpuset *cpus);
/* A call into the module that evicts nothing: what the call alone does to
 * the caches, for the AUTO check to tell from WBINVD's.  WBNOINVD of
 * @cpus where the CPU has it outside a hypervisor (FLUSH's own path:
 * clean lines stay), the module's info otherwise. */
int ctx_module_call_idle(struct cacheprobe_ctx *ctx,
			 const struct cp_cpuset *cpus);

/* AUTO: choose, and say why in ctx->reason (ctx_auto.c). */
int ctx_auto_choose(struct cacheprobe_ctx *ctx);

/* Calibrate the line classifier on the calling thread's CPU; a failure
 * is kept for verify to report (ctx_verify.c). */
int ctx_calibrate(struct cacheprobe_ctx *ctx);
/* Verify without touching the last error (for the AUTO check). */
int ctx_verify(struct cacheprobe_ctx *ctx, const void *addr, size_t len,
	       struct cacheprobe_warmth *out);

#endif
