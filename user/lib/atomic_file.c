// SPDX-License-Identifier: GPL-2.0
#include "atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void release(struct cp_atomic_file *file)
{
	free(file->target);
	free(file->temporary);
	memset(file, 0, sizeof(*file));
}

int cp_atomic_file_open(struct cp_atomic_file *file, const char *target)
{
	size_t len = strlen(target);
	struct stat st;
	int fd;

	memset(file, 0, sizeof(*file));
	/* rename() would only refuse a directory after all the work. */
	if (stat(target, &st) == 0 && S_ISDIR(st.st_mode))
		return -EISDIR;
	file->target = strdup(target);
	file->temporary = malloc(len + sizeof(".tmp-XXXXXX"));
	if (!file->target || !file->temporary) {
		release(file);
		return -ENOMEM;
	}
	/* Same directory as the target, so rename() cannot cross devices. */
	memcpy(file->temporary, target, len);
	memcpy(file->temporary + len, ".tmp-XXXXXX", sizeof(".tmp-XXXXXX"));
	fd = mkstemp(file->temporary);
	if (fd < 0) {
		int err = errno;

		release(file);
		return -err;
	}
	/* mkstemp makes 0600; results are for sharing, like any new file. */
	mode_t mask = umask(0);

	umask(mask);
	fchmod(fd, 0666 & ~mask);
	file->stream = fdopen(fd, "w");
	if (!file->stream) {
		int err = errno;

		close(fd);
		unlink(file->temporary);
		release(file);
		return -err;
	}
	return 0;
}

int cp_atomic_file_commit(struct cp_atomic_file *file)
{
	int err = 0;

	if (fflush(file->stream) || ferror(file->stream) ||
	    fsync(fileno(file->stream)))
		err = errno ? errno : EIO;
	if (fclose(file->stream) && !err)
		err = errno;
	file->stream = NULL;
	if (!err && rename(file->temporary, file->target))
		err = errno;
	if (err)
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
