/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How two CPUs are related, by what they share: the class decides what a
 * cache line moving between them has to cross.
 */
#ifndef CACHEPROBE_CPU_PAIRS_H
#define CACHEPROBE_CPU_PAIRS_H

#include <stddef.h>

#include "machine/cpuset.h"
#include "machine/topology.h"

enum cp_pair_class {
	CP_PAIR_SAME_CORE,		/* SMT siblings */
	CP_PAIR_SHARED_L2,		/* different cores, one L2 */
	CP_PAIR_SHARED_L3,		/* different L2s, one L3 */
	CP_PAIR_SAME_PACKAGE,		/* different L3s in one package */
	CP_PAIR_DIFFERENT_PACKAGE,
	CP_NR_PAIR_CLASSES,
	CP_PAIR_INVALID = -1,		/* same CPU, or not in the topology */
};

struct cp_cpu_pair {
	unsigned int first, second;
	enum cp_pair_class pair_class;
};

/* "smt", "shared-l2", "shared-l3", "same-package", "cross-package". */
const char *cp_pair_class_name(enum cp_pair_class pair_class);

enum cp_pair_class cp_pair_class_of(const struct cp_topology *topology,
				    unsigned int a, unsigned int b);

/*
 * One pair per class present among @cpus (NULL: every usable CPU,
 * usable_cpus.h): the lowest pair (first, then second) of that class.
 * Fills @pairs in class order and returns how many (at most
 * CP_NR_PAIR_CLASSES).
 */
size_t cp_pair_representatives(const struct cp_topology *topology,
			       const struct cp_cpuset *cpus,
			       struct cp_cpu_pair *pairs);

#endif
