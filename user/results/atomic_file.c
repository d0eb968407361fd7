// SPDX-License-Identifier: GPL-2.0
#include "results/atomic_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "results/path_target.h"

#define TEMPORARY_MARK ".tmp-"

static void release(struct cp_atomic_file *file)
{
	free(file->target);
	free(file->temporary);
	memset(file, 0, sizeof(*file));
}

/* Whether the process that named temporary @suffix ("PID-XXXXXX") has
 * gone, so that the file can never be committed. */
static bool owner_gone(const char *suffix)
{
	char *end;
	long pid = strtol(suffix, &end, 10);

	if (end == suffix || *end != '-' || pid <= 0 || pid == getpid())
		return false;
	return kill((pid_t)pid, 0) && errno == ESRCH;
}

/*
 * Remove the named temporaries of @target left by runs that were killed
 * (SIGKILL, the OOM killer) on a file system without O_TMPFILE.
 */
static void remove_stale(const char *target)
{
	const char *slash = strrchr(target, '/');
	char *dir_path = strndup(target, slash - target + 1);
	size_t name_len = strlen(slash + 1);
	struct dirent *entry;
	DIR *dir;

	dir = dir_path ? opendir(dir_path) : NULL;
	free(dir_path);
	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		const char *name = entry->d_name;
		struct stat st;

		if (strncmp(name, slash + 1, name_len) ||
		    strncmp(name + name_len, TEMPORARY_MARK,
			    strlen(TEMPORARY_MARK)) ||
		    !owner_gone(name + name_len + strlen(TEMPORARY_MARK)))
			continue;
		if (!fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			unlinkat(dirfd(dir), name, 0);
	}
	closedir(dir);
}

/* A name for a temporary of @target, unique with the pid and @salt. */
static char *temporary_name(const char *target, unsigned int salt)
{
	char *name;

	if (asprintf(&name, "%s" TEMPORARY_MARK "%ld-%06x", target,
		     (long)getpid(), salt & 0xffffff) < 0)
		return NULL;
	return name;
}

static int open_named(struct cp_atomic_file *file)
{
	char *name = NULL;
	int fd;

	if (asprintf(&name, "%s" TEMPORARY_MARK "%ld-XXXXXX", file->target,
		     (long)getpid()) < 0)
		return -ENOMEM;
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		free(name);
		return -err;
	}
	file->temporary = name;
	file->way = CP_ATOMIC_FILE_NAMED;
	return fd;
}

/* An O_TMPFILE in the target's directory, or -errno. */
static int open_unnamed(struct cp_atomic_file *file)
{
	const char *slash = strrchr(file->target, '/');
	char *dir = strndup(file->target, slash - file->target + 1);
	int fd;

	if (!dir)
		return -ENOMEM;
	/* linkat() needs /proc to give the unnamed file a name. */
	fd = access("/proc/self/fd", X_OK) ? -1 :
		open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	free(dir);
	if (fd < 0)
		return -errno;
	file->way = CP_ATOMIC_FILE_UNNAMED;
	return fd;
}

/* The mode and owner a replacement keeps: the old file's, or a new
 * file's under the umask.  -EACCES if the user may not write the old
 * one: renaming over it would defeat its mode. */
static int choose_mode(struct cp_atomic_file *file,
		       const struct cp_path_target *where)
{
	mode_t mask = umask(0);

	umask(mask);
	file->mode = 0666 & ~mask;
	file->target_existed = where->exists;
	if (!where->exists)
		return 0;
	if (access(where->resolved, W_OK))
		return -errno;
	file->mode = where->st.st_mode & 07777;
	file->uid = where->st.st_uid;
	file->gid = where->st.st_gid;
	return 0;
}

static int open_replacement(struct cp_atomic_file *file,
			    const struct cp_path_target *where,
			    bool unnamed)
{
	int ret = choose_mode(file, where), fd;

	if (ret)
		return ret;
	file->target = strdup(where->resolved);
	if (!file->target)
		return -ENOMEM;
	remove_stale(file->target);
	fd = unnamed ? open_unnamed(file) : -EOPNOTSUPP;
	/* Not every file system has O_TMPFILE (overlayfs before 6.6, NFS). */
	if (fd < 0)
		fd = open_named(file);
	if (fd < 0)
		return fd;
	/* Root replacing a user's file gives it back to the user. */
	if (file->target_existed &&
	    fchown(fd, file->uid, file->gid) && errno != EPERM)
		ret = -errno;
	else if (fchmod(fd, file->mode))
		ret = -errno;
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/* Standard output or error as they are (offset, O_APPEND), or the
 * device or FIFO opened for writing. */
static int open_in_place(struct cp_atomic_file *file,
			 const struct cp_path_target *where, const char *path)
{
	int fd;

	file->way = CP_ATOMIC_FILE_IN_PLACE;
	if (cp_path_target_is_fd(where, STDOUT_FILENO))
		fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
	else if (cp_path_target_is_fd(where, STDERR_FILENO))
		fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
	else
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int open_file(struct cp_atomic_file *file, const char *target,
		     bool unnamed)
{
	struct cp_path_target where;
	int fd = cp_path_target_resolve(target, &where);

	memset(file, 0, sizeof(*file));
	if (fd)
		return fd;
	if (where.exists && S_ISDIR(where.st.st_mode))
		fd = -EISDIR;
	else if (where.exists && (!S_ISREG(where.st.st_mode) ||
				  cp_path_target_is_fd(&where, STDOUT_FILENO) ||
				  cp_path_target_is_fd(&where, STDERR_FILENO)))
		fd = open_in_place(file, &where, target);
	else
		fd = open_replacement(file, &where, unnamed);
	cp_path_target_free(&where);
	if (fd >= 0) {
		file->stream = fdopen(fd, "w");
		if (!file->stream) {
			close(fd);
			fd = -errno;
		}
	}
	if (fd < 0) {
		if (file->temporary)
			unlink(file->temporary);
		release(file);
		return fd;
	}
	return 0;
}

int cp_atomic_file_open(struct cp_atomic_file *file, const char *target)
{
	return open_file(file, target, true);
}

int cp_atomic_file_open_named(struct cp_atomic_file *file,
			      const char *target)
{
	return open_file(file, target, false);
}

/*
 * Give the unnamed file @fd the target's name.  linkat() will not replace
 * a file, so an existing target is replaced by a rename from a name of
 * our own; a run killed between the two leaves that name to a later run.
 */
static int link_unnamed(struct cp_atomic_file *file, int fd)
{
	char proc[64], *name;
	unsigned int salt = (unsigned int)time(NULL) ^ (unsigned int)fd;
	int err = 0;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!file->target_existed &&
	    !linkat(AT_FDCWD, proc, AT_FDCWD, file->target, AT_SYMLINK_FOLLOW))
		return 0;
	if (!file->target_existed && errno != EEXIST)
		return -errno;
	for (int tries = 0; tries < 100; tries++) {
		name = temporary_name(file->target, salt);
		salt = salt * 1103515245u + 12345u;
		if (!name)
			return -ENOMEM;
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW))
			break;
		err = errno;
		free(name);
		name = NULL;
		if (err != EEXIST)
			return -err;
	}
	if (!name)
		return -EEXIST;
	if (rename(name, file->target)) {
		err = errno;
		unlink(name);
	}
	free(name);
	return -err;
}

int cp_atomic_file_commit(struct cp_atomic_file *file)
{
	int fd = fileno(file->stream);
	int err = 0;

	errno = 0;
	if (fflush(file->stream) || ferror(file->stream))
		err = errno ? errno : EIO;
	else if (file->way != CP_ATOMIC_FILE_IN_PLACE && fsync(fd))
		err = errno;
	if (!err && file->way == CP_ATOMIC_FILE_UNNAMED)
		err = -link_unnamed(file, fd);
	if (fclose(file->stream) && !err)
		err = errno;
	file->stream = NULL;
	if (!err && file->way == CP_ATOMIC_FILE_NAMED &&
	    rename(file->temporary, file->target))
		err = errno;
	if (err && file->temporary)
		unlink(file->temporary);
	release(file);
	return -err;
}

void cp_atomic_file_abort(struct cp_atomic_file *file)
{
	if (file->stream)
		fclose(file->stream);
	if (file->temporary)
		unlink(file->temporary);
	release(file);
}
