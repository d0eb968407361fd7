/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the unit tests: catching what a function prints. */
#ifndef CACHEPROBE_TEST_CAPTURE_H
#define CACHEPROBE_TEST_CAPTURE_H

#include <stdio.h>

/* Redirect stderr into a temporary file until capture_stderr_end(), which
 * returns what was written (malloc'ed, NUL-terminated). */
struct stderr_capture {
	int saved_fd;
	FILE *file;
};

void capture_stderr_begin(struct stderr_capture *capture);
char *capture_stderr_end(struct stderr_capture *capture);

/* A memory stream for functions that print to a FILE *. */
struct text_capture {
	FILE *stream;
	char *text;
	size_t len;
};

void capture_text_begin(struct text_capture *capture);
/* Close the stream; the text is in capture->text (free it). */
void capture_text_end(struct text_capture *capture);

#endif
