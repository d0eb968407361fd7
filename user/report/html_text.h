/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text into HTML and SVG: everything the report prints that came from a
 * result (names, notes, warnings, the CPU model...) goes through here, so
 * a '<' or '&' in it is shown, never interpreted.
 */
#ifndef CACHEPROBE_HTML_TEXT_H
#define CACHEPROBE_HTML_TEXT_H

#include <stdio.h>

/* @text with &, <, >, " and ' as entities (safe in content and in
 * quoted attributes). */
void html_escape(FILE *out, const char *text);

/* printf, then escaped as html_escape does. */
void html_printf(FILE *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
