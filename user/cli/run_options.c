// SPDX-License-Identifier: GPL-2.0
#include "cli/run_options.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_util.h"
#include "cli/path_uses.h"
#include "cli/run_outputs.h"
#include "cli/size_option.h"
#include "util/parse_size.h"
#include "cli/transport_option.h"
#include "harness/rounds.h"
#include "util/parse_number.h"

/* "run" or "bench", for messages. */
static const char *command_name = "run";
#define MAX_SAMPLES 100000
#define MAX_SAMPLE_TIME_US 10000000ull

const char run_usage[] =
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
	"      --pages=LIST      latency: pages of the chased buffer among 4k, 2m\n"
	"                        (transparent huge pages) and 1g (reserved\n"
	"                        hugetlb pages); default 2m, whose curve shows\n"
	"                        the cache levels without TLB misses; 4k (2m is\n"
	"                        then measured too) shows where the TLB stops\n"
	"                        covering the set; coldcache: its working sets\n"
	"                        and calibration on the first named (4k or 2m)\n"
	"      --chases=LIST     latency: independent chases one thread follows\n"
	"                        at once, 1 to 16 (default 1; 1 is always\n"
	"                        measured): ns per load and the overlap factor\n"
	"  -c, --cpus=SELECTION  CPUs to run on, among those this process may use\n"
	"                        (taskset/cpuset): 0,2-5, all, per-core, per-l2,\n"
	"                        per-l3, per-package, per-numa (latency uses the\n"
	"                        first; default: the CPU the run starts on)\n"
	"      --seed=N          seed of the random chase orders (default 1)\n"
	"      --threads=N       bounce: threads, one per CPU (default 2, or as\n"
	"                        many as --cpus names)\n"
	"      --distances=LIST  bounce: bytes between neighbouring counters, 0 for\n"
	"                        one shared counter (default 0,4,8,16,32,48,56,60,\n"
	"                        64,96,128,192,256; at most 65536)\n"
	"      --width=LIST      bounce: counter bytes, 4 and/or 8 (default 4,8)\n"
	"      --ops=LIST        bounce: plain and/or atomic increments (default\n"
	"                        plain,atomic)\n"
	"      --methods=LIST    coldcache: eviction methods among warm,\n"
	"                        garbage-naive, garbage-planned, clflush, wbinvd,\n"
	"                        wbnoinvd (default all)\n"
	"      --factor=X        coldcache: garbage-planned reads X times each\n"
	"                        last-level cache (default 4, above 0, at most 64)\n"
	"      --sweep-factor    coldcache: also garbage-planned at 0.25 to 4 times\n"
	"                        the last-level cache\n"
	"      --repeats=N       coldcache: repetitions per method and working set\n"
	"                        (default 20)\n"
	"      --pairs=PAIRS     xcore: producer:consumer pairs A:B,... or\n"
	"                        'classes' (default: one per pair class)\n"
	"      --delay=N         xcore: N dependent adds after each load (default 0,\n"
	"                        at most 4096; kernel mode: module ABI 3)\n"
	"      --home=first|second\n"
	"                        c2c: the pair's CPU whose memory node holds the\n"
	"                        line (default first)\n"
	"      --budget=TIME     c2c: total time, e.g. 30s, 2m (default: 3 s, or\n"
	"                        5 ms per pair and variant when more)\n"
	"      --matrix=FILE     c2c: the latency matrix as FILE.csv or FILE.json\n"
	"      --offsets=LIST    align: offsets into each slot, 0 to 4095: N, A-B\n"
	"                        or A-B:STEP (default: 0 and a line split per\n"
	"                        width, 8-byte latency swept over 0 to two lines)\n"
	"      --access-widths=LIST\n"
	"                        align: access bytes among 1,2,4,8,16,32,64\n"
	"                        (default: every width this CPU can do)\n"
	"      --access-kinds=LIST\n"
	"                        align: load-latency, load-throughput,\n"
	"                        store-throughput (default all)\n"
	"      --buffers=LIST    align: l1, l2 (half of that cache) or sizes\n"
	"                        (default l1,l2)\n"
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
	OPT_SEED, OPT_TUNE, OPT_MODE, OPT_THREADS, OPT_DISTANCES, OPT_WIDTH, OPT_OPS,
	OPT_METHODS, OPT_FACTOR, OPT_SWEEP_FACTOR, OPT_REPEATS, OPT_REPORT,
	OPT_PAIRS, OPT_DELAY, OPT_HOME, OPT_BUDGET, OPT_MATRIX,
	OPT_OFFSETS, OPT_ACCESS_WIDTHS, OPT_ACCESS_KINDS, OPT_BUFFERS,
	OPT_PAGES, OPT_CHASES, OPT_ROUNDS,
};

static const struct option long_options[] = {
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
	{ "pages", required_argument, NULL, OPT_PAGES },
	{ "chases", required_argument, NULL, OPT_CHASES },
	{ "cpus", required_argument, NULL, 'c' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "tune", no_argument, NULL, OPT_TUNE },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "distances", required_argument, NULL, OPT_DISTANCES },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "ops", required_argument, NULL, OPT_OPS },
	{ "methods", required_argument, NULL, OPT_METHODS },
	{ "factor", required_argument, NULL, OPT_FACTOR },
	{ "sweep-factor", no_argument, NULL, OPT_SWEEP_FACTOR },
	{ "repeats", required_argument, NULL, OPT_REPEATS },
	{ "pairs", required_argument, NULL, OPT_PAIRS },
	{ "delay", required_argument, NULL, OPT_DELAY },
	{ "home", required_argument, NULL, OPT_HOME },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "matrix", required_argument, NULL, OPT_MATRIX },
	{ "offsets", required_argument, NULL, OPT_OFFSETS },
	{ "access-widths", required_argument, NULL, OPT_ACCESS_WIDTHS },
	{ "access-kinds", required_argument, NULL, OPT_ACCESS_KINDS },
	{ "buffers", required_argument, NULL, OPT_BUFFERS },
	{ "transport", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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

/* --distances, --width, --ops: the bounce area's lists. */
static int bounce_list_option(int opt, struct run_options *options)
{
	static const struct {
		int opt;
		const char *name;
		int (*parse)(const char *text, struct cp_bounce_choices *choices,
			     char *why, size_t why_len);
	} lists[] = {
		{ OPT_DISTANCES, "--distances", cp_bounce_parse_distances },
		{ OPT_WIDTH, "--width", cp_bounce_parse_widths },
		{ OPT_OPS, "--ops", cp_bounce_parse_ops },
	};
	char why[160];

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (lists[i].opt != opt)
			continue;
		if (lists[i].parse(optarg, &options->bounce, why, sizeof(why)))
			return cli_usage_error(command_name, "%s '%s': %s",
					       lists[i].name, optarg, why);
		return 0;
	}
	return CLI_PROCEED;
}

/* --offsets, --access-widths, --access-kinds, --buffers: align's lists. */
static int align_list_option(int opt, struct run_options *options)
{
	static const struct {
		int opt;
		const char *name;
		int (*parse)(const char *text, struct cp_align_choices *choices,
			     char *why, size_t why_len);
	} lists[] = {
		{ OPT_OFFSETS, "--offsets", cp_align_parse_offsets },
		{ OPT_ACCESS_WIDTHS, "--access-widths", cp_align_parse_widths },
		{ OPT_ACCESS_KINDS, "--access-kinds", cp_align_parse_kinds },
		{ OPT_BUFFERS, "--buffers", cp_align_parse_buffers },
	};
	char why[160];

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (lists[i].opt != opt)
			continue;
		if (lists[i].parse(optarg, &options->align, why, sizeof(why)))
			return cli_usage_error(command_name, "%s '%s': %s",
					       lists[i].name, optarg, why);
		return 0;
	}
	return CLI_PROCEED;
}

/* --methods, --factor, --repeats: the coldcache area's values. */
static int coldcache_option(int opt, struct run_options *options)
{
	struct cp_coldcache_choices *choices = &options->coldcache;
	uint64_t value = 0;
	char why[256];
	int ret;

	switch (opt) {
	case OPT_METHODS:
		if (cp_coldcache_parse_methods(optarg, &choices->methods, why,
					       sizeof(why)))
			return cli_usage_error(command_name, "--methods: %s", why);
		return 0;
	case OPT_FACTOR:
		if (cp_coldcache_parse_factor(optarg, &choices->factor, why,
					      sizeof(why)))
			return cli_usage_error(command_name, "--factor: %s", why);
		return 0;
	case OPT_REPEATS:
		ret = number_option("--repeats", optarg, 1,
				    CP_COLD_MAX_REPETITIONS, &value);
		choices->repetitions = (unsigned int)value;
		return ret;
	default:
		return CLI_PROCEED;
	}
}

/* --pages, --chases: latency. */
static int latency_option(int opt, struct run_options *options)
{
	const char *name = opt == OPT_PAGES ? "--pages" : "--chases";
	char why[160];
	int ret;

	if (*optarg == '\0')
		return cli_usage_error(command_name, "%s: empty value", name);
	if (opt == OPT_PAGES)
		ret = cp_latency_parse_pages(optarg, &options->latency, why,
					     sizeof(why));
	else
		ret = cp_latency_parse_chases(optarg, &options->latency, why,
					      sizeof(why));
	if (ret)
		return cli_usage_error(command_name, "%s: %s", name, why);
	return 0;
}

/* --pairs, --delay: xcore; --home, --budget, --matrix: c2c. */
static int xcore_c2c_option(int opt, struct run_options *options)
{
	static const char *const names[] = {
		[OPT_PAIRS - OPT_PAIRS] = "--pairs",
		[OPT_DELAY - OPT_PAIRS] = "--delay",
		[OPT_HOME - OPT_PAIRS] = "--home",
		[OPT_BUDGET - OPT_PAIRS] = "--budget",
		[OPT_MATRIX - OPT_PAIRS] = "--matrix",
	};
	char why[160] = "empty value";
	int ret = -1;

	if (opt < OPT_PAIRS || opt > OPT_MATRIX)
		return CLI_PROCEED;
	if (*optarg == '\0')
		return cli_usage_error(command_name, "%s: empty value",
				       names[opt - OPT_PAIRS]);
	switch (opt) {
	case OPT_PAIRS:
		options->xcore.pairs = optarg;
		return 0;
	case OPT_DELAY:
		ret = cp_xcore_parse_delay(optarg, &options->xcore.delay, why,
					   sizeof(why));
		break;
	case OPT_HOME:
		ret = cp_c2c_parse_home(optarg, &options->c2c.home, why,
					sizeof(why));
		break;
	case OPT_BUDGET:
		ret = cp_c2c_parse_budget(optarg, &options->c2c.budget_ns, why,
					  sizeof(why));
		break;
	case OPT_MATRIX:
		ret = cp_c2c_parse_matrix_path(optarg, why, sizeof(why));
		options->c2c.matrix_path = optarg;
		break;
	}
	if (ret)
		return cli_usage_error(command_name, "%s: %s",
				       names[opt - OPT_PAIRS], why);
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
	case OPT_THREADS:
		ret = number_option("--threads", optarg, 2,
				    CP_BOUNCE_MAX_THREADS, &value);
		options->bounce.threads = (unsigned int)value;
		return ret;
	case OPT_METHODS:
	case OPT_FACTOR:
	case OPT_REPEATS:
		return coldcache_option(opt, options);
	case OPT_PAIRS:
	case OPT_DELAY:
	case OPT_HOME:
	case OPT_BUDGET:
	case OPT_MATRIX:
		return xcore_c2c_option(opt, options);
	case OPT_PAGES:
	case OPT_CHASES:
		return latency_option(opt, options);
	case OPT_OFFSETS:
	case OPT_ACCESS_WIDTHS:
	case OPT_ACCESS_KINDS:
	case OPT_BUFFERS:
		return align_list_option(opt, options);
	default:
		return bounce_list_option(opt, options);
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
	const char *options = strstr(run_usage, "Options:");

	if (strcmp(command_name, "bench") == 0 && options)
		printf("%s%s", bench_usage, options);
	else
		fputs(run_usage, stdout);
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
	case OPT_SWEEP_FACTOR:
		options->coldcache.sweep = true;
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

static int check_paths(const struct run_options *options)
{
	const struct cli_path_use uses[] = {
		{ "--json", options->json_path, false },
		{ "--csv", options->csv_path, false },
		{ "--report", options->report_path, false },
		{ "--matrix", options->c2c.matrix_path, false },
	};

	return cli_check_path_uses(command_name, uses,
				   sizeof(uses) / sizeof(uses[0]));
}

static int check_sizes(const struct run_options *options)
{
	struct cp_bounce_choices bounce = options->bounce;
	char why[160];

	/* Distances against widths: only the two together say it. */
	if (cp_bounce_choices_complete(&bounce, why, sizeof(why)))
		return cli_usage_error(command_name, "--distances: %s", why);
	if (options->min_size && options->max_size &&
	    options->min_size > options->max_size)
		return cli_usage_error(command_name,
				       "--min-size is above --max-size");
	if (options->c2c.matrix_path && !runs_area(options, &cp_area_c2c))
		return cli_usage_error(command_name,
				       "--matrix: c2c is not among the areas named, so there is no matrix to write");
	return check_paths(options);
}

int run_parse_options(int argc, char **argv, const char *command,
		      struct run_options *options)
{
	int opt;

	command_name = command;
	opterr = 0;
	/* '-' in front: areas and options in any order. */
	while ((opt = getopt_long(argc, argv, "-:lj:qvn:c:t:h", long_options,
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
	for (const struct option *option = long_options; option->name; option++)
		if (strlen(option->name) == len - 2 &&
		    strncmp(option->name, word + 2, len - 2) == 0 &&
		    strcmp(option->name, "help") != 0)
			return true;
	return false;
}
