// SPDX-License-Identifier: GPL-2.0
#include "cli/exec_eviction.h"

#include <errno.h>
#include <stdio.h>

#include "cacheprobe.h"
#include "cli/cli_util.h"

#define COMMAND "exec"

/* The library's sentence names the method and what it lacks. */
static int open_failed(int ret)
{
	fprintf(stderr, "%s: %s: cannot set up the eviction: %s\n",
		CLI_PROGRAM, COMMAND, cacheprobe_last_error());
	return cli_exit_status_for(-ret);
}

static int open_context(int method, const char *cpus_list, double factor,
			struct cacheprobe_ctx **ctx)
{
	struct cacheprobe_options *options = cacheprobe_options_new();
	int ret;

	if (!options)
		return -ENOMEM;
	ret = cacheprobe_options_set_method(options,
					    (enum cacheprobe_method)method);
	if (!ret && cpus_list)
		ret = cacheprobe_options_set_cpus(options, cpus_list);
	if (!ret && factor > 0)
		ret = cacheprobe_options_set_garbage_factor(options, factor);
	if (!ret)
		ret = cacheprobe_open(options, ctx);
	cacheprobe_options_free(options);
	return ret;
}

int exec_eviction_open(int method, const char *cpus_list, double factor,
		       struct cacheprobe_ctx **ctx, struct exec_eviction *out)
{
	int ret = open_context(method, cpus_list, factor, ctx);

	if (ret)
		return open_failed(ret);
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
