// SPDX-License-Identifier: GPL-2.0
#include "cli/run_cpu_needs.h"

#include <stdio.h>
#include <string.h>

#include "areas/area.h"
#include "cli/cli_util.h"
#include "machine/usable_cpus.h"

static unsigned int needs(const struct cp_area *area)
{
	return area->min_cpus ? area->min_cpus : 1;
}

/* "two CPUs", the need of every area that needs more than one today. */
static void name_need(unsigned int need, char *buf, size_t len)
{
	if (need == 2)
		snprintf(buf, len, "two CPUs");
	else
		snprintf(buf, len, "%u CPUs", need);
}

static int refuse_named(const struct run_options *options,
			const struct cp_topology *topology, unsigned int usable,
			const char *command)
{
	char need[32], allowed[128];

	for (size_t i = 0; i < options->nr_areas; i++) {
		const struct cp_area *area = options->areas[i];

		if (needs(area) <= usable)
			continue;
		name_need(needs(area), need, sizeof(need));
		cp_usable_describe(topology, allowed, sizeof(allowed));
		return cli_usage_error(command,
				       "%s needs %s and this process may use %s (taskset/cpuset)",
				       area->name, need, allowed);
	}
	return CLI_PROCEED;
}

static void say_left_out(const char *names, size_t count, unsigned int need,
			 const struct cp_topology *topology)
{
	char need_text[32], allowed[128];

	name_need(need, need_text, sizeof(need_text));
	cp_usable_describe(topology, allowed, sizeof(allowed));
	fprintf(stderr,
		"%s: %s skipped: %s %s and this process may use %s (taskset/cpuset)\n",
		CLI_PROGRAM, names, count == 1 ? "it needs" : "they need",
		need_text, allowed);
}

/* The reason of one area left out, as the results keep it. */
static void record(struct run_left_out *left_out, const char *name,
		   unsigned int need, const struct cp_topology *topology)
{
	struct cp_skipped_area *skipped;
	char need_text[32], allowed[128];

	if (left_out->nr == CP_MAX_SKIPPED_AREAS)
		return;
	skipped = &left_out->areas[left_out->nr++];
	name_need(need, need_text, sizeof(need_text));
	cp_usable_describe(topology, allowed, sizeof(allowed));
	snprintf(skipped->name, sizeof(skipped->name), "%s", name);
	snprintf(skipped->reason, sizeof(skipped->reason),
		 "it needs %s and this process may use %s (taskset/cpuset)",
		 need_text, allowed);
}

static void leave_out(struct run_options *options,
		      const struct cp_topology *topology, unsigned int usable,
		      struct run_left_out *left_out)
{
	char names[160] = "";
	size_t kept = 0, nr_left_out = 0;
	unsigned int need = 0;

	for (size_t i = 0; i < options->nr_areas; i++) {
		const struct cp_area *area = options->areas[i];
		size_t used = strlen(names);

		if (needs(area) <= usable) {
			options->areas[kept++] = area;
			continue;
		}
		snprintf(names + used, sizeof(names) - used, "%s%s",
			 nr_left_out ? ", " : "", area->name);
		need = needs(area) > need ? needs(area) : need;
		record(left_out, area->name, needs(area), topology);
		nr_left_out++;
	}
	options->nr_areas = kept;
	if (nr_left_out)
		say_left_out(names, nr_left_out, need, topology);
}

int run_fit_areas(struct run_options *options, bool named,
		  const struct cp_topology *topology, const char *command,
		  struct run_left_out *left_out)
{
	unsigned int usable = cp_cpuset_count(topology->usable);

	if (!usable)
		return cli_usage_error(command,
				       "this process may use none of the topology's CPUs (taskset/cpuset)");
	if (named)
		return refuse_named(options, topology, usable, command);
	leave_out(options, topology, usable, left_out);
	return CLI_PROCEED;
}
