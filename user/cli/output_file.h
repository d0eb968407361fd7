/* SPDX-License-Identifier: GPL-2.0 */
/* One output of a command written whole or not at all, or to standard
 * output: what report's --output and compare's --json and --markdown
 * share. */
#ifndef CACHEPROBE_OUTPUT_FILE_H
#define CACHEPROBE_OUTPUT_FILE_H

#include <stdio.h>

/* Write the output to @out; 0 or -errno. */
typedef int (*cli_output_writer)(const void *context, FILE *out);

/*
 * @write(@context) into @path: standard output for '-' or a name of it,
 * else a file replaced whole or not at all (lib/atomic_file.h).
 * CLI_EXIT_OK; the usage error "@option: cannot write 'PATH': why" when
 * @path cannot be opened; CLI_EXIT_FAILURE, said, when writing failed.
 */
int cli_write_output(const char *command, const char *option,
		     const char *path, cli_output_writer write,
		     const void *context);

#endif
