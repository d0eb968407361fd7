// SPDX-License-Identifier: GPL-2.0
#include "machine/sysfs_read.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void cp_sysfs_path(const char *root, const char *relative, char *out,
		   size_t len)
{
	snprintf(out, len, "%s/%s", root ? root : "", relative);
}

bool cp_sysfs_read_line(const char *root, const char *relative, char *out,
			size_t len)
{
	char path[512];
	FILE *file;
	bool ok;

	cp_sysfs_path(root, relative, path, sizeof(path));
	file = fopen(path, "r");
	if (!file)
		return false;
	ok = fgets(out, (int)len, file) != NULL;
	if (!ok) {
		/* An empty file (e.g. no isolated CPUs) is an empty line; a
		 * read error (a directory, a refused attribute) is no value. */
		ok = !ferror(file);
		out[0] = '\0';
		fclose(file);
		return ok;
	}
	fclose(file);
	out[strcspn(out, "\n")] = '\0';
	return true;
}

int cp_sysfs_write(const char *root, const char *relative, const char *text)
{
	char path[512];
	FILE *file;
	int err = 0;

	cp_sysfs_path(root, relative, path, sizeof(path));
	file = fopen(path, "w");
	if (!file)
		return -errno;
	if (fputs(text, file) == EOF)
		err = errno ? errno : EIO;
	/* sysfs reports a refused value when the write is flushed. */
	if (fclose(file) && !err)
		err = errno ? errno : EIO;
	return -err;
}
