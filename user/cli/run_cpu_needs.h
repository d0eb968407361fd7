/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The areas of a run against the CPUs this process may use
 * (machine/usable_cpus.h): an area that needs more (bounce, xcore and c2c need
 * two) is a usage error when named.  The run made with no area named
 * leaves it out, with a line on standard error saying which and why, and
 * goes on: whoever held the process to one CPU (taskset, a cgroup cpuset)
 * asked for no pair of CPUs, so that run measures what may be measured
 * here and may still succeed.
 */
#ifndef CACHEPROBE_RUN_CPU_NEEDS_H
#define CACHEPROBE_RUN_CPU_NEEDS_H

#include <stdbool.h>

#include "cli/run_options.h"
#include "results/results.h"
#include "machine/topology.h"

/* The areas left out, for the results (their "skipped_areas"). */
struct run_left_out {
	size_t nr;
	struct cp_skipped_area areas[CP_MAX_SKIPPED_AREAS];
};

/* CLI_PROCEED, with the areas that cannot run dropped from @options into
 * @left_out when none was @named, or CLI_EXIT_USAGE. */
int run_fit_areas(struct run_options *options, bool named,
		  const struct cp_topology *topology, const char *command,
		  struct run_left_out *left_out);

#endif
