// SPDX-License-Identifier: GPL-2.0
/* Error reports shared by both transports. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include "cacheprobe.h"

/**
 * cp_fail() - record why a request is refused
 * @err: the report to fill
 * @errno_val: positive errno to return
 * @attr: netlink attribute at fault, or 0
 * @text: fixed reason; must be a string literal (older kernels' extack keeps
 *	the pointer)
 * @fmt: printf-style details appended to @text in the formatted reason
 *
 * Return: -@errno_val, so callers can "return cp_fail(...)".
 */
int cp_fail(struct cp_err *err, int errno_val, int attr, const char *text,
	    const char *fmt, ...)
{
	va_list args;
	int len;

	err->msg = text;
	err->attr = attr;
	len = scnprintf(err->detail, sizeof(err->detail), "%s: ", text);
	va_start(args, fmt);
	vscnprintf(err->detail + len, sizeof(err->detail) - len, fmt, args);
	va_end(args);
	return -errno_val;
}
