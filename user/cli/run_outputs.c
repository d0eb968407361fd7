// SPDX-License-Identifier: GPL-2.0
#include "cli/run_outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/path_uses.h"
#include "results/results_csv.h"
#include "results/results_json.h"
#include "report/report.h"

static int write_json(const struct cp_results *results, FILE *out)
{
	return cp_results_write_json(results, out);
}

static int write_csv(const struct cp_results *results, FILE *out)
{
	return cp_results_write_csv(results, out);
}

static const struct {
	const char *option;
	int (*write)(const struct cp_results *results, FILE *out);
} kinds[RUN_NR_OUTPUTS] = {
	[RUN_OUTPUT_JSON] = { "--json", write_json },
	[RUN_OUTPUT_CSV] = { "--csv", write_csv },
	[RUN_OUTPUT_REPORT] = { "--report", cp_report_write },
};

const char *run_output_option(enum run_output_kind kind)
{
	return kinds[kind].option;
}

bool run_outputs_to_stdout(const char *const paths[RUN_NR_OUTPUTS])
{
	for (int k = 0; k < RUN_NR_OUTPUTS; k++)
		if (cli_path_is_stdout(paths[k]))
			return true;
	return false;
}

int run_outputs_open(struct run_outputs *outputs, const char *command,
		     const char *const paths[RUN_NR_OUTPUTS])
{
	memset(outputs, 0, sizeof(*outputs));
	for (int k = 0; k < RUN_NR_OUTPUTS; k++) {
		int ret;

		outputs->paths[k] = paths[k];
		if (!paths[k] || cli_path_is_stdout(paths[k]))
			continue;
		ret = cp_atomic_file_open(&outputs->files[k], paths[k]);
		if (ret) {
			run_outputs_abort(outputs);
			return cli_usage_error(command,
					       "%s: cannot write '%s': %s",
					       kinds[k].option, paths[k],
					       strerror(-ret));
		}
		outputs->open[k] = true;
	}
	return CLI_PROCEED;
}

static void announce(FILE *out, const char *what, const char *path)
{
	char *full = realpath(path, NULL);

	fprintf(out, "%s: %s\n", what, full ? full : path);
	free(full);
}

/* Write output @k, commit it; CLI_EXIT_OK or CLI_EXIT_FAILURE. */
static int finish(struct run_outputs *outputs, int k, const char *command,
		  const struct cp_results *results)
{
	struct cp_atomic_file *file = &outputs->files[k];
	int ret = kinds[k].write(results, file->stream);

	outputs->open[k] = false;
	if (ret)
		cp_atomic_file_abort(file);
	else
		ret = cp_atomic_file_commit(file);
	if (ret) {
		fprintf(stderr, "%s: %s: cannot write %s: %s\n", CLI_PROGRAM,
			command, outputs->paths[k], strerror(-ret));
		return CLI_EXIT_FAILURE;
	}
	if (outputs->announce)
		announce(outputs->announce,
			 k == RUN_OUTPUT_REPORT ? "report" : "results",
			 outputs->paths[k]);
	return CLI_EXIT_OK;
}

int run_outputs_write(struct run_outputs *outputs, const char *command,
		      const struct cp_results *results)
{
	int status = CLI_EXIT_OK;

	for (int k = 0; k < RUN_NR_OUTPUTS; k++) {
		if (cli_path_is_stdout(outputs->paths[k]) &&
		    (kinds[k].write(results, stdout) || fflush(stdout))) {
			fprintf(stderr, "%s: %s: cannot write %s to standard output\n",
				CLI_PROGRAM, command, kinds[k].option);
			status = CLI_EXIT_FAILURE;
		}
		if (outputs->open[k] &&
		    finish(outputs, k, command, results) != CLI_EXIT_OK)
			status = CLI_EXIT_FAILURE;
	}
	return status;
}

void run_outputs_abort(struct run_outputs *outputs)
{
	for (int k = 0; k < RUN_NR_OUTPUTS; k++) {
		if (outputs->open[k])
			cp_atomic_file_abort(&outputs->files[k]);
		outputs->open[k] = false;
	}
}
