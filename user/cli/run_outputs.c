// SPDX-License-Identifier: GPL-2.0
#include "cli/run_outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_util.h"
#include "lib/results_csv.h"
#include "lib/results_json.h"

static bool to_stdout(const char *path)
{
	return path && strcmp(path, "-") == 0;
}

/* The directory holding @path (which is changed), "." or "/" for short ones. */
static const char *directory_of(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	if (slash == path)
		return "/";
	*slash = '\0';
	return path;
}

/*
 * Whether @a and @b name one file however spelt ("x", "./x", "d/../x", a
 * link): the same existing file, or the same name in the same directory.
 * Both written, the second rename would silently replace the first.
 */
static bool same_target(const char *a, const char *b)
{
	const char *name_a = strrchr(a, '/'), *name_b = strrchr(b, '/');
	struct stat st_a, st_b;
	char *dir_a, *dir_b;
	bool same = false;

	if (stat(a, &st_a) == 0 && stat(b, &st_b) == 0)
		return st_a.st_dev == st_b.st_dev && st_a.st_ino == st_b.st_ino;
	name_a = name_a ? name_a + 1 : a;
	name_b = name_b ? name_b + 1 : b;
	if (strcmp(name_a, name_b) != 0)
		return false;
	dir_a = strdup(a);
	dir_b = strdup(b);
	if (dir_a && dir_b && stat(directory_of(dir_a), &st_a) == 0 &&
	    stat(directory_of(dir_b), &st_b) == 0)
		same = st_a.st_dev == st_b.st_dev && st_a.st_ino == st_b.st_ino;
	free(dir_a);
	free(dir_b);
	return same;
}

static int open_one(const char *command, const char *option, const char *path,
		    struct cp_atomic_file *file, bool *opened)
{
	int ret;

	if (!path || to_stdout(path))
		return CLI_PROCEED;
	ret = cp_atomic_file_open(file, path);
	if (ret)
		return cli_usage_error(command, "%s: cannot write '%s': %s",
				       option, path, strerror(-ret));
	*opened = true;
	return CLI_PROCEED;
}

int run_outputs_open(struct run_outputs *outputs, const char *command,
		     const char *json_path, const char *csv_path)
{
	int status;

	memset(outputs, 0, sizeof(*outputs));
	outputs->json_path = json_path;
	outputs->csv_path = csv_path;
	if (json_path && csv_path && !to_stdout(json_path) &&
	    !to_stdout(csv_path) && same_target(json_path, csv_path))
		return cli_usage_error(command,
				       "--json and --csv name the same file ('%s' and '%s')",
				       json_path, csv_path);
	status = open_one(command, "--json", json_path, &outputs->json,
			  &outputs->json_open);
	if (status == CLI_PROCEED)
		status = open_one(command, "--csv", csv_path, &outputs->csv,
				  &outputs->csv_open);
	if (status != CLI_PROCEED)
		run_outputs_abort(outputs);
	return status;
}

static int finish(const char *command, const char *path,
		  struct cp_atomic_file *file, bool *opened, int written)
{
	int ret;

	*opened = false;
	if (written) {
		cp_atomic_file_abort(file);
		ret = written;
	} else {
		ret = cp_atomic_file_commit(file);
	}
	if (!ret)
		return CLI_EXIT_OK;
	fprintf(stderr, "%s: %s: cannot write %s: %s\n", CLI_PROGRAM, command,
		path, strerror(-ret));
	return CLI_EXIT_FAILURE;
}

int run_outputs_write(struct run_outputs *outputs, const char *command,
		      const struct cp_results *results)
{
	int status = CLI_EXIT_OK;

	if (to_stdout(outputs->json_path) &&
	    cp_results_write_json(results, stdout))
		status = CLI_EXIT_FAILURE;
	if (to_stdout(outputs->csv_path) &&
	    cp_results_write_csv(results, stdout))
		status = CLI_EXIT_FAILURE;
	if (outputs->json_open &&
	    finish(command, outputs->json_path, &outputs->json,
		   &outputs->json_open,
		   cp_results_write_json(results, outputs->json.stream)))
		status = CLI_EXIT_FAILURE;
	if (outputs->csv_open &&
	    finish(command, outputs->csv_path, &outputs->csv,
		   &outputs->csv_open,
		   cp_results_write_csv(results, outputs->csv.stream)))
		status = CLI_EXIT_FAILURE;
	return status;
}

void run_outputs_abort(struct run_outputs *outputs)
{
	if (outputs->json_open)
		cp_atomic_file_abort(&outputs->json);
	if (outputs->csv_open)
		cp_atomic_file_abort(&outputs->csv);
	outputs->json_open = outputs->csv_open = false;
}
