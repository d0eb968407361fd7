/* SPDX-License-Identifier: GPL-2.0 */
/* One output of a command written whole or not at all, or to standard
 * output: what report's --output and compare's --json and --markdown
 * share. */
#ifndef CACHEPROBE_OUTPUT_FILE_H
#define CACHEPROBE_OUTPUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "results/atomic_file.h"

/* Write the output to @out; 0 or -errno. */
typedef int (*cli_output_writer)(const void *context, FILE *out);

/*
 * @write(@context) into @path: standard output for '-' or a name of it,
 * else a file replaced whole or not at all (results/atomic_file.h).
 * CLI_EXIT_OK; the usage error "@option: cannot write 'PATH': why" when
 * @path cannot be opened; CLI_EXIT_FAILURE, said, when writing failed.
 */
int cli_write_output(const char *command, const char *option,
		     const char *path, cli_output_writer write,
		     const void *context);

/*
 * The same in two steps, for commands that do their work between: the
 * file is opened before the work, so that a path that cannot be written
 * is a usage error before anything was done.
 */
struct cli_output {
	const char *command, *option, *path;
	bool open;			/* a file, not standard output */
	struct cp_atomic_file file;
};

/* CLI_PROCEED, or the usage error; nothing to release then.  A NULL
 * @path opens nothing and writes nothing. */
int cli_output_open(struct cli_output *output, const char *command,
		    const char *option, const char *path);
/* Write and commit: CLI_EXIT_OK or CLI_EXIT_FAILURE, said. */
int cli_output_finish(struct cli_output *output, cli_output_writer write,
		      const void *context);
/* Leave the file as it was (the work failed). */
void cli_output_abort(struct cli_output *output);

#endif
