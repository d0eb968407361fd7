// SPDX-License-Identifier: GPL-2.0
/* WBINVD and WBNOINVD through the cacheprobe module. */
#include "libcacheprobe/context.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static enum cacheprobe_flush_method flush_method(enum cacheprobe_method m)
{
	return m == CACHEPROBE_METHOD_WBNOINVD ? CACHEPROBE_FLUSH_WBNOINVD
					       : CACHEPROBE_FLUSH_WBINVD;
}

int ctx_module_flush(struct cacheprobe_ctx *ctx, enum cacheprobe_method method,
		     const struct cp_cpuset *cpus)
{
	struct cp_cpu_time *times = NULL;
	size_t nr_times = 0;
	struct cp_error error;
	int ret = cp_client_flush(ctx->client, flush_method(method), cpus,
				  &times, &nr_times, &error);

	free(times);
	if (ret)
		return ctx_fail_error(&error, cacheprobe_method_name(method));
	return 0;
}

int ctx_module_call_idle(struct cacheprobe_ctx *ctx,
			 const struct cp_cpuset *cpus)
{
	struct cp_module_info info;
	struct cp_error error;
	bool wbnoinvd;
	int ret = cp_client_info(ctx->client, &info, &error);

	if (ret)
		return ctx_fail_error(&error, "module info");
	/* A hypervisor traps WBNOINVD with WBINVD, and where it runs a real
	 * WBINVD for a guest (assigned devices) that one evicts. */
	wbnoinvd = (info.features & CACHEPROBE_FEAT_WBNOINVD) &&
		   !(info.features & CACHEPROBE_FEAT_HYPERVISOR);
	cp_module_info_free(&info);
	return wbnoinvd ? ctx_module_flush(ctx, CACHEPROBE_METHOD_WBNOINVD, cpus)
			: 0;
}

int ctx_module_connect(struct cacheprobe_ctx *ctx, enum cacheprobe_method method)
{
	struct cp_module_info info;
	struct cp_error error;
	int ret = cp_client_open(ctx->transport, &ctx->client, &error);

	if (ret)
		return ctx_fail_error(&error, cacheprobe_method_name(method));
	if (method != CACHEPROBE_METHOD_WBNOINVD)
		return 0;
	ret = cp_client_info(ctx->client, &info, &error);
	if (ret)
		return ctx_fail_error(&error, "wbnoinvd");
	ret = info.features & CACHEPROBE_FEAT_WBNOINVD ? 0 : -EOPNOTSUPP;
	cp_module_info_free(&info);
	return ret ? ctx_fail(EOPNOTSUPP, "wbnoinvd: this CPU has no WBNOINVD")
		   : 0;
}

int ctx_module_setup(struct cacheprobe_ctx *ctx, enum cacheprobe_method method)
{
	int ret = ctx_module_connect(ctx, method);

	/* One flush now: a missing privilege or a CPU the module refuses
	 * shows at open, not in the middle of someone's benchmark. */
	if (!ret)
		ret = ctx_module_flush(ctx, method, ctx->cpus);
	if (ret)
		return ret;
	ctx->method = method;
	snprintf(ctx->reason, sizeof(ctx->reason),
		 "%s asked for, through the cacheprobe module (%s)",
		 cacheprobe_method_name(method),
		 cp_client_transport_name(ctx->client));
	return 0;
}

int ctx_module_evict(struct cacheprobe_ctx *ctx)
{
	return ctx_module_flush(ctx, ctx->method, ctx->cpus);
}
