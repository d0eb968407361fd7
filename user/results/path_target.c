// SPDX-License-Identifier: GPL-2.0
#include "results/path_target.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Linux's own limit on links followed in one lookup. */
#define MAX_LINK_HOPS 40

/* The text of symbolic link @path, or NULL with errno set. */
static char *read_link(const char *path)
{
	for (size_t size = 256; size <= 65536; size *= 2) {
		char *text = malloc(size);
		ssize_t len;

		if (!text)
			return NULL;
		len = readlink(path, text, size);
		if (len < 0) {
			free(text);
			return NULL;
		}
		if ((size_t)len < size) {
			text[len] = '\0';
			return text;
		}
		free(text);
	}
	errno = ENAMETOOLONG;
	return NULL;
}

/* @link read from @from: absolute as it is, else relative to @from's
 * directory. */
static char *link_destination(const char *from, const char *link)
{
	const char *slash = strrchr(from, '/');
	int dir_len = slash ? (int)(slash - from) + 1 : 0;
	char *joined;

	if (link[0] == '/')
		return strdup(link);
	if (asprintf(&joined, "%.*s%s", dir_len, from, link) < 0)
		return NULL;
	return joined;
}

/*
 * Follow the links of @path as far as they go; what is left names no
 * file.  A dangling "latest.json -> runs/today.json" gives the link's
 * destination: that is where the output belongs.
 */
static int follow_dangling(const char *path, char **last)
{
	char *current = strdup(path);

	for (int hops = 0; current; hops++) {
		struct stat st;
		char *link, *next;
		int err = lstat(current, &st) ? errno : 0;

		if (err && err != ENOENT) {
			free(current);
			return -err;
		}
		if (err == ENOENT || !S_ISLNK(st.st_mode)) {
			*last = current;
			return 0;
		}
		if (hops == MAX_LINK_HOPS) {
			free(current);
			return -ELOOP;
		}
		link = read_link(current);
		next = link ? link_destination(current, link) : NULL;
		free(link);
		free(current);
		current = next;
	}
	return errno == ENAMETOOLONG ? -ENAMETOOLONG : -ENOMEM;
}

/* @name in the real directory of @path (@path not existing). */
static int resolve_new(const char *path, struct cp_path_target *target)
{
	char *name, *last, *dir, *slash;
	int ret = follow_dangling(path, &last);

	if (ret)
		return ret;
	slash = strrchr(last, '/');
	name = slash ? slash + 1 : last;
	if (!*name) {
		free(last);
		return -EISDIR;
	}
	if (slash == last)
		dir = realpath("/", NULL);
	else if (slash) {
		*slash = '\0';
		dir = realpath(last, NULL);
	} else {
		dir = realpath(".", NULL);
	}
	ret = dir ? 0 : -errno;
	if (dir && asprintf(&target->resolved, "%s%s%s", dir,
			    strcmp(dir, "/") ? "/" : "", name) < 0)
		ret = -ENOMEM;
	free(dir);
	free(last);
	return ret;
}

int cp_path_target_resolve(const char *path, struct cp_path_target *target)
{
	memset(target, 0, sizeof(*target));
	if (!*path)
		return -ENOENT;
	if (stat(path, &target->st) == 0) {
		target->exists = true;
		/* /proc/self/fd/1 of a pipe names no file in the tree. */
		target->resolved = realpath(path, NULL);
		if (!target->resolved)
			target->resolved = strdup(path);
		return target->resolved ? 0 : -ENOMEM;
	}
	if (errno != ENOENT)
		return -errno;
	return resolve_new(path, target);
}

void cp_path_target_free(struct cp_path_target *target)
{
	free(target->resolved);
	memset(target, 0, sizeof(*target));
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

bool cp_path_target_same(const struct cp_path_target *a,
			 const struct cp_path_target *b)
{
	if (a->exists != b->exists)
		return false;
	if (a->exists)
		return same_file(&a->st, &b->st);
	return strcmp(a->resolved, b->resolved) == 0;
}

bool cp_path_target_is_fd(const struct cp_path_target *target, int fd)
{
	struct stat st;

	return target->exists && fstat(fd, &st) == 0 &&
	       same_file(&target->st, &st);
}
