// SPDX-License-Identifier: GPL-2.0
#include "report/html_text.h"

#include <stdarg.h>
#include <stdlib.h>

void html_escape(FILE *out, const char *text)
{
	for (const char *c = text; *c; c++) {
		switch (*c) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			fputc(*c, out);
		}
	}
}

void html_printf(FILE *out, const char *fmt, ...)
{
	char small[256], *text = small;
	va_list args;
	int len;

	va_start(args, fmt);
	len = vsnprintf(small, sizeof(small), fmt, args);
	va_end(args);
	if (len < 0)
		return;
	/* Long texts (a warning, a governor list) get their own buffer. */
	if ((size_t)len >= sizeof(small)) {
		text = malloc((size_t)len + 1);
		if (!text) {
			/* Shown cut short rather than not at all. */
			html_escape(out, small);
			return;
		}
		va_start(args, fmt);
		vsnprintf(text, (size_t)len + 1, fmt, args);
		va_end(args);
	}
	html_escape(out, text);
	if (text != small)
		free(text);
}
