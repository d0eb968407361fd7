// SPDX-License-Identifier: GPL-2.0
/* GARBAGE: the coldcache area's planned read (coldcache_plan.h), its
 * garbage mapped and its readers started once, at open. */
#include "libcacheprobe/context.h"

#include <errno.h>
#include <stdio.h>

static uint64_t all_last_levels(const struct cp_eviction_plan *plan)
{
	uint64_t bytes = 0;

	for (size_t d = 0; d < plan->nr_domains; d++)
		bytes += plan->domains[d].llc_bytes;
	return bytes;
}

int ctx_garbage_setup(struct cacheprobe_ctx *ctx)
{
	struct cp_error error;
	int ret;

	ret = cp_plan_eviction(ctx->topology, ctx->cpus, ctx->garbage_factor,
			       0, &ctx->plan, &error);
	if (ret)
		return ctx_fail_error(&error, "cannot plan the garbage read");
	ctx->planned = true;
	ret = cp_garbage_alloc_pool(&ctx->garbage, ctx->plan.total_bytes,
				    ctx->plan.total_bytes,
				    all_last_levels(&ctx->plan));
	if (ret)
		return ctx_fail(-ret, "no memory for %llu bytes of garbage",
				(unsigned long long)ctx->plan.total_bytes);
	ret = cp_readers_start(&ctx->plan, &ctx->readers, &error);
	if (ret)
		return ctx_fail_error(&error, "cannot start the readers");
	ctx->method = CACHEPROBE_METHOD_GARBAGE;
	return 0;
}

void ctx_garbage_teardown(struct cacheprobe_ctx *ctx)
{
	cp_readers_stop(ctx->readers);
	ctx->readers = NULL;
	cp_garbage_free(&ctx->garbage);
	if (ctx->planned)
		cp_plan_free(&ctx->plan);
	ctx->planned = false;
}

int ctx_garbage_evict(struct cacheprobe_ctx *ctx)
{
	int ret = cp_garbage_planned(&ctx->garbage, ctx->readers, &ctx->plan);

	return ret ? ctx_fail(-ret, "the garbage read failed") : 0;
}
