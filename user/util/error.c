// SPDX-License-Identifier: GPL-2.0
#include "util/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cp_error_clear(struct cp_error *error)
{
	if (!error)
		return;
	error->err = 0;
	error->msg[0] = '\0';
}

int cp_error_set(struct cp_error *error, int err, const char *fmt, ...)
{
	va_list args;

	if (error) {
		error->err = err;
		va_start(args, fmt);
		vsnprintf(error->msg, sizeof(error->msg), fmt, args);
		va_end(args);
	}
	return -err;
}

int cp_error_explain(struct cp_error *error, int err, const char *what)
{
	switch (err) {
	case EPERM:
		return cp_error_set(error, err, "%s needs CAP_SYS_ADMIN", what);
	case ENOTTY:
		return cp_error_set(error, err,
				    "the module does not know the %s request "
				    "(a module of another ABI?)", what);
	default:
		return cp_error_set(error, err, "%s failed: %s", what,
				    strerror(err));
	}
}

const char *cp_errno_name(int err, char *buf, size_t buf_len)
{
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(buf, buf_len, "errno %d", err);
	return buf;
}

int cp_why_invalid(char *why, size_t why_len, const char *fmt, ...)
{
	va_list args;

	if (why_len) {
		va_start(args, fmt);
		vsnprintf(why, why_len, fmt, args);
		va_end(args);
	}
	return -EINVAL;
}
