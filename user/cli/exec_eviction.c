// SPDX-License-Identifier: GPL-2.0
#include "cli/exec_eviction.h"

#include <stdio.h>

#include "cacheprobe.h"
#include "cli/cli_util.h"
#include "cli/eviction_setup.h"

#define COMMAND "exec"

int exec_eviction_open(int method, const char *cpus_list, double factor,
		       struct cacheprobe_ctx **ctx, struct exec_eviction *out)
{
	struct cli_eviction_choice choice = {
		.method = (enum cacheprobe_method)method,
		.cpus_list = cpus_list, .factor = factor,
	};
	int status = cli_eviction_open(COMMAND, &choice, ctx);

	if (status != CLI_PROCEED)
		return status;
	out->method = (int)cacheprobe_method(*ctx);
	out->name = cacheprobe_method_name(cacheprobe_method(*ctx));
	out->reason = cacheprobe_method_reason(*ctx);
	out->garbage_bytes = cacheprobe_garbage_bytes(*ctx);
	return CLI_PROCEED;
}

void exec_eviction_close(struct cacheprobe_ctx *ctx)
{
	cacheprobe_close(ctx);
}

int exec_eviction_evict(void *context, char *why, size_t why_len)
{
	int ret = cacheprobe_evict(context);

	if (ret)
		snprintf(why, why_len, "eviction failed: %s",
			 cacheprobe_last_error());
	return ret;
}
