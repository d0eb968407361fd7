// SPDX-License-Identifier: GPL-2.0
/*
 * cacheprobe-run report RESULTS.json [-o FILE.html]: the HTML report of a
 * saved run, as `run --report` makes it, for lab scripts that keep the
 * JSON and render later.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/output_file.h"
#include "cli/path_uses.h"
#include "results/results_json.h"
#include "report/report.h"

#define COMMAND "report"

static const char usage[] =
	"Usage: " CLI_PROGRAM " report [OPTIONS] RESULTS.json\n"
	"\n"
	"Make the self-contained HTML report (charts and tables) of a run saved\n"
	"with --json.\n"
	"\n"
	"Options:\n"
	"  -o, --output=FILE  write the report to FILE, replaced whole or not\n"
	"                     at all ('-' or no option: standard output)\n"
	"  -h, --help         show this help\n"
	"\n"
	"Exit status: 0 written, 1 the report could not be written, 2 wrong\n"
	"usage or a file that is not a cacheprobe result.\n";

static const struct option long_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct report_options {
	const char *input;
	const char *output;	/* NULL or "-": standard output */
};

static int parse(int argc, char **argv, struct report_options *options)
{
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":o:h", long_options, NULL)) !=
	       -1) {
		switch (opt) {
		case 'o':
			if (!*optarg)
				return cli_usage_error(COMMAND,
						       "--output: empty file name");
			options->output = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		default:
			return cli_option_error(COMMAND, opt, optopt,
						argv[optind - 1]);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error(COMMAND,
				       optind == argc ? "no results file named"
						      : "one results file, please");
	options->input = argv[optind];
	return CLI_PROCEED;
}

/* The report written over its own results would leave neither. */
static int check_paths(const struct report_options *options)
{
	const struct cli_path_use uses[] = {
		{ "RESULTS.json", options->input, true },
		{ "--output", options->output, false },
	};

	return cli_check_path_uses(COMMAND, uses,
				   sizeof(uses) / sizeof(uses[0]));
}

static int write_report(const void *results, FILE *out)
{
	return cp_report_write(results, out);
}

int cmd_report(int argc, char **argv)
{
	struct report_options options = { 0 };
	struct cp_results results;
	struct cp_error error;
	int status = parse(argc, argv, &options);

	if (status != CLI_PROCEED)
		return status;
	status = check_paths(&options);
	if (status != CLI_PROCEED)
		return status;
	if (cp_results_read_json(options.input, &results, &error)) {
		fprintf(stderr, "%s: %s: %s\n", CLI_PROGRAM, COMMAND,
			error.msg);
		return CLI_EXIT_USAGE;
	}
	status = cli_write_output(COMMAND, "--output",
				  options.output ? options.output : "-",
				  write_report, &results);
	cp_results_free(&results);
	return status;
}
