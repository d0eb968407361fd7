// SPDX-License-Identifier: GPL-2.0
#include "cli/output_file.h"

#include <string.h>

#include "cli/cli_util.h"
#include "cli/path_uses.h"
#include "lib/atomic_file.h"

int cli_write_output(const char *command, const char *option,
		     const char *path, cli_output_writer write,
		     const void *context)
{
	struct cp_atomic_file file;
	int ret;

	if (cli_path_is_stdout(path)) {
		if (write(context, stdout) || fflush(stdout)) {
			fprintf(stderr, "%s: %s: cannot write to standard output\n",
				CLI_PROGRAM, command);
			return CLI_EXIT_FAILURE;
		}
		return CLI_EXIT_OK;
	}
	ret = cp_atomic_file_open(&file, path);
	if (ret)
		return cli_usage_error(command, "%s: cannot write '%s': %s",
				       option, path, strerror(-ret));
	ret = write(context, file.stream);
	if (ret)
		cp_atomic_file_abort(&file);
	else
		ret = cp_atomic_file_commit(&file);
	if (ret) {
		fprintf(stderr, "%s: %s: cannot write %s: %s\n", CLI_PROGRAM,
			command, path, strerror(-ret));
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}
