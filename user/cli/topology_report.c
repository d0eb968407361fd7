// SPDX-License-Identifier: GPL-2.0
#include "cli/topology_report.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/format.h"
#include "machine/cpu_pairs.h"
#include "machine/usable_cpus.h"

static const char *plural(unsigned long count)
{
	return count == 1 ? "" : "s";
}

/* @min..@max as "N" or "N-M". */
static void print_span(FILE *out, unsigned long min, unsigned long max)
{
	if (min == max)
		fprintf(out, "%lu", min);
	else
		fprintf(out, "%lu-%lu", min, max);
}

static int print_cpus_line(FILE *out, const struct cp_topology *topology)
{
	char *list = cp_cpuset_format_alloc(topology->cpus);

	if (!list)
		return -ENOMEM;
	fprintf(out, "  cpus: %u (%s)", topology->nr_cpus, list);
	if (topology->nr_cores) {
		fprintf(out, ", ");
		print_span(out, topology->min_threads_per_core,
			   topology->max_threads_per_core);
		fprintf(out, " thread%s per core",
			plural(topology->max_threads_per_core));
	}
	fprintf(out, "\n");
	free(list);
	return 0;
}

static void print_cache_size(FILE *out, const struct cp_cache_level *cache)
{
	uint64_t min = UINT64_MAX, max = 0;
	char min_text[32], max_text[32];

	for (size_t i = 0; i < cache->nr_instances; i++) {
		uint64_t size = cache->instances[i].size_bytes;

		min = size < min ? size : min;
		max = size > max ? size : max;
	}
	cp_format_size(min, min_text, sizeof(min_text));
	cp_format_size(max, max_text, sizeof(max_text));
	if (min == max)
		fprintf(out, "%s", min_text);
	else
		fprintf(out, "%s-%s", min_text, max_text);
}

static void print_cache_geometry(FILE *out, const struct cp_cache_level *cache)
{
	if (cache->line_size)
		fprintf(out, ", %u-byte lines", cache->line_size);
	else
		fprintf(out, ", line size unknown");
	if (cache->associativity > 0)
		fprintf(out, ", %d-way", cache->associativity);
	else if (cache->associativity < 0)
		fprintf(out, ", fully associative");
}

static void print_sharing(FILE *out, const struct cp_cache_level *cache)
{
	unsigned int min = UINT32_MAX, max = 0;

	for (size_t i = 0; i < cache->nr_instances; i++) {
		unsigned int count = cp_cpuset_count(cache->instances[i].cpus);

		min = count < min ? count : min;
		max = count > max ? count : max;
	}
	fprintf(out, ", %zu instance%s of ", cache->nr_instances,
		plural(cache->nr_instances));
	print_span(out, min, max);
	fprintf(out, " cpu%s", plural(max));
}

static int print_instances(FILE *out, const struct cp_cache_level *cache)
{
	for (size_t i = 0; i < cache->nr_instances; i++) {
		char *list = cp_cpuset_format_alloc(cache->instances[i].cpus);

		if (!list)
			return -ENOMEM;
		fprintf(out, "%s%s", i ? " | " : ": ", list);
		free(list);
	}
	return 0;
}

static int print_cache_level(FILE *out, const struct cp_cache_level *cache)
{
	char name[16];
	int ret;

	fprintf(out, "  %s: ", cp_cache_level_name(cache, name, sizeof(name)));
	print_cache_size(out, cache);
	print_cache_geometry(out, cache);
	print_sharing(out, cache);
	ret = print_instances(out, cache);
	fprintf(out, "\n");
	return ret;
}

/* One representative pair per class: what two-CPU experiments can see on
 * this machine; a process held to some CPUs may use fewer, which the
 * "allowed cpus" line names. */
static void print_pair_classes(FILE *out, const struct cp_topology *topology)
{
	struct cp_cpu_pair pairs[CP_NR_PAIR_CLASSES];
	size_t count = cp_pair_representatives(topology, topology->cpus, pairs);

	fprintf(out, "  cpu pair classes:");
	if (!count)
		fprintf(out, " none (one cpu)");
	for (size_t i = 0; i < count; i++)
		fprintf(out, "%s %s %u:%u", i ? "," : "",
			cp_pair_class_name(pairs[i].pair_class), pairs[i].first,
			pairs[i].second);
	fprintf(out, "\n");
}

/* Only for a process held to some CPUs: the others are the machine's. */
static int print_allowed_line(FILE *out, const struct cp_topology *topology)
{
	char *list;

	if (!cp_usable_restriction(topology))
		return 0;
	list = cp_cpuset_format_alloc(topology->usable);
	if (!list)
		return -ENOMEM;
	fprintf(out,
		"  allowed cpus: %u (%s), this process's taskset/cpuset; runs use only these\n",
		cp_cpuset_count(topology->usable), list);
	free(list);
	return 0;
}

int cli_print_topology(FILE *out, const struct cp_topology *topology)
{
	int ret;

	fprintf(out, "topology:\n");
	fprintf(out, "  packages: %u\n", topology->nr_packages);
	fprintf(out, "  numa nodes: %u\n", topology->nr_numa_nodes);
	fprintf(out, "  cores: %u\n", topology->nr_cores);
	ret = print_cpus_line(out, topology);
	if (!ret)
		ret = print_allowed_line(out, topology);
	for (size_t i = 0; !ret && i < topology->nr_cache_levels; i++)
		ret = print_cache_level(out, &topology->cache_levels[i]);
	if (!ret)
		print_pair_classes(out, topology);
	return ret;
}
