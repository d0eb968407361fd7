// SPDX-License-Identifier: GPL-2.0
/*
 * cacheprobe-run evict: one eviction through libcacheprobe, for shell
 * loops and `hyperfine --prepare`.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cacheprobe.h"
#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/evict_output.h"
#include "cli/evict_server.h"
#include "cli/eviction_setup.h"
#include "cli/output_file.h"
#include "cli/size_option.h"
#include "util/parse_size.h"
#include "cli/transport_option.h"
#include "machine/cpuset.h"

#define COMMAND "evict"

static const char usage[] =
	"Usage: " CLI_PROGRAM " evict [OPTIONS]\n"
	"\n"
	"Evict the caches of CPUs once, with the method that works on this\n"
	"machine, and say which, why, and how long it took.  Made for shell\n"
	"loops and hyperfine --prepare '" CLI_PROGRAM " evict --quiet'.\n"
	"\n"
	"Options:\n"
	"  -m, --method=auto|wbinvd|wbnoinvd|garbage|clflush\n"
	"                      how to evict (default auto: WBINVD through the\n"
	"                      module where it is loaded, permitted and checked\n"
	"                      to evict here, else garbage); clflush flushes only\n"
	"                      the --verify probe, so it needs --verify\n"
	"  -c, --cpus=SELECTION  CPUs whose caches to evict: 0,2-5, all,\n"
	"                      per-core, per-l2, per-l3, per-package, per-numa\n"
	"                      (default: the CPUs this process may use)\n"
	"  -f, --factor=F      garbage: read F times each last-level cache\n"
	"                      (default 4, above 0, at most 64)\n"
	"  -v, --verify=SIZE   also warm a probe of SIZE bytes (64K, 4M, ...) on\n"
	"                      the first of --cpus, and time how much of it is\n"
	"                      still cached, warm and after the eviction\n"
	"  -j, --json=FILE     write the outcome as JSON to FILE ('-': stdout)\n"
	CLI_TRANSPORT_HELP
	"  -s, --serve=SOCKET  set the eviction up once and evict whenever a\n"
	"                      client asks at the UNIX socket SOCKET, until\n"
	"                      SIGINT or SIGTERM (the socket is then removed)\n"
	"  -C, --connect=SOCKET  ask the server at SOCKET to evict: no setup\n"
	"                      here, so a run of hyperfine --prepare pays only\n"
	"                      for the eviction (takes --json and --quiet only)\n"
	"  -q, --quiet         print nothing unless something fails\n"
	"  -h, --help          show this help\n"
	"\n"
	"Exit status: 0 evicted; 1 the eviction, its verify, or a method asked\n"
	"by name failed (e.g. wbinvd without the module); 2 wrong usage,\n"
	"including CPUs that are not online.\n";

struct evict_options {
	enum cacheprobe_method method;
	char *cpus;			/* resolved list; NULL: the process's */
	double factor;			/* 0: the library's default */
	uint64_t verify_bytes;
	const char *json_path;
	const char *transport;		/* NULL: auto */
	const char *serve;		/* --serve's socket */
	const char *connect;		/* --connect's socket */
	bool quiet;
	bool set_up;			/* an option of the setup was given */
};

static const struct option long_options[] = {
	{ "method", required_argument, NULL, 'm' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "factor", required_argument, NULL, 'f' },
	{ "verify", required_argument, NULL, 'v' },
	{ "json", required_argument, NULL, 'j' },
	{ "transport", required_argument, NULL, 't' },
	{ "serve", required_argument, NULL, 's' },
	{ "connect", required_argument, NULL, 'C' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_factor(const char *text, double *out)
{
	char *end;
	double factor;

	errno = 0;
	factor = strtod(text, &end);
	if (errno || end == text || *end || !(factor > 0) ||
	    factor > CACHEPROBE_MAX_GARBAGE_FACTOR)
		return cli_usage_error(COMMAND,
				       "--factor: '%s' is not a number above 0 and at most %g",
				       text, CACHEPROBE_MAX_GARBAGE_FACTOR);
	*out = factor;
	return CLI_PROCEED;
}

static int parse_verify(const char *text, uint64_t *out)
{
	char why[160];

	if (cp_parse_size(text, out, why, sizeof(why)) ||
	    cli_check_size_fits_memory(*out, text, why, sizeof(why)))
		return cli_usage_error(COMMAND, "--verify: %s", why);
	if (*out < 4096)
		return cli_usage_error(COMMAND,
				       "--verify: size '%s' is below one page (4K)",
				       text);
	return CLI_PROCEED;
}

static int parse_one(int option, struct evict_options *options)
{
	switch (option) {
	case 'm':
		if (cacheprobe_method_from_name(optarg, &options->method))
			return cli_usage_error(COMMAND, "--method: %s",
					       cacheprobe_last_error());
		return CLI_PROCEED;
	case 'c':
		free(options->cpus);
		options->cpus = NULL;
		return cli_eviction_cpus(COMMAND, optarg, &options->cpus);
	case 'f':
		return parse_factor(optarg, &options->factor);
	case 'v':
		return parse_verify(optarg, &options->verify_bytes);
	case 'j':
		options->json_path = optarg;
		return CLI_PROCEED;
	case 't':
		if (cli_parse_transport(COMMAND, optarg,
					&(enum cp_transport){ 0 }))
			return CLI_EXIT_USAGE;
		options->transport = optarg;
		return CLI_PROCEED;
	case 'q':
		options->quiet = true;
		return CLI_PROCEED;
	case 's':
		options->serve = optarg;
		return CLI_PROCEED;
	case 'C':
		options->connect = optarg;
		return CLI_PROCEED;
	case 'h':
		fputs(usage, stdout);
		return CLI_EXIT_OK;
	}
	return cli_option_error(COMMAND, option, optopt, optarg);
}

static int parse_options(int argc, char **argv, struct evict_options *options)
{
	int option, status;

	opterr = 0;
	optind = 1;
	while ((option = getopt_long(argc, argv, ":m:c:f:v:j:t:s:C:qh", long_options,
				     NULL)) != -1) {
		status = parse_one(option, options);
		if (status != CLI_PROCEED)
			return status;
		options->set_up |= strchr("mcfvt", option) != NULL;
	}
	if (optind < argc)
		return cli_usage_error(COMMAND, "unexpected argument '%s'",
				       argv[optind]);
	if (options->connect && (options->set_up || options->serve))
		return cli_usage_error(COMMAND,
				       "--connect takes only --json and --quiet: the server was set up when it started");
	if (options->serve && (options->verify_bytes || options->json_path))
		return cli_usage_error(COMMAND,
				       "--serve evicts for its clients: --verify and --json go with a single eviction");
	if (options->method == CACHEPROBE_METHOD_CLFLUSH &&
	    !options->verify_bytes)
		return cli_usage_error(COMMAND,
				       "--method clflush flushes a buffer of the program's own: here only the --verify probe, so give --verify SIZE");
	return CLI_PROCEED;
}

/* The probe is used on the first CPU asked for: one whose caches the
 * eviction is for. */
static int pin_probe(const char *cpus)
{
	struct cp_cpuset *set;
	cpu_set_t mask;
	char why[128];
	int first;

	if (!cpus || cp_cpuset_parse(cpus, &set, why, sizeof(why)))
		return 0;
	first = cp_cpuset_first(set);
	cp_cpuset_free(set);
	CPU_ZERO(&mask);
	CPU_SET(first, &mask);
	if (first >= 0 && sched_setaffinity(0, sizeof(mask), &mask))
		return cli_usage_error(COMMAND,
				       "--cpus: cannot run the probe on CPU %d (%s)",
				       first, strerror(errno));
	return 0;
}

/* The CPUs of this process, as the library's default takes them. */
static const char *affinity_list(char *text, size_t len)
{
	struct cp_cpuset *set = cp_cpuset_new(CPU_SETSIZE);
	cpu_set_t mask;

	if (!set || sched_getaffinity(0, sizeof(mask), &mask)) {
		cp_cpuset_free(set);
		return NULL;
	}
	for (unsigned int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &mask))
			cp_cpuset_set(set, cpu);
	cp_cpuset_format(set, text, len);
	cp_cpuset_free(set);
	return text;
}

static double now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

static int open_context(const struct evict_options *options,
			struct cacheprobe_ctx **ctx, double *open_ns)
{
	struct cli_eviction_choice choice = {
		.method = options->method, .cpus_list = options->cpus,
		.factor = options->factor, .transport = options->transport,
	};
	double start = now_ns();
	int status = options->verify_bytes ? pin_probe(options->cpus) : 0;

	if (status)
		return status;
	status = cli_eviction_open(COMMAND, &choice, ctx);
	*open_ns = now_ns() - start;
	return status;
}

static int finish(const struct evict_options *options,
		  struct cli_output *json, const struct evict_report *report)
{
	if (!options->quiet)
		evict_print(report, stdout);
	return cli_output_finish(json, evict_write_json, report);
}

/* --connect: the server's eviction, reported as one of ours. */
static int evict_remote(const struct evict_options *options)
{
	struct evict_report report = { 0 };
	struct cli_output json;
	char reply[1024];
	int status = cli_output_open(&json, COMMAND, "--json",
				     options->json_path);

	if (status != CLI_PROCEED)
		return status;
	status = evict_request(options->connect, &report, reply,
			       sizeof(reply));
	if (status == CLI_PROCEED)
		return finish(options, &json, &report);
	cli_output_abort(&json);
	return status;
}

int cmd_evict(int argc, char **argv)
{
	struct evict_options options = { .method = CACHEPROBE_METHOD_AUTO };
	struct evict_report report = { 0 };
	struct cacheprobe_ctx *ctx = NULL;
	struct cli_output json;
	char cpus_text[256];
	int status = parse_options(argc, argv, &options), ret;

	if (status != CLI_PROCEED) {
		free(options.cpus);
		return status;
	}
	if (options.connect)
		return evict_remote(&options);
	/* An output that cannot be written is said before the work. */
	status = cli_output_open(&json, COMMAND, "--json", options.json_path);
	if (status == CLI_PROCEED)
		status = open_context(&options, &ctx, &report.open_ns);
	if (status != CLI_PROCEED) {
		cli_output_abort(&json);
		free(options.cpus);
		return status;
	}
	if (options.serve) {
		status = evict_serve(options.serve, ctx,
				     options.cpus ? options.cpus
						  : affinity_list(cpus_text,
								  sizeof(cpus_text)),
				     options.quiet);
		cacheprobe_close(ctx);
		free(options.cpus);
		return status;
	}
	ret = evict_once(ctx, options.verify_bytes, &report.outcome);
	if (ret) {
		fprintf(stderr, "%s: %s: eviction failed: %s\n", CLI_PROGRAM,
			COMMAND, ret == -ENOMEM ? "no memory for the probe"
						: cacheprobe_last_error());
		cli_output_abort(&json);
		cacheprobe_close(ctx);
		free(options.cpus);
		return CLI_EXIT_FAILURE;
	}
	report.method = cacheprobe_method_name(cacheprobe_method(ctx));
	report.reason = cacheprobe_method_reason(ctx);
	report.cpus = options.cpus ? options.cpus : affinity_list(cpus_text,
								 sizeof(cpus_text));
	report.garbage_bytes = cacheprobe_garbage_bytes(ctx);
	status = finish(&options, &json, &report);
	cacheprobe_close(ctx);
	free(options.cpus);
	return status;
}
