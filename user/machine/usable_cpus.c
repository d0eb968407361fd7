// SPDX-License-Identifier: GPL-2.0
#include "machine/usable_cpus.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/error.h"

int cp_usable_default_cpu(const struct cp_topology *topology)
{
	int cpu = sched_getcpu();

	if (cpu >= 0 && cp_cpuset_test(topology->usable, (unsigned int)cpu))
		return cpu;
	return cp_cpuset_first(topology->usable);
}

const struct cp_cpuset *cp_usable_restriction(
	const struct cp_topology *topology)
{
	if (cp_cpuset_equal(topology->usable, topology->cpus))
		return NULL;
	return topology->usable;
}

bool cp_usable_excludes(const struct cp_topology *topology, unsigned int cpu)
{
	return cp_cpuset_test(topology->cpus, cpu) &&
	       !cp_cpuset_test(topology->usable, cpu);
}

int cp_usable_refuse(const struct cp_topology *topology, unsigned int cpu,
		     char *why, size_t why_len)
{
	char *list = cp_cpuset_format_alloc(topology->usable);
	int ret = cp_why_invalid(why, why_len,
				 "CPU %u is not in this process's allowed CPUs (taskset/cpuset: %s)",
				 cpu, list ? list : "?");

	free(list);
	return ret;
}

void cp_usable_describe(const struct cp_topology *topology, char *buf,
			size_t len)
{
	unsigned int count = cp_cpuset_count(topology->usable);
	char *list = cp_cpuset_format_alloc(topology->usable);

	if (!count)
		snprintf(buf, len, "no CPU");
	else
		snprintf(buf, len, "only CPU%s %s", count == 1 ? "" : "s",
			 list ? list : "?");
	free(list);
}
