/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which CPUs the bounce threads run on.  By default one group per CPU-pair
 * class present among the usable CPUs (machine/cpu_pairs.h, usable_cpus.h):
 * the class's representative pair, and for more than two threads the
 * lowest further usable CPUs in the same relation to the pair's first CPU,
 * so every thread reaches the first one across that class's boundary.  A
 * class with too few such CPUs is left out.  With --cpus, one group of
 * exactly those CPUs, classed by the widest relation between any two of
 * them.
 */
#ifndef CACHEPROBE_BOUNCE_GROUPS_H
#define CACHEPROBE_BOUNCE_GROUPS_H

#include <stddef.h>

#include "areas/bounce/bounce_choices.h"
#include "machine/cpu_pairs.h"
#include "machine/cpuset.h"
#include "machine/topology.h"

struct cp_bounce_group {
	enum cp_pair_class pair_class;
	unsigned int nr_cpus;
	unsigned int cpus[CP_BOUNCE_MAX_THREADS];
};

/*
 * Up to CP_NR_PAIR_CLASSES groups of @threads CPUs (0: as many as @cpus
 * holds, else CP_BOUNCE_DEFAULT_THREADS) into @groups, their number in
 * *@nr_groups.  @cpus NULL: the default groups.  0, or -EINVAL with the
 * reason in @why (fewer than 2 CPUs, a thread count that differs from
 * --cpus, no class with enough CPUs).
 */
int cp_bounce_plan_groups(const struct cp_topology *topology,
			  const struct cp_cpuset *cpus, unsigned int threads,
			  struct cp_bounce_group *groups, size_t *nr_groups,
			  char *why, size_t why_len);

/* "0,1" or "0-3": the group's CPUs as a list, snprintf-style. */
size_t cp_bounce_group_format(const struct cp_bounce_group *group, char *buf,
			      size_t len);

#endif
