// SPDX-License-Identifier: GPL-2.0
/* Method names, and what a context says of its method. */
#include "libcacheprobe/context.h"

#include <errno.h>
#include <string.h>

static const char *const method_names[] = {
	[CACHEPROBE_METHOD_AUTO] = "auto",
	[CACHEPROBE_METHOD_WBINVD] = "wbinvd",
	[CACHEPROBE_METHOD_WBNOINVD] = "wbnoinvd",
	[CACHEPROBE_METHOD_GARBAGE] = "garbage",
	[CACHEPROBE_METHOD_CLFLUSH] = "clflush",
};

#define NR_METHODS (sizeof(method_names) / sizeof(method_names[0]))

const char *cacheprobe_method_name(enum cacheprobe_method method)
{
	return (unsigned int)method < NR_METHODS ? method_names[method] : NULL;
}

int cacheprobe_method_from_name(const char *name,
				enum cacheprobe_method *method)
{
	for (size_t i = 0; name && method && i < NR_METHODS; i++)
		if (!strcmp(name, method_names[i])) {
			*method = (enum cacheprobe_method)i;
			ctx_clear_error();
			return 0;
		}
	return ctx_fail(EINVAL,
			"unknown method '%s' (auto, wbinvd, wbnoinvd, garbage or clflush)",
			name ? name : "(null)");
}

enum cacheprobe_method cacheprobe_method(const struct cacheprobe_ctx *ctx)
{
	return ctx ? ctx->method : CACHEPROBE_METHOD_AUTO;
}

const char *cacheprobe_method_reason(const struct cacheprobe_ctx *ctx)
{
	return ctx ? ctx->reason : "";
}

uint64_t cacheprobe_garbage_bytes(const struct cacheprobe_ctx *ctx)
{
	if (!ctx || ctx->method != CACHEPROBE_METHOD_GARBAGE)
		return 0;
	return ctx->plan.read_bytes;
}
