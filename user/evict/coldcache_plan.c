// SPDX-License-Identifier: GPL-2.0
#include "evict/coldcache_plan.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool holds_data(const struct cp_cache_level *cache)
{
	return cache->type != CP_CACHE_INSTRUCTION;
}

const struct cp_cache_level *
cp_plan_last_level(const struct cp_topology *topology)
{
	const struct cp_cache_level *last = NULL;

	for (size_t i = 0; i < topology->nr_cache_levels; i++) {
		const struct cp_cache_level *cache = &topology->cache_levels[i];

		if (holds_data(cache) && (!last || cache->level > last->level))
			last = cache;
	}
	return last;
}

/* The outermost data cache level below @llc, or NULL: the one whose
 * instances decide which CPUs need a reader of their own. */
static const struct cp_cache_level *
outer_private_level(const struct cp_topology *topology,
		    const struct cp_cache_level *llc)
{
	const struct cp_cache_level *outer = NULL;

	for (size_t i = 0; i < topology->nr_cache_levels; i++) {
		const struct cp_cache_level *cache = &topology->cache_levels[i];

		if (holds_data(cache) && cache->level < llc->level &&
		    (!outer || cache->level > outer->level))
			outer = cache;
	}
	return outer;
}

static const struct cp_cache_instance *
instance_of(const struct cp_cache_level *cache, unsigned int cpu)
{
	for (size_t i = 0; i < cache->nr_instances; i++)
		if (cp_cpuset_test(cache->instances[i].cpus, cpu))
			return &cache->instances[i];
	return NULL;
}

/* The private caches serving @cpu: every data level below the LLC. */
static uint64_t private_bytes_of(const struct cp_topology *topology,
				 const struct cp_cache_level *llc,
				 unsigned int cpu)
{
	uint64_t bytes = 0;

	for (size_t i = 0; i < topology->nr_cache_levels; i++) {
		const struct cp_cache_level *cache = &topology->cache_levels[i];
		const struct cp_cache_instance *instance;

		if (!holds_data(cache) || cache->level >= llc->level)
			continue;
		instance = instance_of(cache, cpu);
		if (instance)
			bytes += instance->size_bytes;
	}
	return bytes;
}

/* Whether @cpu is the first selected CPU of its private-cache instance. */
static bool is_reader(const struct cp_cache_level *outer,
		      const struct cp_cpuset *selected, unsigned int cpu)
{
	const struct cp_cache_instance *instance;

	if (!outer)
		return true;
	instance = instance_of(outer, cpu);
	if (!instance)
		return true;
	for (int other = cp_cpuset_first(instance->cpus);
	     other >= 0 && (unsigned int)other < cpu;
	     other = cp_cpuset_next(instance->cpus, (unsigned int)other))
		if (cp_cpuset_test(selected, (unsigned int)other))
			return false;
	return true;
}

static uint64_t round_up(uint64_t bytes, uint64_t granule)
{
	return (bytes + granule - 1) / granule * granule;
}

/* The readers of @instance among @selected; how many were added. */
static size_t add_readers(const struct cp_topology *topology,
			  const struct cp_cache_level *llc,
			  const struct cp_cache_instance *instance,
			  const struct cp_cpuset *selected,
			  struct cp_eviction_plan *plan)
{
	const struct cp_cache_level *outer = outer_private_level(topology, llc);
	size_t added = 0;

	for (int cpu = cp_cpuset_first(instance->cpus); cpu >= 0;
	     cpu = cp_cpuset_next(instance->cpus, (unsigned int)cpu)) {
		uint64_t private_bytes;

		if (!cp_cpuset_test(selected, (unsigned int)cpu) ||
		    !is_reader(outer, selected, (unsigned int)cpu))
			continue;
		plan->readers[plan->nr_readers + added].cpu = (unsigned int)cpu;
		private_bytes = private_bytes_of(topology, llc, (unsigned int)cpu);
		if (private_bytes > plan->private_bytes)
			plan->private_bytes = private_bytes;
		added++;
	}
	return added;
}

/* Share the domain's reads among its readers, slices one after another:
 * each reader reads its slice CP_PLAN_PASSES times, so the slice is that
 * share of what it reads, and at least twice its private caches; chunks
 * are twice the private caches, or with none known a
 * CP_PLAN_CHUNKS_PER_SHARE-th of the reader's part of the last level, and
 * at most the slice. */
static void size_domain(struct cp_eviction_plan *plan,
			struct cp_plan_domain *domain)
{
	double readers = (double)domain->nr_readers;
	uint64_t reads = round_up((uint64_t)ceil(plan->factor *
						 (double)domain->llc_bytes /
						 readers),
				  CP_PLAN_PASSES * CP_PLAN_GRANULE);
	uint64_t floor = round_up(2 * plan->private_bytes, CP_PLAN_GRANULE);
	uint64_t slice = reads / CP_PLAN_PASSES;
	uint64_t chunk = floor ? floor
			       : round_up((uint64_t)((double)domain->llc_bytes /
						     readers /
						     CP_PLAN_CHUNKS_PER_SHARE),
					  CP_PLAN_GRANULE);

	if (slice < floor)
		slice = floor;
	if (chunk > slice)
		chunk = slice;
	for (size_t i = 0; i < domain->nr_readers; i++) {
		struct cp_plan_reader *reader =
			&plan->readers[domain->first_reader + i];

		reader->offset = plan->total_bytes;
		reader->bytes = slice;
		reader->chunk_bytes = chunk;
		plan->total_bytes += slice;
	}
	domain->bytes = slice * CP_PLAN_PASSES * domain->nr_readers;
}

static int check_input(const struct cp_topology *topology, double factor,
		       const struct cp_cache_level **llc,
		       struct cp_error *error)
{
	if (!(factor > 0) || !isfinite(factor))
		return cp_error_set(error, EINVAL,
				    "the garbage factor must be above 0");
	*llc = cp_plan_last_level(topology);
	if (!*llc || !(*llc)->nr_instances)
		return cp_error_set(error, EINVAL,
				    "the topology shows no data cache to plan an eviction for");
	return 0;
}

static int allocate(struct cp_eviction_plan *plan,
		    const struct cp_cache_level *llc, unsigned int nr_cpus,
		    struct cp_error *error)
{
	plan->domains = calloc(llc->nr_instances, sizeof(*plan->domains));
	plan->readers = calloc(nr_cpus ? nr_cpus : 1, sizeof(*plan->readers));
	if (!plan->domains || !plan->readers) {
		cp_plan_free(plan);
		return cp_error_set(error, ENOMEM, "no memory for an eviction plan");
	}
	return 0;
}

int cp_plan_eviction(const struct cp_topology *topology,
		     const struct cp_cpuset *cpus, double factor,
		     uint64_t llc_bytes, struct cp_eviction_plan *out,
		     struct cp_error *error)
{
	const struct cp_cpuset *selected = cpus ? cpus : topology->usable;
	const struct cp_cache_level *llc = NULL;
	int ret = check_input(topology, factor, &llc, error);

	memset(out, 0, sizeof(*out));
	if (ret)
		return ret;
	out->factor = factor;
	ret = allocate(out, llc, cp_cpuset_capacity(topology->cpus), error);
	if (ret)
		return ret;
	for (size_t i = 0; i < llc->nr_instances; i++) {
		struct cp_plan_domain *domain = &out->domains[out->nr_domains];
		size_t added = add_readers(topology, llc, &llc->instances[i],
					   selected, out);

		if (!added)
			continue;
		domain->llc_bytes = llc_bytes ? llc_bytes
					      : llc->instances[i].size_bytes;
		domain->first_reader = out->nr_readers;
		domain->nr_readers = added;
		out->nr_readers += added;
		out->nr_domains++;
	}
	if (!out->nr_readers) {
		cp_plan_free(out);
		return cp_error_set(error, EINVAL,
				    "no selected CPU is served by a last-level cache");
	}
	/* Sizes once every reader is known: the private floor is the
	 * largest over all of them. */
	for (size_t i = 0; i < out->nr_domains; i++)
		size_domain(out, &out->domains[i]);
	out->read_bytes = out->total_bytes * CP_PLAN_PASSES;
	out->naive_bytes = CP_NAIVE_GARBAGE_BYTES * cp_cpuset_count(selected);
	return 0;
}

void cp_plan_free(struct cp_eviction_plan *plan)
{
	free(plan->domains);
	free(plan->readers);
	plan->domains = NULL;
	plan->readers = NULL;
	plan->nr_domains = plan->nr_readers = 0;
}
