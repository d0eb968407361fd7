// SPDX-License-Identifier: GPL-2.0
/* cacheprobe-run info: the module (when loaded), then the topology. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/module_report.h"
#include "cli/topology_report.h"
#include "cli/transport_option.h"
#include "client/client.h"
#include "machine/topology.h"

#define COMMAND "info"

static const char usage[] =
	"Usage: " CLI_PROGRAM " info [OPTIONS]\n"
	"\n"
	"Show the cacheprobe module (version, CPUs, TSC, CPU features) when it\n"
	"is loaded, and the machine's cache topology in any case.\n"
	"\n"
	"Options:\n"
	CLI_TRANSPORT_HELP
	"  -h, --help          show this help\n"
	"\n"
	"Without --transport, a module that is not loaded is reported and the\n"
	"command still succeeds; with it, failing to reach the module is an\n"
	"error (exit status 1).\n";

struct info_options {
	enum cp_transport transport;
};

static int parse_options(int argc, char **argv, struct info_options *options)
{
	static const struct option long_options[] = {
		{ "transport", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":t:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (cli_parse_transport(COMMAND, optarg,
						&options->transport))
				return CLI_EXIT_USAGE;
			break;
		case 'h':
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		default:
			return cli_option_error(COMMAND, opt, optopt,
						argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error(COMMAND, "unexpected argument '%s'",
				       argv[optind]);
	return CLI_PROCEED;
}

static int query_module(struct cp_client *client)
{
	struct cp_module_info info;
	struct cp_error error;
	int ret = cp_client_info(client, &info, &error);

	if (ret) {
		cli_report_error(COMMAND, &error);
		return CLI_EXIT_FAILURE;
	}
	ret = cli_print_module_info(stdout, &info,
				    cp_client_transport_name(client));
	cp_module_info_free(&info);
	if (ret) {
		cp_error_set(&error, -ret, "cannot format the CPU lists");
		cli_report_error(COMMAND, &error);
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}

/* The module part; with an explicit transport its failure is fatal. */
static int report_module(const struct info_options *options, bool *fatal)
{
	struct cp_client *client;
	struct cp_error error;
	int status;

	*fatal = false;
	if (cp_client_open(options->transport, &client, &error)) {
		if (options->transport == CP_TRANSPORT_AUTO) {
			cli_print_module_absent(stdout, &error);
			return CLI_EXIT_OK;
		}
		cli_report_error(COMMAND, &error);
		*fatal = true;
		return CLI_EXIT_FAILURE;
	}
	status = query_module(client);
	cp_client_close(client);
	return status;
}

static int report_topology(void)
{
	struct cp_topology *topology;
	struct cp_error error;
	int ret = cp_topology_load(NULL, &topology, &error);

	if (ret) {
		cli_report_error(COMMAND, &error);
		return CLI_EXIT_FAILURE;
	}
	ret = cli_print_topology(stdout, topology);
	cp_topology_free(topology);
	if (ret) {
		cp_error_set(&error, -ret, "cannot format the topology");
		cli_report_error(COMMAND, &error);
		return CLI_EXIT_FAILURE;
	}
	return CLI_EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
	struct info_options options = { .transport = CP_TRANSPORT_AUTO };
	int status = parse_options(argc, argv, &options);
	int topology_status;
	bool fatal;

	if (status != CLI_PROCEED)
		return status;
	status = report_module(&options, &fatal);
	if (fatal)
		return status;
	topology_status = report_topology();
	return status != CLI_EXIT_OK ? status : topology_status;
}
