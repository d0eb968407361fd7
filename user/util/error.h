/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors as the library reports them: a positive errno for programs and a
 * sentence for people.  The sentence is the module's own explanation when it
 * gave one, so the user learns which input was wrong.
 */
#ifndef CACHEPROBE_ERROR_H
#define CACHEPROBE_ERROR_H

#include <stddef.h>
#include <linux/cacheprobe.h>

struct cp_error {
	int err;			/* positive errno, 0 = none */
	char msg[CACHEPROBE_MSG_MAX];	/* module's explanation or ours */
};

/* Forget any previous error; @error may be NULL. */
void cp_error_clear(struct cp_error *error);

/*
 * Record @err with a printf-style message and return -@err, so a caller can
 * write "return cp_error_set(...)".  @error may be NULL.
 */
int cp_error_set(struct cp_error *error, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Our sentence for @err from operation @what (e.g. "flush") when the module
 * gave none: says what the errno means for a cacheprobe request.
 */
int cp_error_explain(struct cp_error *error, int err, const char *what);

/*
 * For parsers that explain refusals in a caller's buffer: print the
 * printf-style reason into @why (@why_len bytes, may be 0) and return
 * -EINVAL.
 */
int cp_why_invalid(char *why, size_t why_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "EINVAL" for EINVAL; "errno N" for a number the C library cannot name. */
const char *cp_errno_name(int err, char *buf, size_t buf_len);

#endif
