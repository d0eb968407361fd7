// SPDX-License-Identifier: GPL-2.0
/* Output files: replaced whole or not at all, and never destroying what
 * was not handed over for writing (links, FIFOs, modes). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/atomic_file.h"
#include "results/path_target.h"
#include "results_fixture.h"

struct place {
	char dir[512];
	char path[600];
};

static int make_place(void **state)
{
	struct place *place = calloc(1, sizeof(*place));

	if (!place)
		return -1;
	fixture_temporary_directory(place->dir, sizeof(place->dir));
	snprintf(place->path, sizeof(place->path), "%s/out.json", place->dir);
	*state = place;
	return 0;
}

static int remove_place(void **state)
{
	struct place *place = *state;
	char command[600];

	snprintf(command, sizeof(command), "rm -rf '%s'", place->dir);
	if (system(command))
		return -1;
	free(place);
	return 0;
}

static size_t entries(const char *directory)
{
	DIR *dir = opendir(directory);
	size_t count = 0;
	struct dirent *entry;

	assert_non_null(dir);
	while ((entry = readdir(dir)))
		count += strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..");
	closedir(dir);
	return count;
}

static void write_text(const char *path, const char *text, mode_t mode)
{
	FILE *file = fopen(path, "w");

	assert_non_null(file);
	fputs(text, file);
	assert_int_equal(fclose(file), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static void assert_text(const char *path, const char *expected)
{
	char content[64] = "";
	FILE *file = fopen(path, "r");

	assert_non_null(file);
	assert_non_null(fgets(content, sizeof(content), file));
	fclose(file);
	assert_string_equal(content, expected);
}

static void replace(const char *path, const char *text)
{
	struct cp_atomic_file file;

	assert_int_equal(cp_atomic_file_open(&file, path), 0);
	fputs(text, file.stream);
	assert_int_equal(cp_atomic_file_commit(&file), 0);
}

/* Either way of making the temporary: nothing until commit, the whole
 * file after it, nothing at all after an abort. */
static void check_way(const char *dir, const char *path, bool unnamed)
{
	struct cp_atomic_file file;
	int ret = unnamed ? cp_atomic_file_open(&file, path)
			  : cp_atomic_file_open_named(&file, path);

	assert_int_equal(ret, 0);
	fputs("partial", file.stream);
	assert_int_equal(entries(dir),
			 file.way == CP_ATOMIC_FILE_UNNAMED ? 0 : 1);
	cp_atomic_file_abort(&file);
	assert_int_equal(entries(dir), 0);
	ret = unnamed ? cp_atomic_file_open(&file, path)
		      : cp_atomic_file_open_named(&file, path);
	assert_int_equal(ret, 0);
	if (!unnamed)
		assert_int_equal(file.way, CP_ATOMIC_FILE_NAMED);
	fputs("complete\n", file.stream);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(cp_atomic_file_commit(&file), 0);
	assert_int_equal(entries(dir), 1);
	assert_text(path, "complete\n");
	/* And again over the file now there. */
	replace(path, "again\n");
	assert_int_equal(entries(dir), 1);
	assert_text(path, "again\n");
	unlink(path);
}

static void test_whole_or_nothing(void **state)
{
	struct place *place = *state;

	check_way(place->dir, place->path, true);
	check_way(place->dir, place->path, false);
}

static void test_refusals(void **state)
{
	struct place *place = *state;
	struct cp_atomic_file file;
	char missing[700];

	snprintf(missing, sizeof(missing), "%s/missing/out.json", place->dir);
	assert_int_equal(cp_atomic_file_open(&file, missing), -ENOENT);
	assert_int_equal(cp_atomic_file_open(&file, place->dir), -EISDIR);
	assert_int_equal(entries(place->dir), 0);
}

static void test_mode_kept(void **state)
{
	struct place *place = *state;
	struct stat st;

	write_text(place->path, "old\n", 0600);
	replace(place->path, "new\n");
	assert_int_equal(stat(place->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_text(place->path, "new\n");
}

/* latest.json -> runs/today.json keeps pointing there, existing or not. */
static void test_symlink_followed(void **state)
{
	struct place *place = *state;
	char link[700], runs[700], today[700], text[64];
	struct stat st;
	ssize_t len;

	snprintf(link, sizeof(link), "%s/latest.json", place->dir);
	snprintf(runs, sizeof(runs), "%s/runs", place->dir);
	snprintf(today, sizeof(today), "%s/runs/today.json", place->dir);
	assert_int_equal(mkdir(runs, 0755), 0);
	assert_int_equal(symlink("runs/today.json", link), 0);
	replace(link, "first\n");	/* dangling: made where it points */
	assert_text(today, "first\n");
	replace(link, "second\n");
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	len = readlink(link, text, sizeof(text) - 1);
	assert_int_equal(len, strlen("runs/today.json"));
	text[len] = '\0';
	assert_string_equal(text, "runs/today.json");
	assert_text(today, "second\n");
	assert_int_equal(entries(runs), 1);
}

/* A FIFO is written in place: it stays a FIFO and its reader gets the
 * text. */
static void test_fifo_in_place(void **state)
{
	struct place *place = *state;
	struct cp_atomic_file file;
	char got[32] = "";
	struct stat st;
	int reader;

	assert_int_equal(mkfifo(place->path, 0644), 0);
	reader = open(place->path, O_RDONLY | O_NONBLOCK);
	assert_true(reader >= 0);
	assert_int_equal(cp_atomic_file_open(&file, place->path), 0);
	assert_int_equal(file.way, CP_ATOMIC_FILE_IN_PLACE);
	fputs("through\n", file.stream);
	assert_int_equal(cp_atomic_file_commit(&file), 0);
	assert_int_equal(read(reader, got, sizeof(got) - 1), 8);
	assert_string_equal(got, "through\n");
	close(reader);
	assert_int_equal(stat(place->path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(entries(place->dir), 1);
}

/* A pid that has certainly ended (reused only after wrapping around). */
static pid_t ended_pid(void)
{
	pid_t child = fork();

	assert_true(child >= 0);
	if (!child)
		_exit(0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	return child;
}

/* Temporaries of killed runs go at the next write of the same file;
 * those of live runs and of other files stay. */
static void test_stale_temporaries(void **state)
{
	struct place *place = *state;
	char dead[700], alive[700], other[700];

	snprintf(dead, sizeof(dead), "%s.tmp-%ld-a1b2c3", place->path,
		 (long)ended_pid());
	snprintf(alive, sizeof(alive), "%s.tmp-%ld-a1b2c3", place->path,
		 (long)getppid());
	snprintf(other, sizeof(other), "%s/other.json.tmp-%ld-a1b2c3",
		 place->dir, (long)ended_pid());
	write_text(dead, "{", 0600);
	write_text(alive, "{", 0600);
	write_text(other, "{", 0600);
	replace(place->path, "done\n");
	assert_int_equal(access(dead, F_OK), -1);
	assert_int_equal(access(alive, F_OK), 0);
	assert_int_equal(access(other, F_OK), 0);
	assert_int_equal(entries(place->dir), 3);
}

static void test_same_target(void **state)
{
	struct place *place = *state;
	struct cp_path_target a, b;
	char spelt[700], hard[700], sub[700];

	snprintf(sub, sizeof(sub), "%s/sub", place->dir);
	snprintf(spelt, sizeof(spelt), "%s/./sub/../out.json", place->dir);
	snprintf(hard, sizeof(hard), "%s/hard.json", place->dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	/* Not there yet: the same name in the same directory. */
	assert_int_equal(cp_path_target_resolve(place->path, &a), 0);
	assert_int_equal(cp_path_target_resolve(spelt, &b), 0);
	assert_false(a.exists);
	assert_true(cp_path_target_same(&a, &b));
	cp_path_target_free(&a);
	cp_path_target_free(&b);
	/* There: the same inode, by a hard link too. */
	write_text(place->path, "x\n", 0644);
	assert_int_equal(link(place->path, hard), 0);
	assert_int_equal(cp_path_target_resolve(spelt, &a), 0);
	assert_int_equal(cp_path_target_resolve(hard, &b), 0);
	assert_true(a.exists);
	assert_true(cp_path_target_same(&a, &b));
	cp_path_target_free(&a);
	cp_path_target_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_whole_or_nothing,
						make_place, remove_place),
		cmocka_unit_test_setup_teardown(test_refusals, make_place,
						remove_place),
		cmocka_unit_test_setup_teardown(test_mode_kept, make_place,
						remove_place),
		cmocka_unit_test_setup_teardown(test_symlink_followed,
						make_place, remove_place),
		cmocka_unit_test_setup_teardown(test_fifo_in_place,
						make_place, remove_place),
		cmocka_unit_test_setup_teardown(test_stale_temporaries,
						make_place, remove_place),
		cmocka_unit_test_setup_teardown(test_same_target, make_place,
						remove_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
