// SPDX-License-Identifier: GPL-2.0
#include "cli/output_file.h"

#include <string.h>

#include "cli/cli_util.h"
#include "cli/path_uses.h"
#include "results/atomic_file.h"

int cli_output_open(struct cli_output *output, const char *command,
		    const char *option, const char *path)
{
	int ret;

	*output = (struct cli_output){
		.command = command, .option = option, .path = path,
	};
	if (!path || cli_path_is_stdout(path))
		return CLI_PROCEED;
	ret = cp_atomic_file_open(&output->file, path);
	if (ret)
		return cli_usage_error(command, "%s: cannot write '%s': %s",
				       option, path, strerror(-ret));
	output->open = true;
	return CLI_PROCEED;
}

int cli_output_finish(struct cli_output *output, cli_output_writer write,
		      const void *context)
{
	int ret;

	if (!output->path)
		return CLI_EXIT_OK;
	if (!output->open) {
		if (write(context, stdout) || fflush(stdout)) {
			fprintf(stderr, "%s: %s: cannot write to standard output\n",
				CLI_PROGRAM, output->command);
			return CLI_EXIT_FAILURE;
		}
		return CLI_EXIT_OK;
	}
	output->open = false;
	ret = write(context, output->file.stream);
	if (ret)
		cp_atomic_file_abort(&output->file);
	else
		ret = cp_atomic_file_commit(&output->file);
	if (ret) {
		fprintf(stderr, "%s: %s: cannot write %s: %s\n", CLI_PROGRAM,
			output->command, output->path, strerror(-ret));
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}

void cli_output_abort(struct cli_output *output)
{
	if (output->open)
		cp_atomic_file_abort(&output->file);
	output->open = false;
}

int cli_write_output(const char *command, const char *option,
		     const char *path, cli_output_writer write,
		     const void *context)
{
	struct cli_output output;
	int status = cli_output_open(&output, command, option, path);

	return status == CLI_PROCEED ? cli_output_finish(&output, write,
							 context)
				     : status;
}
