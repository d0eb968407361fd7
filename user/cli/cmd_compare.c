// SPDX-License-Identifier: GPL-2.0
/*
 * cacheprobe-run compare A.json B.json: for each measurement in both (the
 * same area, name and mode), the ratio of medians (B/A), its interval and
 * a verdict (lib/comparison.h).  Every measurement is a time per
 * operation, so slower is worse: a regression exits 1.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/compare_output.h"
#include "cli/path_uses.h"
#include "lib/atomic_file.h"
#include "lib/comparison.h"
#include "lib/results_index.h"
#include "lib/results_json.h"

#define COMMAND "compare"

static const char usage[] =
	"Usage: " CLI_PROGRAM " compare [OPTIONS] BASELINE.json NEW.json\n"
	"\n"
	"Compare the measurements two runs have in common: ratio of medians\n"
	"(new / baseline), its interval, and a verdict: REGRESSION or\n"
	"improvement when the change is significant across the whole table\n"
	"and its interval lies wholly beyond the threshold, same when the\n"
	"interval lies wholly within it, unclear otherwise.\n"
	"\n"
	"Options:\n"
	"      --threshold=PCT  smallest change that counts (default 5)\n"
	"      --alpha=P        false discovery rate across the table,\n"
	"                       0 < P < 1 (default 0.05)\n"
	"      --json=FILE      write the verdicts and totals as JSON\n"
	"      --markdown=FILE  write them as Markdown (a pull-request comment)\n"
	"                       ('-': standard output, instead of the table)\n"
	"  -h, --help           show this help\n"
	"\n"
	"Exit status: 0 no regression, 1 a regression (or an output that could\n"
	"not be written), 2 wrong usage or unreadable or incompatible files.\n";

struct compare_options {
	double threshold;	/* share, 0.05 for 5 % */
	double alpha;
	const char *paths[2];
	const char *json;	/* NULL: not asked; "-": standard output */
	const char *markdown;
};

/* A number in [@min, @max) (@min excluded too unless @min_allowed). */
static int parse_number(const char *name, const char *text, double min,
			bool min_allowed, double max, double *out)
{
	char *end;
	double value;

	errno = 0;
	value = strtod(text, &end);
	if (errno || end == text || *end || !(value < max) ||
	    !(value > min || (min_allowed && value == min)))
		return cli_usage_error(COMMAND,
				       "%s: '%s' is not a number from %g%s to below %g",
				       name, text, min,
				       min_allowed ? "" : " (excluded)", max);
	*out = value;
	return 0;
}

/* No output over an input, or two outputs into one file or stream. */
static int check_paths(const struct compare_options *options)
{
	const struct cli_path_use uses[] = {
		{ "BASELINE.json", options->paths[0], true },
		{ "NEW.json", options->paths[1], true },
		{ "--json", options->json, false },
		{ "--markdown", options->markdown, false },
	};

	return cli_check_path_uses(COMMAND, uses,
				   sizeof(uses) / sizeof(uses[0]));
}

static int parse_options(int argc, char **argv, struct compare_options *options)
{
	static const struct option long_options[] = {
		{ "threshold", required_argument, NULL, 'T' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "json", required_argument, NULL, 'j' },
		{ "markdown", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret = 0;

	opterr = 0;
	while (!ret && (opt = getopt_long(argc, argv, ":h", long_options,
					  NULL)) != -1) {
		if (opt == 'T') {
			ret = parse_number("--threshold", optarg, 0, true,
					   1000, &options->threshold);
			options->threshold /= 100;
		} else if (opt == 'a') {
			ret = parse_number("--alpha", optarg, 0, false, 1,
					   &options->alpha);
		} else if (opt == 'j' || opt == 'm') {
			if (!*optarg)
				return cli_usage_error(COMMAND,
						       "--%s: empty file name",
						       opt == 'j' ? "json"
								  : "markdown");
			*(opt == 'j' ? &options->json : &options->markdown) =
				optarg;
		} else if (opt == 'h') {
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		} else {
			return cli_option_error(COMMAND, opt, optopt,
						argv[optind - 1]);
		}
	}
	if (ret)
		return ret;
	if (argc - optind != 2)
		return cli_usage_error(COMMAND,
				       "needs two result files (baseline and new), got %d",
				       argc - optind);
	options->paths[0] = argv[optind];
	options->paths[1] = argv[optind + 1];
	return check_paths(options);
}

typedef int (*compare_writer)(const struct compare_context *, FILE *);

/* @write into @path ('-': standard output), whole or not at all. */
static int write_output(const char *option, const char *path,
			compare_writer write,
			const struct compare_context *context)
{
	struct cp_atomic_file file;
	int ret;

	if (cli_path_is_stdout(path)) {
		if (write(context, stdout) || fflush(stdout)) {
			fprintf(stderr, "%s: %s: %s: cannot write to standard output\n",
				CLI_PROGRAM, COMMAND, option);
			return CLI_EXIT_FAILURE;
		}
		return CLI_EXIT_OK;
	}
	ret = cp_atomic_file_open(&file, path);
	if (!ret) {
		ret = write(context, file.stream);
		if (ret)
			cp_atomic_file_abort(&file);
		else
			ret = cp_atomic_file_commit(&file);
	}
	if (ret) {
		fprintf(stderr, "%s: %s: %s: cannot write '%s': %s\n",
			CLI_PROGRAM, COMMAND, option, path, strerror(-ret));
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}

/* Every output asked for; the console table unless another output took
 * standard output.  CLI_EXIT_OK or CLI_EXIT_FAILURE. */
static int write_outputs(const struct compare_options *options,
			 const struct compare_context *context)
{
	bool stdout_taken = false;
	int status = CLI_EXIT_OK;

	if (options->json) {
		stdout_taken |= cli_path_is_stdout(options->json);
		status |= write_output("--json", options->json,
				       compare_write_json, context);
	}
	if (options->markdown) {
		stdout_taken |= cli_path_is_stdout(options->markdown);
		status |= write_output("--markdown", options->markdown,
				       compare_write_markdown, context);
	}
	if (!stdout_taken && (compare_write_console(context, stdout) ||
			      fflush(stdout))) {
		fprintf(stderr, "%s: %s: cannot write to standard output\n",
			CLI_PROGRAM, COMMAND);
		status = CLI_EXIT_FAILURE;
	}
	return status;
}

static int compare_runs(const struct compare_options *options,
			const struct cp_results *runs,
			const struct cp_results_index *indexes)
{
	struct cp_comparison comparison;
	struct compare_context context = {
		.paths = { options->paths[0], options->paths[1] },
		.runs = { &runs[0], &runs[1] },
		.comparison = &comparison,
	};
	int status;

	if (cp_comparison_build(&runs[0], &indexes[0], &runs[1], &indexes[1],
				options->threshold, options->alpha,
				&comparison)) {
		fprintf(stderr, "%s: %s: out of memory\n", CLI_PROGRAM,
			COMMAND);
		return CLI_EXIT_FAILURE;
	}
	if (!comparison.nr_rows) {
		fprintf(stderr,
			"%s: compare: %s and %s have no measurement in common\n",
			CLI_PROGRAM, options->paths[0], options->paths[1]);
		cp_comparison_free(&comparison);
		return CLI_EXIT_USAGE;
	}
	status = write_outputs(options, &context);
	if (comparison.totals[CP_VERDICT_REGRESSION])
		status = CLI_EXIT_FAILURE;
	cp_comparison_free(&comparison);
	return status;
}

/* A run read and indexed, or an error said: CLI_PROCEED or an exit. */
static int load_run(const char *path, struct cp_results *results,
		    struct cp_results_index *index)
{
	const struct cp_measurement *first, *second;
	struct cp_error error;
	int ret;

	if (cp_results_read_json_samples(path, results, &error)) {
		fprintf(stderr, "%s: compare: %s\n", CLI_PROGRAM, error.msg);
		return CLI_EXIT_USAGE;
	}
	ret = cp_results_index_build(index, results, &first, &second);
	if (!ret)
		return CLI_PROCEED;
	if (ret == -EEXIST)
		fprintf(stderr,
			"%s: compare: %s: measurements %td and %td are both \"%s: %s\" in mode \"%s\"\n",
			CLI_PROGRAM, path, first - results->measurements,
			second - results->measurements, first->area,
			first->name, first->mode);
	else
		fprintf(stderr, "%s: compare: %s: %s\n", CLI_PROGRAM, path,
			strerror(-ret));
	cp_results_index_free(index);
	cp_results_free(results);
	return ret == -EEXIST ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_options options = { .threshold = 0.05, .alpha = 0.05 };
	struct cp_results results[2];
	struct cp_results_index indexes[2];
	int status = parse_options(argc, argv, &options);

	if (status != CLI_PROCEED)
		return status;
	status = load_run(options.paths[0], &results[0], &indexes[0]);
	if (status != CLI_PROCEED)
		return status;
	status = load_run(options.paths[1], &results[1], &indexes[1]);
	if (status != CLI_PROCEED) {
		cp_results_index_free(&indexes[0]);
		cp_results_free(&results[0]);
		return status;
	}
	status = compare_runs(&options, results, indexes);
	for (int i = 0; i < 2; i++) {
		cp_results_index_free(&indexes[i]);
		cp_results_free(&results[i]);
	}
	return status;
}
