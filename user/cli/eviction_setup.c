// SPDX-License-Identifier: GPL-2.0
#include "cli/eviction_setup.h"

#include <errno.h>
#include <stdio.h>

#include "cli/cli_util.h"
#include "machine/cpu_select.h"
#include "machine/topology.h"

int cli_eviction_cpus(const char *command, const char *selection,
		      char **list)
{
	struct cp_topology *topology;
	struct cp_cpuset *cpus = NULL;
	struct cp_error error;
	char why[256];
	int ret;

	if (cp_topology_load(NULL, &topology, &error)) {
		cli_report_error(command, &error);
		return CLI_EXIT_FAILURE;
	}
	ret = cp_cpu_select(topology, selection, false, &cpus, why,
			    sizeof(why));
	if (!ret) {
		*list = cp_cpuset_format_alloc(cpus);
		ret = *list ? 0 : -ENOMEM;
	}
	cp_cpuset_free(cpus);
	cp_topology_free(topology);
	if (ret == -ENOMEM) {
		fprintf(stderr, "%s: %s: out of memory\n", CLI_PROGRAM,
			command);
		return CLI_EXIT_FAILURE;
	}
	if (ret)
		return cli_usage_error(command, "--cpus '%s': %s", selection,
				       why);
	return CLI_PROCEED;
}

static int options_from(const struct cli_eviction_choice *choice,
			struct cacheprobe_options *options)
{
	int ret = cacheprobe_options_set_method(options, choice->method);

	if (!ret && choice->cpus_list)
		ret = cacheprobe_options_set_cpus(options, choice->cpus_list);
	if (!ret && choice->factor > 0)
		ret = cacheprobe_options_set_garbage_factor(options,
							    choice->factor);
	if (!ret && choice->transport)
		ret = cacheprobe_options_set_transport(options,
						       choice->transport);
	return ret;
}

int cli_eviction_open(const char *command,
		      const struct cli_eviction_choice *choice,
		      struct cacheprobe_ctx **ctx)
{
	struct cacheprobe_options *options = cacheprobe_options_new();
	int ret = options ? options_from(choice, options) : -ENOMEM;

	if (!ret)
		ret = cacheprobe_open(options, ctx);
	cacheprobe_options_free(options);
	if (!ret)
		return CLI_PROCEED;
	fprintf(stderr, "%s: %s: cannot set up the eviction: %s\n",
		CLI_PROGRAM, command, cacheprobe_last_error());
	return cli_exit_status_for(-ret);
}
