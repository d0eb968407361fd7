/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file a path really names once its symbolic links are followed, so
 * that an output is written where the user's link points (not over the
 * link), and two names for one file are recognised however they are
 * spelt: "x", "./x", "d/../x", a symbolic or hard link, /dev/stdout.
 */
#ifndef CACHEPROBE_PATH_TARGET_H
#define CACHEPROBE_PATH_TARGET_H

#include <stdbool.h>
#include <sys/stat.h>

struct cp_path_target {
	char *resolved;		/* absolute, links followed; for a file
				 * that does not exist yet, the name it
				 * would be made under */
	bool exists;
	struct stat st;		/* of the file, when it exists */
};

/*
 * 0, or -errno: -ENOENT for a missing directory, -ELOOP for a cycle of
 * links, -EISDIR for a name ending in '/' that names no directory, -ENOMEM.
 * Free with cp_path_target_free() on success.
 */
int cp_path_target_resolve(const char *path, struct cp_path_target *target);
void cp_path_target_free(struct cp_path_target *target);

/* Whether writing through @a and @b would reach one file. */
bool cp_path_target_same(const struct cp_path_target *a,
			 const struct cp_path_target *b);
/* Whether @target is the file open as descriptor @fd (1: standard output). */
bool cp_path_target_is_fd(const struct cp_path_target *target, int fd);

#endif
