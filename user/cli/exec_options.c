// SPDX-License-Identifier: GPL-2.0
#include "cli/exec_options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cacheprobe.h"
#include "cli/cli_util.h"
#include "cli/eviction_setup.h"
#include "cli/exec_series.h"
#include "cli/path_uses.h"
#include "areas/coldcache/coldcache_choices.h"
#include "util/parse_number.h"

#define COMMAND "exec"

static const char usage[] =
	"Usage: " CLI_PROGRAM " exec [OPTIONS] -- COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND RUNS times, evicting the CPU caches before each cold run,\n"
	"and report the median wall, user and system time of its runs with the\n"
	"95% interval of each median.  With --both, cold and warm runs\n"
	"alternate, cold first (not in random order: every warm run then\n"
	"follows a cold one), and the cold/warm ratio of the wall times is\n"
	"reported with its 95% interval and the Mann-Whitney test.\n"
	"\n"
	"Options:\n"
	"      --cold            evict before every run (the default)\n"
	"      --warm            never evict: each run finds what the one before\n"
	"                        left in the caches\n"
	"      --both            RUNS cold and RUNS warm runs, alternating\n"
	"  -n, --runs=RUNS       runs of each kind, 1 to 1000 (default 10)\n"
	"  -m, --method=auto|wbinvd|wbnoinvd|garbage\n"
	"                        how to evict (default auto: WBINVD through the\n"
	"                        module where it really evicts, else the planned\n"
	"                        garbage read; the summary says which and why)\n"
	"  -f, --factor=F        garbage: read F times each last-level cache\n"
	"                        (default 4, above 0, at most 64)\n"
	"  -c, --cpus=SELECTION  CPUs whose caches are evicted: 0,2-5, all,\n"
	"                        per-core, per-l2, per-l3, per-package, per-numa\n"
	"                        (default: those this process may use).  The\n"
	"                        command is not pinned: use taskset for that\n"
	"  -j, --json=FILE       write every run's times as JSON (results schema;\n"
	"                        compare and report read it; '-': standard output,\n"
	"                        the command's own output then goes to stderr)\n"
	"      --report=FILE     write a self-contained HTML report ('-': stdout)\n"
	"  -q, --quiet           no progress, no summary (files are still written)\n"
	"  -h, --help            show this help\n"
	"\n"
	"The command's output is its own.  Progress goes to standard error when\n"
	"it is a terminal, between runs (during them too when the command's\n"
	"standard output is not a terminal).  The first run that fails stops\n"
	"the series.  Ctrl-C (SIGINT) stops the series when the run in progress\n"
	"ends; SIGTERM and SIGHUP are passed on to that run.  Files are written\n"
	"when at least one run was measured, marked interrupted when the series\n"
	"stopped early.\n"
	"\n"
	"Exit status: 0 every run exited 0, 1 an eviction or a file failed,\n"
	"2 wrong usage, 126 COMMAND cannot be run, 127 COMMAND not found; a\n"
	"failed run's own status (128+N when killed by signal N); 128+N when\n"
	"signal N stopped the series.\n";

static const struct cli_choice method_choices[] = {
	{ "auto", CACHEPROBE_METHOD_AUTO },
	{ "wbinvd", CACHEPROBE_METHOD_WBINVD },
	{ "wbnoinvd", CACHEPROBE_METHOD_WBNOINVD },
	{ "garbage", CACHEPROBE_METHOD_GARBAGE },
};

#define NR_METHOD_CHOICES (sizeof(method_choices) / sizeof(method_choices[0]))

enum long_only { OPT_COLD = 256, OPT_WARM, OPT_BOTH, OPT_REPORT };

static const struct option long_options[] = {
	{ "cold", no_argument, NULL, OPT_COLD },
	{ "warm", no_argument, NULL, OPT_WARM },
	{ "both", no_argument, NULL, OPT_BOTH },
	{ "runs", required_argument, NULL, 'n' },
	{ "method", required_argument, NULL, 'm' },
	{ "factor", required_argument, NULL, 'f' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "json", required_argument, NULL, 'j' },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int out_of_memory(void)
{
	fprintf(stderr, "%s: %s: out of memory\n", CLI_PROGRAM, COMMAND);
	return CLI_EXIT_FAILURE;
}

static const char *kinds_option(unsigned int kinds)
{
	return kinds == EXEC_COLD ? "--cold"
	       : kinds == EXEC_WARM ? "--warm" : "--both";
}

/* One of --cold, --warm, --both; naming two different ones is misuse. */
static int kinds_given(unsigned int kinds, struct exec_options *options)
{
	if (options->kinds && options->kinds != kinds)
		return cli_usage_error(COMMAND,
				       "%s and %s cannot be combined (--both runs cold and warm)",
				       kinds_option(options->kinds),
				       kinds_option(kinds));
	options->kinds = kinds;
	return 0;
}

static int runs_given(const char *text, struct exec_options *options)
{
	char why[160];
	uint64_t runs;

	if (cp_parse_u64(text, 1, EXEC_MAX_RUNS, &runs, why, sizeof(why)))
		return cli_usage_error(COMMAND, "--runs: %s", why);
	options->runs = (size_t)runs;
	return 0;
}

static int method_given(const char *text, struct exec_options *options)
{
	char why[256];

	/* CLFLUSH flushes ranges of the caller's memory, and the command's
	 * memory is not ours. */
	if (strcmp(text, "clflush") == 0)
		return cli_usage_error(COMMAND,
				       "--method: clflush flushes this process's own buffers, not the command's (use auto, wbinvd, wbnoinvd or garbage)");
	if (cli_parse_choice(text, method_choices, NR_METHOD_CHOICES,
			     &options->method, why, sizeof(why)))
		return cli_usage_error(COMMAND, "--method: %s", why);
	options->method_given = true;
	return 0;
}

static int factor_given(const char *text, struct exec_options *options)
{
	char why[160];

	if (cp_coldcache_parse_factor(text, &options->factor, why,
				      sizeof(why)))
		return cli_usage_error(COMMAND, "--factor: %s", why);
	return 0;
}

static int path_given(const char *name, const char *text, const char **out)
{
	if (*text == '\0')
		return cli_usage_error(COMMAND, "%s: empty file name", name);
	*out = text;
	return 0;
}

static int parse_option(int opt, char **argv, struct exec_options *options)
{
	switch (opt) {
	case OPT_COLD:
		return kinds_given(EXEC_COLD, options);
	case OPT_WARM:
		return kinds_given(EXEC_WARM, options);
	case OPT_BOTH:
		return kinds_given(EXEC_BOTH, options);
	case 'n':
		return runs_given(optarg, options);
	case 'm':
		return method_given(optarg, options);
	case 'f':
		return factor_given(optarg, options);
	case 'c':
		if (*optarg == '\0')
			return cli_usage_error(COMMAND, "--cpus: empty list");
		options->cpus_text = optarg;
		return 0;
	case 'j':
		return path_given("--json", optarg, &options->json_path);
	case OPT_REPORT:
		return path_given("--report", optarg, &options->report_path);
	case 'q':
		options->quiet = true;
		return 0;
	case 'h':
		fputs(usage, stdout);
		return CLI_EXIT_OK;
	default:
		return cli_option_error(COMMAND, opt, optopt, argv[optind - 1]);
	}
}

/* The options before the command; '+': the first word that is not an
 * option starts the command, whose own options stay its own. */
static int parse_words(int argc, char **argv, struct exec_options *options)
{
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+:n:m:f:c:j:qh", long_options,
				  NULL)) != -1) {
		int status = parse_option(opt, argv, options);

		/* 'h' succeeds by ending the command. */
		if (status || opt == 'h')
			return status;
	}
	if (optind == argc)
		return cli_usage_error(COMMAND,
				       "no command to run (put it after '--': exec [OPTIONS] -- COMMAND [ARG...])");
	if (argv[optind][0] == '\0')
		return cli_usage_error(COMMAND, "the command is an empty word");
	options->argv = argv + optind;
	return CLI_PROCEED;
}

/* Eviction options where nothing is evicted, or nothing read, are a
 * mistake to point out, not to ignore. */
static int check_eviction(const struct exec_options *options)
{
	const char *given = options->method_given ? "--method"
			    : options->cpus_text  ? "--cpus"
			    : options->factor > 0 ? "--factor" : NULL;

	if (options->kinds == EXEC_WARM && given)
		return cli_usage_error(COMMAND,
				       "%s chooses the eviction, and --warm evicts nothing",
				       given);
	if (options->factor > 0 &&
	    (options->method == CACHEPROBE_METHOD_WBINVD ||
	     options->method == CACHEPROBE_METHOD_WBNOINVD))
		return cli_usage_error(COMMAND,
				       "--factor sizes the garbage read, and --method %s reads none",
				       cli_choice_name(method_choices,
						       NR_METHOD_CHOICES,
						       options->method));
	return CLI_PROCEED;
}

/*
 * Our outputs must not replace the command (given as a path: a bare name
 * is looked up in PATH) nor a file named by its arguments, which it reads
 * or writes.
 */
static int check_paths(const struct exec_options *options)
{
	size_t nr_words = 0, n = 0;
	struct cli_path_use *uses;
	int status;

	while (options->argv[nr_words])
		nr_words++;
	uses = calloc(nr_words + 2, sizeof(*uses));
	if (!uses)
		return out_of_memory();
	uses[n++] = (struct cli_path_use){ .option = "--json",
					   .path = options->json_path };
	uses[n++] = (struct cli_path_use){ .option = "--report",
					   .path = options->report_path };
	if (strchr(options->argv[0], '/'))
		uses[n++] = (struct cli_path_use){ .option = "COMMAND",
						   .path = options->argv[0],
						   .input = true };
	for (size_t i = 1; i < nr_words; i++)
		uses[n++] = (struct cli_path_use){
			.option = "an argument of COMMAND",
			.path = options->argv[i], .input = true };
	status = cli_check_path_uses(COMMAND, uses, n);
	free(uses);
	return status;
}

/* --cpus as the library takes it: a plain list, picks resolved. */
static int resolve_cpus(struct exec_options *options)
{
	if (!options->cpus_text)
		return CLI_PROCEED;
	return cli_eviction_cpus(COMMAND, options->cpus_text,
				 &options->cpus_list);
}

int exec_parse_options(int argc, char **argv, struct exec_options *options)
{
	int status;

	memset(options, 0, sizeof(*options));
	options->runs = EXEC_DEFAULT_RUNS;
	options->method = CACHEPROBE_METHOD_AUTO;
	status = parse_words(argc, argv, options);
	if (status != CLI_PROCEED)
		return status;
	if (!options->kinds)
		options->kinds = EXEC_COLD;
	status = check_eviction(options);
	if (status == CLI_PROCEED)
		status = check_paths(options);
	if (status == CLI_PROCEED)
		status = resolve_cpus(options);
	return status;
}

void exec_options_free(struct exec_options *options)
{
	free(options->cpus_list);
	options->cpus_list = NULL;
}
