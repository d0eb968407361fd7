/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snprintf over several calls: text is appended while it fits and the
 * whole length is counted regardless, so callers can size a buffer first.
 */
#ifndef CACHEPROBE_TEXT_SINK_H
#define CACHEPROBE_TEXT_SINK_H

#include <stddef.h>

struct cp_text_sink {
	char *buf;	/* may be NULL when len is 0 */
	size_t len;
	size_t used;	/* length of everything appended, fitted or not */
};

/* Start over an empty, NUL-terminated buffer. */
void cp_text_sink_init(struct cp_text_sink *sink, char *buf, size_t len);

void cp_text_sink_printf(struct cp_text_sink *sink, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
