// SPDX-License-Identifier: GPL-2.0
#include "machine/topology.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hwloc.h>
#include <linux/cacheprobe.h>

#include "machine/affinity.h"

/* hwloc reports failures through errno; some paths leave it unset. */
static int hwloc_errno(void)
{
	return errno ? errno : EINVAL;
}

static int apply_source(hwloc_topology_t hwloc,
			const struct cp_topology_source *source,
			struct cp_error *error)
{
	if (!source || source->kind == CP_TOPOLOGY_THIS_MACHINE)
		return 0;
	errno = 0;
	if (source->kind == CP_TOPOLOGY_SYNTHETIC &&
	    hwloc_topology_set_synthetic(hwloc, source->text) < 0)
		return cp_error_set(error, EINVAL,
				    "invalid hwloc synthetic description \"%s\"",
				    source->text);
	if (source->kind == CP_TOPOLOGY_XML &&
	    hwloc_topology_set_xml(hwloc, source->text) < 0)
		return cp_error_set(error, hwloc_errno(),
				    "cannot read hwloc XML %s", source->text);
	return 0;
}

static int open_hwloc(const struct cp_topology_source *source,
		      hwloc_topology_t *out, struct cp_error *error)
{
	hwloc_topology_t hwloc = NULL;
	int ret;

	if (hwloc_topology_init(&hwloc) < 0)
		return cp_error_set(error, hwloc_errno(),
				    "cannot initialise hwloc");
	/* hwloc drops instruction caches by default; L1i matters here. */
	hwloc_topology_set_icache_types_filter(hwloc,
					       HWLOC_TYPE_FILTER_KEEP_ALL);
	/* hwloc drops the CPUs the cgroup cpuset excludes by default; kept,
	 * a request for one is refused as not allowed, not as offline. */
	hwloc_topology_set_flags(hwloc, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	ret = apply_source(hwloc, source, error);
	if (!ret && hwloc_topology_load(hwloc) < 0)
		ret = cp_error_set(error, hwloc_errno(),
				   "cannot read the CPU topology");
	if (ret) {
		hwloc_topology_destroy(hwloc);
		return ret;
	}
	*out = hwloc;
	return 0;
}

static unsigned int count_objects(hwloc_topology_t hwloc, hwloc_obj_type_t type)
{
	unsigned int count = 0;

	for (hwloc_obj_t obj = hwloc_get_next_obj_by_type(hwloc, type, NULL);
	     obj; obj = hwloc_get_next_obj_by_type(hwloc, type, obj))
		count++;
	return count;
}

static int cpuset_from_hwloc(hwloc_const_cpuset_t bitmap,
			     struct cp_cpuset **out, struct cp_error *error)
{
	int last = hwloc_bitmap_last(bitmap);
	struct cp_cpuset *set;
	unsigned int id;

	if (last >= CACHEPROBE_MAX_CPUS)
		return cp_error_set(error, ERANGE,
				    "hwloc reports CPU %d, beyond the limit of %d",
				    last, CACHEPROBE_MAX_CPUS - 1);
	set = cp_cpuset_new(last < 0 ? 1 : (unsigned int)last + 1);
	if (!set)
		return cp_error_set(error, ENOMEM, "no memory for a CPU set");
	hwloc_bitmap_foreach_begin(id, bitmap)
		cp_cpuset_set(set, id);
	hwloc_bitmap_foreach_end();
	*out = set;
	return 0;
}

static void count_threads_per_core(hwloc_topology_t hwloc,
				   struct cp_topology *topology)
{
	for (hwloc_obj_t core = hwloc_get_next_obj_by_type(hwloc,
							   HWLOC_OBJ_CORE, NULL);
	     core; core = hwloc_get_next_obj_by_type(hwloc, HWLOC_OBJ_CORE,
						     core)) {
		unsigned int threads =
			(unsigned int)hwloc_bitmap_weight(core->cpuset);

		if (!topology->min_threads_per_core ||
		    threads < topology->min_threads_per_core)
			topology->min_threads_per_core = threads;
		if (threads > topology->max_threads_per_core)
			topology->max_threads_per_core = threads;
	}
}

/* The CPUs of @online in @allowed and, unless NULL, in @start; NULL
 * without memory. */
static struct cp_cpuset *intersect(const struct cp_cpuset *online,
				   const struct cp_cpuset *allowed,
				   const struct cp_cpuset *start)
{
	struct cp_cpuset *set = cp_cpuset_new(cp_cpuset_capacity(online));

	for (int cpu = cp_cpuset_first(online); set && cpu >= 0;
	     cpu = cp_cpuset_next(online, (unsigned int)cpu))
		if (cp_cpuset_test(allowed, (unsigned int)cpu) &&
		    (!start || cp_cpuset_test(start, (unsigned int)cpu)))
			cp_cpuset_set(set, (unsigned int)cpu);
	return set;
}

/*
 * The online CPUs the cgroup cpuset allows (hwloc's allowed set) and, when
 * the topology is this machine's, that the process started with: the
 * affinity does not describe the CPUs of an imaginary machine
 * (HWLOC_SYNTHETIC, an XML export).
 */
static int find_usable(hwloc_topology_t hwloc, struct cp_topology *topology,
		       struct cp_error *error)
{
	struct cp_cpuset *allowed, *start = NULL;
	int ret = cpuset_from_hwloc(hwloc_topology_get_allowed_cpuset(hwloc),
				    &allowed, error);

	if (ret)
		return ret;
	if (hwloc_topology_is_thissystem(hwloc))
		ret = cp_affinity_start(&start);
	if (ret)
		ret = cp_error_set(error, -ret,
				   "cannot read this process's CPU affinity");
	if (!ret)
		topology->usable = intersect(topology->cpus, allowed, start);
	if (!ret && !topology->usable)
		ret = cp_error_set(error, ENOMEM, "no memory for a CPU set");
	cp_cpuset_free(allowed);
	cp_cpuset_free(start);
	return ret;
}

static int count_units(hwloc_topology_t hwloc, struct cp_topology *topology,
		       struct cp_error *error)
{
	int ret;

	topology->nr_packages = count_objects(hwloc, HWLOC_OBJ_PACKAGE);
	topology->nr_numa_nodes = count_objects(hwloc, HWLOC_OBJ_NUMANODE);
	topology->nr_cores = count_objects(hwloc, HWLOC_OBJ_CORE);
	topology->nr_cpus = count_objects(hwloc, HWLOC_OBJ_PU);
	count_threads_per_core(hwloc, topology);
	ret = cpuset_from_hwloc(hwloc_topology_get_topology_cpuset(hwloc),
				&topology->cpus, error);
	return ret ? ret : find_usable(hwloc, topology, error);
}

/* hwloc's cache object types in the order users read them. */
static const hwloc_obj_type_t cache_object_types[] = {
	HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L1ICACHE,
	HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L2ICACHE,
	HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L3ICACHE,
	HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE,
};
#define NR_CACHE_OBJECT_TYPES \
	(sizeof(cache_object_types) / sizeof(cache_object_types[0]))

static enum cp_cache_type cache_type_of(const struct hwloc_cache_attr_s *attr)
{
	switch (attr->type) {
	case HWLOC_OBJ_CACHE_DATA:
		return CP_CACHE_DATA;
	case HWLOC_OBJ_CACHE_INSTRUCTION:
		return CP_CACHE_INSTRUCTION;
	default:
		return CP_CACHE_UNIFIED;
	}
}

static int compare_instances(const void *a, const void *b)
{
	const struct cp_cache_instance *left = a, *right = b;

	return cp_cpuset_first(left->cpus) - cp_cpuset_first(right->cpus);
}

static void describe_level(hwloc_obj_t first, struct cp_cache_level *cache)
{
	const struct hwloc_cache_attr_s *attr = &first->attr->cache;

	cache->level = attr->depth;
	cache->type = cache_type_of(attr);
	cache->line_size = attr->linesize;
	cache->associativity = attr->associativity;
}

/* Fill @cache with every object of @type; @nr_objects of them exist. */
static int collect_level(hwloc_topology_t hwloc, hwloc_obj_type_t type,
			 unsigned int nr_objects, struct cp_cache_level *cache,
			 struct cp_error *error)
{
	hwloc_obj_t obj = hwloc_get_next_obj_by_type(hwloc, type, NULL);

	describe_level(obj, cache);
	cache->instances = calloc(nr_objects, sizeof(*cache->instances));
	if (!cache->instances)
		return cp_error_set(error, ENOMEM, "no memory for caches");
	for (; obj; obj = hwloc_get_next_obj_by_type(hwloc, type, obj)) {
		struct cp_cache_instance *instance =
			&cache->instances[cache->nr_instances];
		int ret = cpuset_from_hwloc(obj->cpuset, &instance->cpus, error);

		if (ret)
			return ret;
		instance->size_bytes = obj->attr->cache.size;
		cache->nr_instances++;
	}
	qsort(cache->instances, cache->nr_instances,
	      sizeof(cache->instances[0]), compare_instances);
	return 0;
}

static int collect_caches(hwloc_topology_t hwloc, struct cp_topology *topology,
			  struct cp_error *error)
{
	topology->cache_levels = calloc(NR_CACHE_OBJECT_TYPES,
					sizeof(*topology->cache_levels));
	if (!topology->cache_levels)
		return cp_error_set(error, ENOMEM, "no memory for caches");
	for (size_t i = 0; i < NR_CACHE_OBJECT_TYPES; i++) {
		unsigned int nr_objects =
			count_objects(hwloc, cache_object_types[i]);
		struct cp_cache_level *cache;
		int ret;

		if (!nr_objects)
			continue;
		cache = &topology->cache_levels[topology->nr_cache_levels++];
		ret = collect_level(hwloc, cache_object_types[i], nr_objects,
				    cache, error);
		if (ret)
			return ret;
	}
	return 0;
}

int cp_topology_load(const struct cp_topology_source *source,
		     struct cp_topology **out, struct cp_error *error)
{
	struct cp_topology *topology = calloc(1, sizeof(*topology));
	hwloc_topology_t hwloc = NULL;
	int ret;

	cp_error_clear(error);
	if (!topology)
		return cp_error_set(error, ENOMEM, "no memory for a topology");
	ret = open_hwloc(source, &hwloc, error);
	if (ret) {
		free(topology);
		return ret;
	}
	topology->hwloc = hwloc;
	ret = count_units(hwloc, topology, error);
	if (!ret)
		ret = collect_caches(hwloc, topology, error);
	if (ret) {
		cp_topology_free(topology);
		return ret;
	}
	*out = topology;
	return 0;
}

static void free_cache_level(struct cp_cache_level *cache)
{
	for (size_t i = 0; i < cache->nr_instances; i++)
		cp_cpuset_free(cache->instances[i].cpus);
	free(cache->instances);
}

void cp_topology_free(struct cp_topology *topology)
{
	if (!topology)
		return;
	for (size_t i = 0; i < topology->nr_cache_levels; i++)
		free_cache_level(&topology->cache_levels[i]);
	free(topology->cache_levels);
	cp_cpuset_free(topology->cpus);
	cp_cpuset_free(topology->usable);
	if (topology->hwloc)
		hwloc_topology_destroy(topology->hwloc);
	free(topology);
}

const char *cp_cache_level_name(const struct cp_cache_level *cache,
				char *buf, size_t len)
{
	static const char *const suffixes[] = {
		[CP_CACHE_DATA] = "d",
		[CP_CACHE_INSTRUCTION] = "i",
		[CP_CACHE_UNIFIED] = "",
	};

	snprintf(buf, len, "L%u%s", cache->level, suffixes[cache->type]);
	return buf;
}
