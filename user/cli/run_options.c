// SPDX-License-Identifier: GPL-2.0
#include "cli/run_options.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/path_uses.h"
#include "cli/run_area_options.h"
#include "cli/run_outputs.h"
#include "cli/size_option.h"
#include "util/parse_size.h"
#include "cli/transport_option.h"
#include "areas/c2c/c2c_choices.h"
#include "harness/rounds.h"
#include "util/parse_number.h"

/* "run" or "bench", for messages. */
static const char *command_name = "run";
#define MAX_SAMPLES 100000
#define MAX_SAMPLE_TIME_US 10000000ull

/* The help up to the areas' options, which follow in the registry's
 * order, then the rest. */
static const char run_usage_head[] =
	"Usage: " CLI_PROGRAM " [run] [AREA...] [OPTIONS]\n"
	"\n"
	"Run measurement areas (all of them when none is named) and report\n"
	"each measurement's median per operation with its statistics.\n"
	"\n"
	"Options:\n"
	"  -l, --list            list the areas with a line on each, and exit\n"
	"  -j, --json=FILE       write every sample and the environment as JSON\n"
	"                        ('-': standard output)\n"
	"      --csv=FILE        write one row per measurement as CSV ('-': stdout)\n"
	"      --report=FILE     write a self-contained HTML report with charts\n"
	"                        ('-': stdout; at most one output may be '-')\n"
	"  -q, --quiet           no progress, no table (files are still written)\n"
	"  -v, --verbose         every measurement's table on a terminal too (on\n"
	"                        a terminal the console otherwise holds the\n"
	"                        summary and one line per area; piped, it is\n"
	"                        always whole)\n"
	"  -n, --samples=N       samples per measurement (default 15; c2c in user\n"
	"                        mode: as many as its budget holds, at most 10000)\n"
	"      --sample-time=US  target length of one sample in microseconds\n"
	"                        (default 2000); the count is calibrated to it\n"
	"      --count=N         iterations per sample instead of calibrating\n"
	"      --rounds=N        rounds a measurement's samples are spread over,\n"
	"                        each on a new buffer (latency, align, xcore: new\n"
	"                        pages and order; bounce: the counters elsewhere\n"
	"                        in a new page), 1 to 1000 (default 5)\n"
	"      --min-size=SIZE   smallest working set (latency; default 4K)\n"
	"      --max-size=SIZE   largest working set (latency; default 4x the\n"
	"                        last-level cache, at most 256M; xcore: the largest\n"
	"                        block, a power of two, default the smallest that\n"
	"                        holds the largest private cache, at most 512K)\n"
	"                        coldcache: the default working sets between the\n"
	"                        two, or when none is, the two sizes themselves\n"
	"                        (--min-size 1M --max-size 1M: 1 MiB)\n"
	"  -c, --cpus=SELECTION  CPUs to run on, among those this process may use\n"
	"                        (taskset/cpuset): 0,2-5, all, per-core, per-l2,\n"
	"                        per-l3, per-package, per-numa (latency uses the\n"
	"                        first; default: the CPU the run starts on)\n"
	"      --seed=N          seed of the random chase orders (default 1)\n";

static const char run_usage_tail[] =
	"      --tune            performance governor and turbo off for the run\n"
	"                        (root); the previous state is restored at exit\n"
	"      --mode=user|kernel|both\n"
	"                        where areas that can measure in the module do\n"
	"                        (latency, bounce, coldcache, align, xcore, c2c;\n"
	"                        default: both when the module answers and\n"
	"                        CAP_SYS_ADMIN (root) is held, else user)\n"
	CLI_TRANSPORT_HELP
	"  -h, --help            show this help\n"
	"\n"
	"SIZE: bytes, or with K, M, G (binary).  Exit status: 0 done, 1 failed,\n"
	"2 wrong usage, 128+N interrupted by signal N (partial results are\n"
	"still written, marked interrupted).\n";

enum long_only {
	OPT_CSV = 256, OPT_SAMPLE_TIME, OPT_COUNT, OPT_MIN_SIZE, OPT_MAX_SIZE,
	OPT_SEED, OPT_TUNE, OPT_MODE, OPT_REPORT, OPT_ROUNDS,
};

/* The options every run takes; the areas' own are added to them. */
static const struct option shared_options[] = {
	{ "list", no_argument, NULL, 'l' },
	{ "json", required_argument, NULL, 'j' },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "samples", required_argument, NULL, 'n' },
	{ "sample-time", required_argument, NULL, OPT_SAMPLE_TIME },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "min-size", required_argument, NULL, OPT_MIN_SIZE },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "cpus", required_argument, NULL, 'c' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "tune", no_argument, NULL, OPT_TUNE },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "transport", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
};

#define NR_SHARED_OPTIONS (sizeof(shared_options) / sizeof(shared_options[0]))
/* Room for the areas' options too (run_area_options.c checks it). */
#define MAX_LONG_OPTIONS (NR_SHARED_OPTIONS + 128)

/* The shared options, then the areas', and the terminating entry. */
static const struct option *long_options(void)
{
	static struct option table[MAX_LONG_OPTIONS + 1];

	if (!table[0].name) {
		memcpy(table, shared_options, sizeof(shared_options));
		run_area_long_options(table, NR_SHARED_OPTIONS,
				      MAX_LONG_OPTIONS + 1);
	}
	return table;
}

static int number_option(const char *name, const char *text, uint64_t min,
			 uint64_t max, uint64_t *out)
{
	char why[160];

	if (cp_parse_u64(text, min, max, out, why, sizeof(why)))
		return cli_usage_error(command_name, "%s: %s", name, why);
	return 0;
}

static int size_option(const char *name, const char *text, uint64_t *out)
{
	char why[160];

	if (cp_parse_size(text, out, why, sizeof(why)) ||
	    cli_check_size_fits_memory(*out, text, why, sizeof(why)))
		return cli_usage_error(command_name, "%s: %s", name, why);
	if (*out < 128)
		return cli_usage_error(command_name,
				       "%s: %s is too small (at least 128 bytes)",
				       name, text);
	return 0;
}

static int output_option(const char *name, const char *text,
			 const char **out)
{
	if (*text == '\0')
		return cli_usage_error(command_name, "%s: empty file name", name);
	*out = text;
	return 0;
}

static int mode_option(const char *text, enum cp_area_mode *out)
{
	static const struct cli_choice modes[] = {
		{ "user", CP_AREA_MODE_USER },
		{ "kernel", CP_AREA_MODE_KERNEL },
		{ "both", CP_AREA_MODE_BOTH },
	};
	char why[160];
	int value;

	if (cli_parse_choice(text, modes, sizeof(modes) / sizeof(modes[0]),
			     &value, why, sizeof(why)))
		return cli_usage_error(command_name, "--mode: %s", why);
	*out = (enum cp_area_mode)value;
	return 0;
}

static int parse_value(int opt, struct run_options *options)
{
	uint64_t value = 0;
	int ret;

	switch (opt) {
	case 'j':
		return output_option("--json", optarg, &options->json_path);
	case OPT_CSV:
		return output_option("--csv", optarg, &options->csv_path);
	case OPT_REPORT:
		return output_option("--report", optarg, &options->report_path);
	case 'n':
		ret = number_option("--samples", optarg, 1, MAX_SAMPLES, &value);
		options->samples = (unsigned int)value;
		options->samples_chosen = true;
		return ret;
	case OPT_SAMPLE_TIME:
		ret = number_option("--sample-time", optarg, 1,
				    MAX_SAMPLE_TIME_US, &value);
		options->sample_time_ns = (double)value * 1e3;
		options->sample_time_chosen = true;
		return ret;
	case OPT_COUNT:
		return number_option("--count", optarg, 1, UINT32_MAX,
				     &options->fixed_count);
	case OPT_ROUNDS:
		ret = number_option("--rounds", optarg, 1, CP_ROUNDS_MAX,
				    &value);
		options->rounds = (unsigned int)value;
		return ret;
	case OPT_SEED:
		return number_option("--seed", optarg, 0, UINT64_MAX,
				     &options->seed);
	case OPT_MIN_SIZE:
		return size_option("--min-size", optarg, &options->min_size);
	case OPT_MAX_SIZE:
		return size_option("--max-size", optarg, &options->max_size);
	case 'c':
		if (*optarg == '\0')
			return cli_usage_error(command_name,
					       "--cpus: empty CPU selection");
		options->cpus_text = optarg;
		return 0;
	case 't':
		return cli_parse_transport(command_name, optarg, &options->transport);
	case OPT_MODE:
		return mode_option(optarg, &options->mode);
	default:
		return run_area_option(opt, optarg, options, command_name);
	}
}

static const char bench_usage[] =
	"Usage: " CLI_PROGRAM " bench [OPTIONS]\n"
	"\n"
	"Measure the instrument itself: timer overhead and granularity, the\n"
	"core clock, the NOTHING floor before and after its subtraction; then\n"
	"the latency area with its plateaus.  Naming an area is refused.\n"
	"\n";

/* bench's own head, then the options it shares with run. */
static void print_usage(void)
{
	const char *options = strstr(run_usage_head, "Options:");

	if (strcmp(command_name, "bench") == 0 && options)
		printf("%s%s", bench_usage, options);
	else
		fputs(run_usage_head, stdout);
	run_area_options_usage(stdout);
	fputs(run_usage_tail, stdout);
}

static int parse_option(int opt, char **argv, struct run_options *options)
{
	int ret = parse_value(opt, options);

	if (ret != CLI_PROCEED)
		return ret;
	switch (opt) {
	case 'l':
		options->list = true;
		return 0;
	case 'q':
		options->quiet = true;
		return 0;
	case 'v':
		options->verbose = true;
		return 0;
	case OPT_TUNE:
		options->tune = true;
		return 0;
	case 'h':
		print_usage();
		return CLI_EXIT_OK;
	default:
		return cli_option_error(command_name, opt, optopt, argv[optind - 1]);
	}
}

static int add_area(const char *name, struct run_options *options)
{
	const struct cp_area *area = cp_area_find(name);
	char known[256] = "";

	if (!area) {
		for (size_t i = 0; i < cp_nr_areas; i++)
			snprintf(known + strlen(known),
				 sizeof(known) - strlen(known), "%s%s",
				 i ? ", " : "", cp_areas[i]->name);
		return cli_usage_error(command_name,
				       "unknown area '%s' (areas: %s; see --list)",
				       name, known);
	}
	for (size_t i = 0; i < options->nr_areas; i++)
		if (options->areas[i] == area)
			return cli_usage_error(command_name,
					       "area '%s' is named twice", name);
	if (options->nr_areas == sizeof(options->areas) / sizeof(options->areas[0]))
		return cli_usage_error(command_name, "too many areas");
	options->areas[options->nr_areas++] = area;
	return 0;
}

/* Whether @area runs: named, or no area named (all of them run). */
static bool runs_area(const struct run_options *options,
		      const struct cp_area *area)
{
	if (!options->nr_areas)
		return true;
	for (size_t i = 0; i < options->nr_areas; i++)
		if (options->areas[i] == area)
			return true;
	return false;
}

/* c2c's --matrix, written by the run command after the run. */
static const char *matrix_path(const struct run_options *options)
{
	const struct cp_c2c_choices *c2c =
		run_options_choices(options, &cp_area_c2c);

	return c2c ? c2c->matrix_path : NULL;
}

static int check_paths(const struct run_options *options)
{
	const struct cli_path_use uses[] = {
		{ "--json", options->json_path, false },
		{ "--csv", options->csv_path, false },
		{ "--report", options->report_path, false },
		{ "--matrix", matrix_path(options), false },
	};

	return cli_check_path_uses(command_name, uses,
				   sizeof(uses) / sizeof(uses[0]));
}

static int check_sizes(const struct run_options *options)
{
	int ret = run_area_check_choices(options, command_name);

	if (ret)
		return ret;
	if (options->min_size && options->max_size &&
	    options->min_size > options->max_size)
		return cli_usage_error(command_name,
				       "--min-size is above --max-size");
	if (matrix_path(options) && !runs_area(options, &cp_area_c2c))
		return cli_usage_error(command_name,
				       "--matrix: c2c is not among the areas named, so there is no matrix to write");
	return check_paths(options);
}

int run_parse_options(int argc, char **argv, const char *command,
		      struct run_options *options)
{
	int opt;

	command_name = command;
	if (run_options_alloc_choices(options)) {
		fprintf(stderr, "%s: %s: out of memory\n", CLI_PROGRAM, command);
		return CLI_EXIT_FAILURE;
	}
	opterr = 0;
	/* '-' in front: areas and options in any order. */
	while ((opt = getopt_long(argc, argv, "-:lj:qvn:c:t:h", long_options(),
				  NULL)) != -1) {
		int status = opt == 1 ? add_area(optarg, options)
				      : parse_option(opt, argv, options);

		if (status || opt == 'h')
			return status;
	}
	return check_sizes(options);
}

bool run_is_option(const char *word)
{
	size_t len = strcspn(word, "=");

	if (word[0] != '-')
		return false;
	if (word[1] != '-')
		return word[1] && strchr("ljqnct", word[1]) != NULL;
	for (size_t i = 0; i < NR_SHARED_OPTIONS; i++)
		if (strlen(shared_options[i].name) == len - 2 &&
		    strncmp(shared_options[i].name, word + 2, len - 2) == 0 &&
		    strcmp(shared_options[i].name, "help") != 0)
			return true;
	return run_area_option_named(word + 2, len - 2);
}
