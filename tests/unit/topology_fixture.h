/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the unit tests: synthetic machines (hwloc synthetic
 * descriptions) for code that plans by topology. */
#ifndef CACHEPROBE_TEST_TOPOLOGY_FIXTURE_H
#define CACHEPROBE_TEST_TOPOLOGY_FIXTURE_H

#include "machine/topology.h"

/* 2 packages x 4 L3 x 8 cores x 2 threads: every pair class. */
#define BIG_MACHINE "pack:2 l3:4 core:8 pu:2"
/* Cores sharing an L2 in pairs. */
#define SHARED_L2_MACHINE "pack:2 l3:4 l2:4 core:2 pu:2"
/* One L3, two single-thread cores: the development machine's shape. */
#define SMALL_MACHINE "l3:1 core:2 pu:1"

/* The topology @description describes; fails the test when hwloc refuses
 * it.  Free with cp_topology_free. */
struct cp_topology *load_synthetic(const char *description);

/* The same machine as a process in a cgroup cpuset of the CPUs @allowed
 * (a CPU list) sees it: every online CPU, those allowed marked so in
 * hwloc's XML export, which is read back as the tool reads one. */
struct cp_topology *load_restricted(const char *description,
				    const char *allowed);

#endif
