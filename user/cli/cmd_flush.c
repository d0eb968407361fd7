// SPDX-License-Identifier: GPL-2.0
/* cacheprobe-run flush: WBINVD/WBNOINVD on CPUs through the module. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/flush_report.h"
#include "cli/transport_option.h"
#include "client/client.h"
#include "machine/cpu_select.h"
#include "machine/topology.h"
#include "machine/usable_cpus.h"

#define COMMAND "flush"

static const struct cli_choice method_choices[] = {
	{ "wbinvd", CACHEPROBE_FLUSH_WBINVD },
	{ "wbnoinvd", CACHEPROBE_FLUSH_WBNOINVD },
};

#define NR_METHOD_CHOICES (sizeof(method_choices) / sizeof(method_choices[0]))

static const char usage[] =
	"Usage: " CLI_PROGRAM " flush [OPTIONS]\n"
	"\n"
	"Write back and invalidate the caches of CPUs (WBINVD), or write back\n"
	"only (WBNOINVD), in the kernel through the cacheprobe module, and\n"
	"print how long the instruction took on each CPU.  Needs the module\n"
	"and CAP_SYS_ADMIN.\n"
	"\n"
	"Options:\n"
	"  -c, --cpus=LIST     CPUs to flush, e.g. 0,2-5 (default: every online\n"
	"                      CPU this process may use, see taskset); the\n"
	"                      module checks that they are online.\n"
	"                      Topology picks too: all, per-core, per-l2,\n"
	"                      per-l3, per-package, per-numa (e.g. per-l3,5)\n"
	"  -m, --method=wbinvd|wbnoinvd\n"
	"                      the instruction (default wbinvd)\n"
	CLI_TRANSPORT_HELP
	"  -h, --help          show this help\n"
	"\n"
	"Output: a line \"flush: METHOD via TRANSPORT on N CPUs (LIST)\", then\n"
	"one line \"cpu N: TICKS ticks, NS ns\" per CPU (TSC ticks).\n";

struct flush_options {
	enum cp_transport transport;
	enum cacheprobe_flush_method method;
	struct cp_cpuset *cpus;		/* NULL: the module's, all online */
	struct cp_topology *topology;	/* read when first needed */
};

static int need_topology(struct flush_options *options, char *why,
			 size_t why_len)
{
	struct cp_error error;
	int ret;

	if (options->topology)
		return 0;
	ret = cp_topology_load(NULL, &options->topology, &error);
	if (ret)
		snprintf(why, why_len, "%s", error.msg);
	return ret;
}

/* 0, or -EINVAL for the first CPU of @set this process may not use. */
static int refuse_unusable(const struct cp_topology *topology,
			   const struct cp_cpuset *set, char *why,
			   size_t why_len)
{
	for (int cpu = cp_cpuset_first(set); cpu >= 0;
	     cpu = cp_cpuset_next(set, (unsigned int)cpu))
		if (cp_usable_excludes(topology, (unsigned int)cpu))
			return cp_usable_refuse(topology, (unsigned int)cpu, why,
						why_len);
	return 0;
}

/* A topology pick ("per-l3", "all"...) is made among the CPUs this process
 * may use.  A plain list is parsed alone and refused here only for a CPU
 * the process may not use; offline and unknown ones are left to the
 * module, whose message says which. */
static int select_cpus(const char *text, struct flush_options *options,
		       char *why, size_t why_len)
{
	bool has_word = false;
	int ret = need_topology(options, why, why_len);

	if (ret)
		return ret == -ENOMEM ? ret : -EINVAL;
	for (const char *c = text; *c; c++)
		has_word = has_word || isalpha((unsigned char)*c);
	if (has_word)
		return cp_cpu_select(options->topology, text, false,
				     &options->cpus, why, why_len);
	ret = cp_cpuset_parse(text, &options->cpus, why, why_len);
	if (!ret)
		ret = refuse_unusable(options->topology, options->cpus, why,
				      why_len);
	return ret;
}

static int parse_cpus(const char *text, struct flush_options *options)
{
	char why[CACHEPROBE_MSG_MAX];
	int ret;

	cp_cpuset_free(options->cpus);
	options->cpus = NULL;
	ret = select_cpus(text, options, why, sizeof(why));
	if (ret == -ENOMEM) {
		fprintf(stderr, "%s: %s: %s\n", CLI_PROGRAM, COMMAND, why);
		return CLI_EXIT_FAILURE;
	}
	if (ret)
		return cli_usage_error(COMMAND, "--cpus '%s': %s", text, why);
	return 0;
}

static int parse_method(const char *text, struct flush_options *options)
{
	char why[CACHEPROBE_MSG_MAX];
	int value;

	if (cli_parse_choice(text, method_choices, NR_METHOD_CHOICES, &value,
			     why, sizeof(why)))
		return cli_usage_error(COMMAND, "--method: %s", why);
	options->method = (enum cacheprobe_flush_method)value;
	return 0;
}

static int parse_option(int opt, char **argv, struct flush_options *options)
{
	switch (opt) {
	case 'c':
		return parse_cpus(optarg, options);
	case 'm':
		return parse_method(optarg, options);
	case 't':
		return cli_parse_transport(COMMAND, optarg, &options->transport);
	case 'h':
		fputs(usage, stdout);
		return CLI_EXIT_OK;
	default:
		return cli_option_error(COMMAND, opt, optopt, argv[optind - 1]);
	}
}

static int parse_options(int argc, char **argv, struct flush_options *options)
{
	static const struct option long_options[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "method", required_argument, NULL, 'm' },
		{ "transport", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":c:m:t:h", long_options,
				  NULL)) != -1) {
		int status = parse_option(opt, argv, options);

		/* 'h' succeeds by ending the command. */
		if (status || opt == 'h')
			return status;
	}
	if (optind < argc)
		return cli_usage_error(COMMAND, "unexpected argument '%s'",
				       argv[optind]);
	return CLI_PROCEED;
}

static int run_flush(struct cp_client *client,
		     const struct flush_options *options)
{
	struct cp_cpu_time *results;
	size_t nr_results;
	struct cp_error error;
	int ret = cp_client_flush(client, options->method, options->cpus,
				  &results, &nr_results, &error);

	if (ret) {
		cli_report_error(COMMAND, &error);
		return cli_exit_status_for(error.err);
	}
	ret = cli_print_flush_results(stdout,
				      cli_choice_name(method_choices,
						      NR_METHOD_CHOICES,
						      (int)options->method),
				      cp_client_transport_name(client),
				      results, nr_results);
	free(results);
	if (ret) {
		cp_error_set(&error, -ret, "cannot format the results");
		cli_report_error(COMMAND, &error);
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}

/* Without --cpus, every online CPU this process may use: the module's own
 * default (NULL) when that is every online CPU. */
static int default_cpus(struct flush_options *options)
{
	char why[CACHEPROBE_MSG_MAX];
	int ret;

	if (options->cpus)
		return CLI_PROCEED;
	ret = need_topology(options, why, sizeof(why));
	if (!ret && cp_usable_restriction(options->topology)) {
		options->cpus = cp_cpuset_clone(options->topology->usable);
		if (!options->cpus) {
			snprintf(why, sizeof(why), "out of memory");
			ret = -ENOMEM;
		}
	}
	if (!ret)
		return CLI_PROCEED;
	fprintf(stderr, "%s: %s: %s\n", CLI_PROGRAM, COMMAND, why);
	return CLI_EXIT_FAILURE;
}

int cmd_flush(int argc, char **argv)
{
	struct flush_options options = {
		.transport = CP_TRANSPORT_AUTO,
		.method = CACHEPROBE_FLUSH_WBINVD,
	};
	struct cp_client *client;
	struct cp_error error;
	int status = parse_options(argc, argv, &options);

	if (status == CLI_PROCEED)
		status = default_cpus(&options);
	if (status == CLI_PROCEED) {
		if (cp_client_open(options.transport, &client, &error)) {
			cli_report_error(COMMAND, &error);
			status = cli_exit_status_for(error.err);
		} else {
			status = run_flush(client, &options);
			cp_client_close(client);
		}
	}
	cp_cpuset_free(options.cpus);
	cp_topology_free(options.topology);
	return status;
}
