// SPDX-License-Identifier: GPL-2.0
/* cacheprobe_open() and cacheprobe_close(): a context and what its method
 * needs, all set up before the first eviction. */
#include "libcacheprobe/context.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/cpuset.h"

static const struct cacheprobe_options default_options = {
	.method = CACHEPROBE_METHOD_AUTO,
	.garbage_factor = CACHEPROBE_DEFAULT_GARBAGE_FACTOR,
};

static int affinity_cpus(struct cp_cpuset **out)
{
	cpu_set_t mask;
	struct cp_cpuset *cpus;

	if (sched_getaffinity(0, sizeof(mask), &mask))
		return ctx_fail(errno, "cannot read the thread's CPU affinity");
	cpus = cp_cpuset_new(CPU_SETSIZE);
	if (!cpus)
		return ctx_fail(ENOMEM, "no memory for the CPU set");
	for (unsigned int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &mask))
			cp_cpuset_set(cpus, cpu);
	*out = cpus;
	return 0;
}

/* The CPUs asked for, every one of them online. */
static int resolve_cpus(struct cacheprobe_ctx *ctx,
			const struct cacheprobe_options *options)
{
	char why[128];
	int ret;

	if (options->cpu_list) {
		if (cp_cpuset_parse(options->cpu_list, &ctx->cpus, why,
				    sizeof(why)))
			return ctx_fail(EINVAL, "CPU list '%s': %s",
					options->cpu_list, why);
	} else {
		ret = affinity_cpus(&ctx->cpus);
		if (ret)
			return ret;
	}
	for (int cpu = cp_cpuset_first(ctx->cpus); cpu >= 0;
	     cpu = cp_cpuset_next(ctx->cpus, (unsigned int)cpu))
		if (!cp_cpuset_test(ctx->topology->cpus, (unsigned int)cpu))
			return ctx_fail(EINVAL, "CPU %d is not online", cpu);
	if (!cp_cpuset_count(ctx->cpus))
		return ctx_fail(EINVAL, "no CPU to evict the caches of");
	return 0;
}

static int setup_method(struct cacheprobe_ctx *ctx,
			enum cacheprobe_method method)
{
	switch (method) {
	case CACHEPROBE_METHOD_AUTO:
		return ctx_auto_choose(ctx);
	case CACHEPROBE_METHOD_WBINVD:
	case CACHEPROBE_METHOD_WBNOINVD:
		return ctx_module_setup(ctx, method);
	case CACHEPROBE_METHOD_GARBAGE:
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "garbage asked for");
		return ctx_garbage_setup(ctx);
	case CACHEPROBE_METHOD_CLFLUSH:
		if (ctx->flush == CP_FLUSH_NONE)
			return ctx_fail(EOPNOTSUPP,
					"this CPU has neither CLFLUSHOPT nor CLFLUSH");
		ctx->method = method;
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "%s asked for, over the ranges added",
			 cp_flush_instruction_name(ctx->flush));
		return 0;
	}
	return ctx_fail(EINVAL, "unknown method %d", (int)method);
}

int cacheprobe_open(const struct cacheprobe_options *options,
		    struct cacheprobe_ctx **out)
{
	struct cacheprobe_ctx *ctx;
	struct cp_error error;
	int ret;

	if (!out)
		return ctx_fail(EINVAL, "no place for the context given");
	*out = NULL;
	if (!options)
		options = &default_options;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return ctx_fail(ENOMEM, "no memory for the context");
	ctx->pid = getpid();
	ctx->garbage_factor = options->garbage_factor;
	ctx->transport = options->transport;
	ctx->flush = cp_flush_instruction_detect();
	ret = cp_topology_load(NULL, &ctx->topology, &error);
	if (ret)
		ret = ctx_fail_error(&error, "cannot read the cache topology");
	if (!ret)
		ret = resolve_cpus(ctx, options);
	/* First: it must come before the garbage is mapped (ctx_verify.c);
	 * a failure matters only to verify, which reports it. */
	if (!ret)
		ctx_calibrate(ctx);
	if (!ret)
		ret = setup_method(ctx, options->method);
	if (ret) {
		cacheprobe_close(ctx);
		return ret;
	}
	*out = ctx;
	ctx_clear_error();
	return 0;
}

void cacheprobe_close(struct cacheprobe_ctx *ctx)
{
	if (!ctx)
		return;
	ctx_garbage_teardown(ctx);
	/* A child's copy of the socket is the parent's too: leave it. */
	if (ctx->client && ctx->pid == getpid())
		cp_client_close(ctx->client);
	cp_cpuset_free(ctx->cpus);
	if (ctx->topology)
		cp_topology_free(ctx->topology);
	free(ctx->ranges);
	free(ctx);
}
