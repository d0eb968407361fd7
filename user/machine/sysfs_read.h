/* SPDX-License-Identifier: GPL-2.0 */
/* Small text files of /proc and /sys, read under a root directory so that
 * tests can stand in a directory tree for the machine. */
#ifndef CACHEPROBE_SYSFS_READ_H
#define CACHEPROBE_SYSFS_READ_H

#include <stdbool.h>
#include <stddef.h>

/* "@root/@relative" into @out; a NULL @root means this machine ("/"). */
void cp_sysfs_path(const char *root, const char *relative, char *out,
		   size_t len);

/* The first line of the file, without its newline; false if unreadable. */
bool cp_sysfs_read_line(const char *root, const char *relative, char *out,
			size_t len);

/* Replace the file's contents with @text; 0 or -errno. */
int cp_sysfs_write(const char *root, const char *relative, const char *text);

#endif
