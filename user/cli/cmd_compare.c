// SPDX-License-Identifier: GPL-2.0
/*
 * cacheprobe-run compare A.json B.json: for each measurement in both (the
 * same area, name and mode), the ratio B/A, its interval and
 * a verdict (stats/comparison.h).  Every measurement is a time per
 * operation, so slower is worse: a regression exits 1.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/compare_output.h"
#include "cli/compare_sides.h"
#include "cli/output_file.h"
#include "cli/path_uses.h"
#include "stats/comparison.h"

#define COMMAND "compare"

static const char usage[] =
	"Usage: " CLI_PROGRAM " compare [OPTIONS] BASELINE.json NEW.json\n"
	"       " CLI_PROGRAM " compare [OPTIONS] BASELINE.json... -- NEW.json...\n"
	"\n"
	"Compare the measurements two runs have in common: the ratio new /\n"
	"baseline (median of the ratios of their samples), its interval, and a\n"
	"verdict: REGRESSION or improvement when the change is significant\n"
	"across the whole table and its interval lies wholly beyond the\n"
	"threshold, same when the interval lies wholly within it, unclear\n"
	"otherwise.  Several runs on a side (before and after '--') are\n"
	"pooled: their samples carry the variation between runs, which one\n"
	"run's samples cannot.  Measurements taken in rounds of new\n"
	"arrangements on both sides (see run --rounds) are judged on their\n"
	"rounds' medians (Welch's t test), not on samples that share a\n"
	"round.\n"
	"\n"
	"Options:\n"
	"      --threshold=PCT  smallest change that counts (default 5)\n"
	"      --alpha=P        false discovery rate across the table,\n"
	"                       0 < P < 1 (default 0.05)\n"
	"      --json=FILE      write the verdicts and totals as JSON\n"
	"      --markdown=FILE  write them as Markdown (a pull-request comment)\n"
	"                       ('-': standard output, instead of the table)\n"
	"      --cycles         judge in core cycles where both runs measured\n"
	"                       the core clock (its moves between runs left\n"
	"                       out; the medians shown stay in ns)\n"
	"  -v, --verbose        every row on a terminal too (a terminal shows\n"
	"                       the totals, the notes and the regressions and\n"
	"                       improvements in 80 columns; piped, the table\n"
	"                       is whole, a line per row)\n"
	"  -h, --help           show this help\n"
	"\n"
	"Exit status: 0 no regression, 1 a regression (or an output that could\n"
	"not be written), 2 wrong usage or unreadable or incompatible files.\n";

struct compare_options {
	double threshold;	/* share, 0.05 for 5 % */
	double alpha;
	char **paths[2];	/* the runs of the baseline, of the new side */
	size_t nr_paths[2];
	const char *json;	/* NULL: not asked; "-": standard output */
	const char *markdown;
	bool cycles;		/* --cycles */
	bool verbose;		/* --verbose */
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
	size_t nr_inputs = options->nr_paths[0] + options->nr_paths[1];
	struct cli_path_use *uses = calloc(nr_inputs + 2, sizeof(*uses));
	size_t n = 0;
	int status;

	if (!uses)
		return CLI_EXIT_FAILURE;
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < options->nr_paths[side]; i++)
			uses[n++] = (struct cli_path_use){
				side ? "NEW.json" : "BASELINE.json",
				options->paths[side][i], true,
			};
	uses[n++] = (struct cli_path_use){ "--json", options->json, false };
	uses[n++] = (struct cli_path_use){ "--markdown", options->markdown,
					   false };
	status = cli_check_path_uses(COMMAND, uses, n);
	free(uses);
	return status;
}

/* Whether @word, an option of the command line, takes the next word as
 * its value ("--json FILE", or "--js FILE" as getopt_long abbreviates). */
static bool takes_next_word(const char *word)
{
	static const char *const with_value[] = {
		"--threshold", "--alpha", "--json", "--markdown",
	};
	size_t len = strlen(word);

	if (len < 3 || strncmp(word, "--", 2) || strchr(word, '='))
		return false;
	for (size_t i = 0; i < sizeof(with_value) / sizeof(with_value[0]); i++)
		if (!strncmp(with_value[i], word, len))
			return true;
	return false;
}

/*
 * The '--' between the baseline runs and the new ones, taken out of @argv
 * before getopt (which would move it): the first '--' after a file.  A
 * '--' before any file ends the options as usual.  How many files come
 * before it, or -1 without one.
 */
static int take_separator(int *argc, char **argv)
{
	bool options_ended = false;
	int files = 0;

	for (int i = 1; i < *argc; i++) {
		const char *word = argv[i];

		if (!strcmp(word, "--") && (files || options_ended)) {
			if (!files)
				continue;
			memmove(&argv[i], &argv[i + 1],
				(size_t)(*argc - i) * sizeof(*argv));
			(*argc)--;
			return files;
		}
		if (!strcmp(word, "--"))
			options_ended = true;
		else if (options_ended || word[0] != '-' || !word[1])
			files++;
		else if (takes_next_word(word))
			i++;
	}
	return -1;
}

/* The files after the options: BASELINE NEW, or the two sides of '--'. */
static int take_files(int argc, char **argv, int separator,
		      struct compare_options *options)
{
	int nr_files = argc - optind;

	if (separator < 0 && nr_files != 2)
		return cli_usage_error(COMMAND,
				       "needs two result files (baseline and new), got %d",
				       nr_files);
	if (separator == 0 || separator >= nr_files)
		return cli_usage_error(COMMAND,
				       "needs at least one result file on each side of '--'");
	if (separator < 0)
		separator = 1;
	options->paths[0] = &argv[optind];
	options->nr_paths[0] = (size_t)separator;
	options->paths[1] = &argv[optind + separator];
	options->nr_paths[1] = (size_t)(nr_files - separator);
	return check_paths(options);
}

static int parse_options(int argc, char **argv, struct compare_options *options)
{
	static const struct option long_options[] = {
		{ "threshold", required_argument, NULL, 'T' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "json", required_argument, NULL, 'j' },
		{ "markdown", required_argument, NULL, 'm' },
		{ "cycles", no_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int separator = take_separator(&argc, argv);
	int opt, ret = 0;

	opterr = 0;
	while (!ret && (opt = getopt_long(argc, argv, ":hv", long_options,
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
		} else if (opt == 'c') {
			options->cycles = true;
		} else if (opt == 'v') {
			options->verbose = true;
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
	return take_files(argc, argv, separator, options);
}


static int write_json(const void *context, FILE *out)
{
	return compare_write_json(context, out);
}

static int write_markdown(const void *context, FILE *out)
{
	return compare_write_markdown(context, out);
}

/* The graver of two exit statuses: misuse, then failure, then success. */
static int graver(int a, int b)
{
	return a > b ? a : b;
}

/* Every output asked for; the console table unless another output took
 * standard output.  CLI_EXIT_OK, or the gravest status of an output. */
static int write_outputs(const struct compare_options *options,
			 const struct compare_context *context)
{
	const struct compare_console form = {
		.terminal = isatty(STDOUT_FILENO),
		.every_row = options->verbose,
	};
	bool stdout_taken = false;
	int status = CLI_EXIT_OK;

	if (options->json) {
		stdout_taken |= cli_path_is_stdout(options->json);
		status = graver(status,
				cli_write_output(COMMAND, "--json",
						 options->json, write_json,
						 context));
	}
	if (options->markdown) {
		stdout_taken |= cli_path_is_stdout(options->markdown);
		status = graver(status,
				cli_write_output(COMMAND, "--markdown",
						 options->markdown,
						 write_markdown, context));
	}
	if (!stdout_taken && (compare_write_console(context, &form, stdout) ||
			      fflush(stdout))) {
		fprintf(stderr, "%s: %s: cannot write to standard output\n",
			CLI_PROGRAM, COMMAND);
		status = graver(status, CLI_EXIT_FAILURE);
	}
	return status;
}

static int compare_runs(const struct compare_options *options,
			const struct compare_side *sides)
{
	struct cp_comparison comparison;
	struct compare_context context = {
		.paths = { (const char *const *)options->paths[0],
			   (const char *const *)options->paths[1] },
		.nr_paths = { options->nr_paths[0], options->nr_paths[1] },
		.nr_partial = { sides[0].nr_partial, sides[1].nr_partial },
		.runs = { compare_side_results(&sides[0]), compare_side_results(&sides[1]) },
		.comparison = &comparison,
	};
	int status;

	if (cp_comparison_build(compare_side_results(&sides[0]),
				compare_side_index(&sides[0]),
				compare_side_results(&sides[1]),
				compare_side_index(&sides[1]),
				options->threshold, options->alpha,
				options->cycles, &comparison)) {
		fprintf(stderr, "%s: %s: out of memory\n", CLI_PROGRAM,
			COMMAND);
		return CLI_EXIT_FAILURE;
	}
	if (!comparison.nr_rows) {
		fprintf(stderr,
			"%s: compare: %s and %s have no measurement in common\n",
			CLI_PROGRAM, options->paths[0][0], options->paths[1][0]);
		cp_comparison_free(&comparison);
		return CLI_EXIT_USAGE;
	}
	status = write_outputs(options, &context);
	if (comparison.totals[CP_VERDICT_REGRESSION])
		status = graver(status, CLI_EXIT_FAILURE);
	cp_comparison_free(&comparison);
	return status;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_options options = { .threshold = 0.05, .alpha = 0.05 };
	struct compare_side sides[2] = { 0 };
	int status = parse_options(argc, argv, &options);

	if (status != CLI_PROCEED)
		return status;
	for (int i = 0; i < 2; i++) {
		sides[i].paths = options.paths[i];
		sides[i].nr_paths = options.nr_paths[i];
	}
	status = compare_load_sides(sides);
	if (status == CLI_PROCEED)
		status = compare_runs(&options, sides);
	for (int i = 0; i < 2; i++)
		compare_side_free(&sides[i]);
	return status;
}
