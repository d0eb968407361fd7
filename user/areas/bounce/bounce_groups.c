// SPDX-License-Identifier: GPL-2.0
#include "areas/bounce/bounce_groups.h"

#include <errno.h>
#include <stdio.h>

#include "util/error.h"

/* The widest relation between any two CPUs of @group. */
static enum cp_pair_class widest_class(const struct cp_topology *topology,
				       const struct cp_bounce_group *group)
{
	enum cp_pair_class widest = CP_PAIR_SAME_CORE;

	for (unsigned int i = 0; i < group->nr_cpus; i++)
		for (unsigned int k = i + 1; k < group->nr_cpus; k++) {
			enum cp_pair_class c = cp_pair_class_of(
				topology, group->cpus[i], group->cpus[k]);

			if (c > widest)
				widest = c;
		}
	return widest;
}

static int plan_chosen(const struct cp_topology *topology,
		       const struct cp_cpuset *cpus, unsigned int threads,
		       struct cp_bounce_group *group, char *why,
		       size_t why_len)
{
	unsigned int count = cp_cpuset_count(cpus);

	if (count < 2)
		return cp_why_invalid(why, why_len,
			      "--cpus names %u CPU; bouncing needs at least 2",
			      count);
	if (count > CP_BOUNCE_MAX_THREADS)
		return cp_why_invalid(why, why_len,
			      "--cpus names %u CPUs; at most %d threads",
			      count, CP_BOUNCE_MAX_THREADS);
	if (threads && threads != count)
		return cp_why_invalid(why, why_len,
			      "--threads %u but --cpus names %u CPUs (one thread per CPU)",
			      threads, count);
	group->nr_cpus = 0;
	for (int cpu = cp_cpuset_first(cpus); cpu >= 0;
	     cpu = cp_cpuset_next(cpus, (unsigned int)cpu))
		group->cpus[group->nr_cpus++] = (unsigned int)cpu;
	group->pair_class = widest_class(topology, group);
	return 0;
}

/* @pair grown to @threads CPUs in @pair's relation to its first CPU;
 * false when the machine has too few. */
static bool grow(const struct cp_topology *topology,
		 const struct cp_cpu_pair *pair, unsigned int threads,
		 struct cp_bounce_group *group)
{
	const struct cp_cpuset *all = topology->usable;

	group->pair_class = pair->pair_class;
	group->cpus[0] = pair->first;
	group->nr_cpus = 1;
	for (int cpu = cp_cpuset_first(all); cpu >= 0 &&
			group->nr_cpus < threads;
	     cpu = cp_cpuset_next(all, (unsigned int)cpu))
		if (cp_pair_class_of(topology, pair->first,
				     (unsigned int)cpu) == pair->pair_class)
			group->cpus[group->nr_cpus++] = (unsigned int)cpu;
	return group->nr_cpus == threads;
}

static int refuse_threads(const struct cp_topology *topology,
			  unsigned int threads, char *why, size_t why_len)
{
	unsigned int usable = cp_cpuset_count(topology->usable);

	if (usable < topology->nr_cpus)
		return cp_why_invalid(why, why_len,
			      "no CPU-pair class has %u CPUs to run %u threads on (this process may use %u of this machine's %u CPUs)",
			      threads, threads, usable, topology->nr_cpus);
	return cp_why_invalid(why, why_len,
		      "no CPU-pair class has %u CPUs to run %u threads on (this machine has %u CPUs)",
		      threads, threads, topology->nr_cpus);
}

int cp_bounce_plan_groups(const struct cp_topology *topology,
			  const struct cp_cpuset *cpus, unsigned int threads,
			  struct cp_bounce_group *groups, size_t *nr_groups,
			  char *why, size_t why_len)
{
	struct cp_cpu_pair pairs[CP_NR_PAIR_CLASSES];
	size_t nr_pairs;

	*nr_groups = 0;
	if (cpus) {
		int ret = plan_chosen(topology, cpus, threads, &groups[0], why,
				      why_len);

		*nr_groups = ret ? 0 : 1;
		return ret;
	}
	if (!threads)
		threads = CP_BOUNCE_DEFAULT_THREADS;
	if (threads < 2 || threads > CP_BOUNCE_MAX_THREADS)
		return cp_why_invalid(why, why_len, "--threads %u is not between 2 and %d",
			      threads, CP_BOUNCE_MAX_THREADS);
	nr_pairs = cp_pair_representatives(topology, NULL, pairs);
	for (size_t i = 0; i < nr_pairs; i++)
		if (grow(topology, &pairs[i], threads, &groups[*nr_groups]))
			(*nr_groups)++;
	if (!*nr_groups)
		return refuse_threads(topology, threads, why, why_len);
	return 0;
}

/* How many CPUs from @i on follow each other by one (at least 1). */
static unsigned int run_length(const struct cp_bounce_group *group,
			       unsigned int i)
{
	unsigned int n = 1;

	while (i + n < group->nr_cpus &&
	       group->cpus[i + n] == group->cpus[i] + n)
		n++;
	return n;
}

/*
 * Three or more CPUs in a row as a range: a group of every CPU of a lab
 * machine stays short enough for a measurement's name (63 characters;
 * "0,1,...,15" cut there made two names one).  Order is kept: the first
 * CPU leads.
 */
size_t cp_bounce_group_format(const struct cp_bounce_group *group, char *buf,
			      size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int i = 0; i < group->nr_cpus;) {
		unsigned int run = run_length(group, i), first = group->cpus[i];
		int n;

		if (run < 3)
			run = 1;
		n = run > 1 ? snprintf(used < len ? buf + used : NULL,
				       used < len ? len - used : 0, "%s%u-%u",
				       i ? "," : "", first, first + run - 1)
			    : snprintf(used < len ? buf + used : NULL,
				       used < len ? len - used : 0, "%s%u",
				       i ? "," : "", first);
		used += (size_t)n;
		i += run;
	}
	return used;
}
