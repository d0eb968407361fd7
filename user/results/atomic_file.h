/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output files that appear whole or not at all, and that never destroy
 * what the user did not hand over for writing:
 * - a regular file, or a name not yet taken, is written to a temporary in
 *   the directory of the file the path resolves to (symbolic links
 *   followed, so a link keeps pointing where it did), synced, and renamed
 *   over it with the old file's mode and owner; the temporary is unnamed
 *   (O_TMPFILE) where the file system allows, so a killed run leaves
 *   nothing, and otherwise "NAME.tmp-PID-XXXXXX", removed by a later
 *   write of the same file once PID is gone;
 * - anything else (a character device such as /dev/null, a FIFO, the
 *   file that is standard output or standard error) is written in place,
 *   never renamed over: it cannot be made whole, and must stay what it is;
 * - a directory is refused.
 */
#ifndef CACHEPROBE_ATOMIC_FILE_H
#define CACHEPROBE_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

enum cp_atomic_file_way {
	CP_ATOMIC_FILE_UNNAMED,	/* O_TMPFILE, linked in at commit */
	CP_ATOMIC_FILE_NAMED,	/* a named temporary, renamed at commit */
	CP_ATOMIC_FILE_IN_PLACE	/* written directly */
};

struct cp_atomic_file {
	FILE *stream;		/* write here */
	enum cp_atomic_file_way way;
	char *target;		/* the resolved file replaced at commit */
	char *temporary;	/* the named temporary, else NULL */
	bool target_existed;
	mode_t mode;		/* given to the file at commit */
	uid_t uid;		/* kept from the old file, when it existed */
	gid_t gid;
};

/* 0, or -errno: -EISDIR for a directory, -ENOENT for a missing one,
 * -ENXIO for a socket, -EACCES... */
int cp_atomic_file_open(struct cp_atomic_file *file, const char *target);
/* The same, never with O_TMPFILE: for tests of the fallback. */
int cp_atomic_file_open_named(struct cp_atomic_file *file,
			      const char *target);
/* Flush, sync and put into place; 0 or -errno (no temporary is left). */
int cp_atomic_file_commit(struct cp_atomic_file *file);
/* Drop the temporary (a file written in place keeps what it got). */
void cp_atomic_file_abort(struct cp_atomic_file *file);

#endif
