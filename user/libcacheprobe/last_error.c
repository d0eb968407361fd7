// SPDX-License-Identifier: GPL-2.0
/* The sentence behind a failure, one per thread: contexts in separate
 * threads never see each other's errors. */
#include "libcacheprobe/context.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static _Thread_local char last_error[CACHEPROBE_MSG_MAX + 64];

int ctx_fail(int err, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, args);
	va_end(args);
	return -err;
}

int ctx_fail_error(const struct cp_error *error, const char *what)
{
	return ctx_fail(error->err ? error->err : EIO, "%s: %s", what,
			error->msg);
}

void ctx_clear_error(void)
{
	last_error[0] = '\0';
}

int ctx_check_process(const struct cacheprobe_ctx *ctx)
{
	if (ctx->pid == getpid())
		return 0;
	return ctx_fail(ECHILD,
			"this context was opened by process %d: after fork(), open a new one",
			(int)ctx->pid);
}

const char *cacheprobe_last_error(void)
{
	return last_error;
}

const char *cacheprobe_version(void)
{
	return CACHEPROBE_VERSION;
}
