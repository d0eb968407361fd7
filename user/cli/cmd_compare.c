// SPDX-License-Identifier: GPL-2.0
/*
 * cacheprobe-run compare A.json B.json: for each measurement in both (the
 * same area, name and mode), the ratio of medians (B/A) and a
 * Mann-Whitney U test on the samples.  Every measurement is a time per
 * operation, so slower is worse: a significant rise beyond --threshold is
 * a regression (exit 1).
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
#include "cli/results_table.h"
#include "lib/mann_whitney.h"
#include "lib/results_index.h"
#include "lib/results_json.h"

#define COMMAND "compare"

static const char usage[] =
	"Usage: " CLI_PROGRAM " compare [OPTIONS] BASELINE.json NEW.json\n"
	"\n"
	"Compare the measurements two runs have in common: ratio of medians\n"
	"(new / baseline) and the two-sided Mann-Whitney U test on the samples.\n"
	"\n"
	"Options:\n"
	"      --threshold=PCT  smallest change that counts (default 5)\n"
	"      --alpha=P        significance level, 0 < P < 1 (default 0.05)\n"
	"  -h, --help           show this help\n"
	"\n"
	"Exit status: 0 no regression, 1 a significant slowdown beyond the\n"
	"threshold, 2 wrong usage or unreadable or incompatible files.\n";

struct compare_options {
	double threshold;	/* share, 0.05 for 5 % */
	double alpha;
	const char *paths[2];
};

enum verdict { SAME, REGRESSION, IMPROVEMENT, NOT_SIGNIFICANT };

static const char *const verdict_names[] = {
	[SAME] = "same", [REGRESSION] = "REGRESSION",
	[IMPROVEMENT] = "improvement", [NOT_SIGNIFICANT] = "noise",
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

static int parse_options(int argc, char **argv, struct compare_options *options)
{
	static const struct option long_options[] = {
		{ "threshold", required_argument, NULL, 'T' },
		{ "alpha", required_argument, NULL, 'a' },
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
	return CLI_PROCEED;
}

static enum verdict judge(double ratio, double p,
			  const struct compare_options *options)
{
	if (p >= options->alpha)
		return NOT_SIGNIFICANT;
	if (ratio > 1 + options->threshold)
		return REGRESSION;
	if (ratio < 1 - options->threshold)
		return IMPROVEMENT;
	return SAME;
}

static int compare_one(const struct cp_measurement *base,
		       const struct cp_measurement *next, bool show_mode,
		       const struct compare_options *options)
{
	struct cp_mann_whitney test;
	double ratio = next->stats_ns.median / base->stats_ns.median;
	char label[120], base_text[32], next_text[32];
	enum verdict verdict;

	if (cp_mann_whitney(base->ns, base->nr_samples, next->ns,
			    next->nr_samples, &test))
		return -ENOMEM;
	verdict = judge(ratio, test.p_value, options);
	if (show_mode)
		snprintf(label, sizeof(label), "%s: %s [%s]", next->area,
			 next->name, next->mode);
	else
		snprintf(label, sizeof(label), "%s: %s", next->area,
			 next->name);
	printf("  %-32s %10s %10s %7.3f %9.2g  %s\n", label,
	       cli_format_ns(base->stats_ns.median, base_text,
			     sizeof(base_text)),
	       cli_format_ns(next->stats_ns.median, next_text,
			     sizeof(next_text)),
	       ratio, test.p_value, verdict_names[verdict]);
	return verdict == REGRESSION;
}

static int compare_results(const struct cp_results *base,
			   const struct cp_results_index *base_index,
			   const struct cp_results *next,
			   const struct cp_results_index *next_index,
			   const struct compare_options *options)
{
	size_t common = 0, regressions = 0;

	printf("  %-32s %10s %10s %7s %9s  %s\n", "measurement", "baseline",
	       "new", "ratio", "p", "verdict");
	for (size_t i = 0; i < next->nr_measurements; i++) {
		const struct cp_measurement *m = &next->measurements[i];
		const struct cp_measurement *b =
			cp_results_index_find(base_index, m);
		bool show_mode;
		int ret;

		if (!b)
			continue;
		show_mode = cp_results_index_name_repeats(next_index, m) ||
			    cp_results_index_name_repeats(base_index, b);
		ret = compare_one(b, m, show_mode, options);
		if (ret < 0)
			return CLI_EXIT_FAILURE;
		common++;
		regressions += (size_t)ret;
	}
	if (!common) {
		fprintf(stderr,
			"%s: compare: %s and %s have no measurement in common\n",
			CLI_PROGRAM, options->paths[0], options->paths[1]);
		return CLI_EXIT_USAGE;
	}
	if (common < base->nr_measurements || common < next->nr_measurements)
		printf("not compared: %zu only in the baseline, %zu only in the new run\n",
		       base->nr_measurements - common,
		       next->nr_measurements - common);
	printf("%zu measurements compared, %zu regressions (threshold %g %%, alpha %g)\n",
	       common, regressions, 100 * options->threshold, options->alpha);
	return regressions ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

/* An area one run left out has nothing to compare: say so, not silence. */
static void note_skipped(const char *which, const struct cp_results *run)
{
	for (size_t i = 0; i < run->nr_skipped_areas; i++)
		printf("note: %s run left out %s: %s\n", which,
		       run->skipped_areas[i].name,
		       run->skipped_areas[i].reason);
}

static void note_differences(const struct cp_results *base,
			     const struct cp_results *next)
{
	if (strcmp(base->environment.cpu_model, next->environment.cpu_model))
		printf("note: different CPUs: %s / %s\n",
		       base->environment.cpu_model,
		       next->environment.cpu_model);
	if (strcmp(base->environment.kernel, next->environment.kernel))
		printf("note: different kernels: %s / %s\n",
		       base->environment.kernel, next->environment.kernel);
	if (base->interrupted || next->interrupted)
		printf("note: %s run was interrupted\n",
		       base->interrupted ? "the baseline" : "the new");
	note_skipped("the baseline", base);
	note_skipped("the new", next);
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
	note_differences(&results[0], &results[1]);
	status = compare_results(&results[0], &indexes[0], &results[1],
				 &indexes[1], &options);
	for (int i = 0; i < 2; i++) {
		cp_results_index_free(&indexes[i]);
		cp_results_free(&results[i]);
	}
	return status;
}
