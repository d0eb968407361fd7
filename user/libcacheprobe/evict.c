// SPDX-License-Identifier: GPL-2.0
/* Evictions: the context's method, and one range by CLFLUSH(OPT). */
#include "libcacheprobe/context.h"

#include <errno.h>
#include <stdlib.h>

#define LINE 64

static int flush_ranges(struct cacheprobe_ctx *ctx)
{
	if (!ctx->nr_ranges)
		return ctx_fail(EINVAL,
				"clflush: no range added (cacheprobe_add_range)");
	for (size_t i = 0; i < ctx->nr_ranges; i++)
		cp_flush_lines(ctx->flush, ctx->ranges[i].addr,
			       ctx->ranges[i].len, LINE);
	return 0;
}

int cacheprobe_evict(struct cacheprobe_ctx *ctx)
{
	int ret;

	if (!ctx)
		return ctx_fail(EINVAL, "no context given");
	ret = ctx_check_process(ctx);
	if (ret)
		return ret;
	switch (ctx->method) {
	case CACHEPROBE_METHOD_GARBAGE:
		ret = ctx_garbage_evict(ctx);
		break;
	case CACHEPROBE_METHOD_WBINVD:
	case CACHEPROBE_METHOD_WBNOINVD:
		ret = ctx_module_evict(ctx);
		break;
	case CACHEPROBE_METHOD_CLFLUSH:
		ret = flush_ranges(ctx);
		break;
	default:
		ret = ctx_fail(EINVAL, "the context has no method");
	}
	if (!ret)
		ctx_clear_error();
	return ret;
}

/* A context of this process and a range: one ending beyond the address
 * space is no range. */
static int check_range_call(const struct cacheprobe_ctx *ctx,
			    const void *addr, size_t len)
{
	int ret;

	if (!ctx)
		return ctx_fail(EINVAL, "no context given");
	ret = ctx_check_process(ctx);
	if (ret)
		return ret;
	if (!addr || !len)
		return ctx_fail(EINVAL, "empty range");
	if ((uintptr_t)addr + len < (uintptr_t)addr)
		return ctx_fail(EINVAL, "the range wraps around the address space");
	return 0;
}

int cacheprobe_add_range(struct cacheprobe_ctx *ctx, const void *addr,
			 size_t len)
{
	struct ctx_range *grown;
	int ret;

	ret = check_range_call(ctx, addr, len);
	if (ret)
		return ret;
	if (ctx->method != CACHEPROBE_METHOD_CLFLUSH)
		return ctx_fail(EINVAL,
				"ranges are for clflush contexts; this one uses %s",
				cacheprobe_method_name(ctx->method));
	if (ctx->nr_ranges == ctx->ranges_capacity) {
		size_t capacity = ctx->ranges_capacity ? 2 * ctx->ranges_capacity
						       : 4;

		grown = realloc(ctx->ranges, capacity * sizeof(*grown));
		if (!grown)
			return ctx_fail(ENOMEM, "no memory for the range");
		ctx->ranges = grown;
		ctx->ranges_capacity = capacity;
	}
	ctx->ranges[ctx->nr_ranges++] = (struct ctx_range){ addr, len };
	ctx_clear_error();
	return 0;
}

int cacheprobe_evict_range(struct cacheprobe_ctx *ctx, const void *addr,
			   size_t len)
{
	int ret;

	ret = check_range_call(ctx, addr, len);
	if (ret)
		return ret;
	if (ctx->flush == CP_FLUSH_NONE)
		return ctx_fail(EOPNOTSUPP,
				"this CPU has neither CLFLUSHOPT nor CLFLUSH");
	cp_flush_lines(ctx->flush, addr, len, LINE);
	ctx_clear_error();
	return 0;
}
