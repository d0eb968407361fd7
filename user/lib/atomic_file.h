/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files that appear whole or not at all: written to a temporary
 * file beside the target, then renamed over it.  A run that fails or is
 * killed never leaves a half-written result where a script expects one.
 */
#ifndef CACHEPROBE_ATOMIC_FILE_H
#define CACHEPROBE_ATOMIC_FILE_H

#include <stdio.h>

struct cp_atomic_file {
	FILE *stream;		/* write here */
	char *target;
	char *temporary;
};

/* 0, or -errno (the directory is missing or not writable...). */
int cp_atomic_file_open(struct cp_atomic_file *file, const char *target);
/* Flush, sync and rename into place; 0 or -errno (nothing is left). */
int cp_atomic_file_commit(struct cp_atomic_file *file);
/* Remove the temporary file. */
void cp_atomic_file_abort(struct cp_atomic_file *file);

#endif
