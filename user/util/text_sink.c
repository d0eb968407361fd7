// SPDX-License-Identifier: GPL-2.0
#include "util/text_sink.h"

#include <stdarg.h>
#include <stdio.h>

void cp_text_sink_init(struct cp_text_sink *sink, char *buf, size_t len)
{
	sink->buf = buf;
	sink->len = len;
	sink->used = 0;
	if (len)
		buf[0] = '\0';
}

void cp_text_sink_printf(struct cp_text_sink *sink, const char *fmt, ...)
{
	size_t room = sink->used < sink->len ? sink->len - sink->used : 0;
	char *at = room ? sink->buf + sink->used : NULL;
	va_list args;
	int written;

	va_start(args, fmt);
	written = vsnprintf(at, room, fmt, args);
	va_end(args);
	if (written > 0)
		sink->used += (size_t)written;
}
