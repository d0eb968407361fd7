// SPDX-License-Identifier: GPL-2.0
#include "capture.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <unistd.h>

void capture_stderr_begin(struct stderr_capture *capture)
{
	fflush(stderr);
	capture->file = tmpfile();
	assert_non_null(capture->file);
	capture->saved_fd = dup(STDERR_FILENO);
	assert_true(capture->saved_fd >= 0);
	assert_true(dup2(fileno(capture->file), STDERR_FILENO) >= 0);
}

char *capture_stderr_end(struct stderr_capture *capture)
{
	long size;
	char *text;

	fflush(stderr);
	assert_true(dup2(capture->saved_fd, STDERR_FILENO) >= 0);
	close(capture->saved_fd);
	size = ftell(capture->file);
	assert_true(size >= 0);
	text = calloc(1, (size_t)size + 1);
	assert_non_null(text);
	rewind(capture->file);
	assert_int_equal(fread(text, 1, (size_t)size, capture->file),
			 (size_t)size);
	fclose(capture->file);
	return text;
}

void capture_text_begin(struct text_capture *capture)
{
	capture->text = NULL;
	capture->len = 0;
	capture->stream = open_memstream(&capture->text, &capture->len);
	assert_non_null(capture->stream);
}

void capture_text_end(struct text_capture *capture)
{
	assert_int_equal(fclose(capture->stream), 0);
	capture->stream = NULL;
}
