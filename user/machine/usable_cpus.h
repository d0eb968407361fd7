/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPUs a run may choose from (struct cp_topology's usable): online,
 * allowed by the cgroup cpuset (hwloc's allowed set) and, for this
 * machine's topology, in the affinity the process started with
 * (affinity.h).  Every CPU the tool picks by itself comes from them, and a
 * CPU asked for outside them is refused: pinning a thread there would take
 * the process where taskset or the cpuset did not put it.
 */
#ifndef CACHEPROBE_USABLE_CPUS_H
#define CACHEPROBE_USABLE_CPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "machine/topology.h"

/* The CPU a run starts on when none is chosen: the calling thread's when
 * it is usable, else the lowest usable one; -1 when none is. */
int cp_usable_default_cpu(const struct cp_topology *topology);

/* The usable CPUs when they are fewer than the online ones, else NULL: for
 * requests to the module, whose NULL means every online CPU (FLUSH). */
const struct cp_cpuset *cp_usable_restriction(
	const struct cp_topology *topology);

/* Whether @cpu is online but outside the usable CPUs. */
bool cp_usable_excludes(const struct cp_topology *topology, unsigned int cpu);

/* "CPU N is not in this process's allowed CPUs (taskset/cpuset: LIST)"
 * into @why; returns -EINVAL. */
int cp_usable_refuse(const struct cp_topology *topology, unsigned int cpu,
		     char *why, size_t why_len);

/* "only CPU 0", "only CPUs 0,2-3" or "no CPU", for messages. */
void cp_usable_describe(const struct cp_topology *topology, char *buf,
			size_t len);

#endif
