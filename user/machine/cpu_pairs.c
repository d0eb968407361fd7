// SPDX-License-Identifier: GPL-2.0
#include "machine/cpu_pairs.h"

#include <hwloc.h>

const char *cp_pair_class_name(enum cp_pair_class pair_class)
{
	static const char *const names[] = {
		[CP_PAIR_SAME_CORE] = "smt",
		[CP_PAIR_SHARED_L2] = "shared-l2",
		[CP_PAIR_SHARED_L3] = "shared-l3",
		[CP_PAIR_SAME_PACKAGE] = "same-package",
		[CP_PAIR_DIFFERENT_PACKAGE] = "cross-package",
	};

	if (pair_class < 0 || pair_class >= CP_NR_PAIR_CLASSES)
		return "invalid";
	return names[pair_class];
}

/* Whether @a's enclosing object of @type also holds @b. */
static bool share(hwloc_topology_t hwloc, hwloc_obj_t a, unsigned int b,
		  hwloc_obj_type_t type)
{
	hwloc_obj_t ancestor = hwloc_get_ancestor_obj_by_type(hwloc, type, a);

	return ancestor && hwloc_bitmap_isset(ancestor->cpuset, b);
}

enum cp_pair_class cp_pair_class_of(const struct cp_topology *topology,
				    unsigned int a, unsigned int b)
{
	hwloc_topology_t hwloc = topology->hwloc;
	hwloc_obj_t pu_a = hwloc_get_pu_obj_by_os_index(hwloc, a);

	if (a == b || !pu_a || !hwloc_get_pu_obj_by_os_index(hwloc, b))
		return CP_PAIR_INVALID;
	/* From the closest relation outwards: the first shared thing wins. */
	if (share(hwloc, pu_a, b, HWLOC_OBJ_CORE))
		return CP_PAIR_SAME_CORE;
	if (share(hwloc, pu_a, b, HWLOC_OBJ_L2CACHE))
		return CP_PAIR_SHARED_L2;
	if (share(hwloc, pu_a, b, HWLOC_OBJ_L3CACHE))
		return CP_PAIR_SHARED_L3;
	if (share(hwloc, pu_a, b, HWLOC_OBJ_PACKAGE))
		return CP_PAIR_SAME_PACKAGE;
	return CP_PAIR_DIFFERENT_PACKAGE;
}

static bool in_selection(const struct cp_topology *topology,
			 const struct cp_cpuset *cpus, int cpu)
{
	return cp_cpuset_test(cpus ? cpus : topology->usable,
			      (unsigned int)cpu);
}

size_t cp_pair_representatives(const struct cp_topology *topology,
			       const struct cp_cpuset *cpus,
			       struct cp_cpu_pair *pairs)
{
	bool found[CP_NR_PAIR_CLASSES] = { false };
	struct cp_cpu_pair by_class[CP_NR_PAIR_CLASSES];
	const struct cp_cpuset *all = topology->cpus;
	size_t count = 0;

	for (int a = cp_cpuset_first(all); a >= 0;
	     a = cp_cpuset_next(all, (unsigned int)a)) {
		if (!in_selection(topology, cpus, a))
			continue;
		for (int b = cp_cpuset_next(all, (unsigned int)a); b >= 0;
		     b = cp_cpuset_next(all, (unsigned int)b)) {
			enum cp_pair_class pair_class;

			if (!in_selection(topology, cpus, b))
				continue;
			pair_class = cp_pair_class_of(topology, (unsigned int)a,
						      (unsigned int)b);
			if (pair_class == CP_PAIR_INVALID || found[pair_class])
				continue;
			found[pair_class] = true;
			by_class[pair_class] = (struct cp_cpu_pair){
				(unsigned int)a, (unsigned int)b, pair_class,
			};
		}
	}
	for (int c = 0; c < CP_NR_PAIR_CLASSES; c++)
		if (found[c])
			pairs[count++] = by_class[c];
	return count;
}
