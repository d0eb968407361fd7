/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine's CPU and cache topology, read with hwloc: how many packages,
 * NUMA nodes, cores and hardware threads, and for each cache level and type
 * its size, line size and which CPUs share each instance.
 *
 * CPU ids are the kernel's (hwloc OS indexes), as in cp_cpuset.
 */
#ifndef CACHEPROBE_TOPOLOGY_H
#define CACHEPROBE_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "machine/cpuset.h"
#include "util/error.h"

struct hwloc_topology;

enum cp_topology_source_kind {
	CP_TOPOLOGY_THIS_MACHINE,
	CP_TOPOLOGY_SYNTHETIC,	/* text: an hwloc synthetic description */
	CP_TOPOLOGY_XML,	/* text: the path of an hwloc XML export */
};

struct cp_topology_source {
	enum cp_topology_source_kind kind;
	const char *text;
};

enum cp_cache_type {
	CP_CACHE_DATA,
	CP_CACHE_INSTRUCTION,
	CP_CACHE_UNIFIED,
};

struct cp_cache_instance {
	uint64_t size_bytes;
	struct cp_cpuset *cpus;		/* the CPUs sharing it */
};

/* All caches of one level and type, e.g. every L2 or every L1i. */
struct cp_cache_level {
	unsigned int level;		/* 1 for L1 */
	enum cp_cache_type type;
	unsigned int line_size;		/* bytes; 0 when unknown */
	int associativity;		/* ways; 0 unknown, -1 fully associative */
	size_t nr_instances;
	struct cp_cache_instance *instances;	/* in CPU order */
};

struct cp_topology {
	unsigned int nr_packages;
	unsigned int nr_numa_nodes;
	unsigned int nr_cores;
	unsigned int nr_cpus;			/* hardware threads (PUs) */
	unsigned int min_threads_per_core;	/* differ on hybrid CPUs */
	unsigned int max_threads_per_core;
	struct cp_cpuset *cpus;			/* every online CPU */
	/* The CPUs runs choose from: see usable_cpus.h. */
	struct cp_cpuset *usable;
	size_t nr_cache_levels;
	struct cp_cache_level *cache_levels;	/* by level, then d, i, unified */
	/* Kept for the CPU-pair classes and CPU picks built on it later. */
	struct hwloc_topology *hwloc;
};

/*
 * Read the topology of @source, NULL meaning this machine.  Returns 0 or a
 * negative errno with @error filled.  Free with cp_topology_free.
 */
int cp_topology_load(const struct cp_topology_source *source,
		     struct cp_topology **out, struct cp_error *error);
void cp_topology_free(struct cp_topology *topology);

/* "L1d", "L1i", "L2", ... */
const char *cp_cache_level_name(const struct cp_cache_level *cache,
				char *buf, size_t len);

#endif
