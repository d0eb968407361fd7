// SPDX-License-Identifier: GPL-2.0
#include "machine/cpu_select.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hwloc.h>
#include <linux/cacheprobe.h>

#include "machine/usable_cpus.h"

struct selection {
	const struct cp_topology *topology;
	bool allow_duplicates;
	struct cp_cpuset *set;
	/* The CPUs named by number: only those can be named twice; what a
	 * pick or 'all' brings again (per-core,per-l3) is merged. */
	struct cp_cpuset *named;
	char *why;
	size_t why_len;
};

static int reject(struct selection *selection, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int reject(struct selection *selection, const char *fmt, ...)
{
	va_list args;

	if (selection->why_len) {
		va_start(args, fmt);
		vsnprintf(selection->why, selection->why_len, fmt, args);
		va_end(args);
	}
	return -EINVAL;
}

/* Why @cpu cannot be used: not allowed to this process, offline, or not a
 * CPU of this machine. */
static int reject_cpu(struct selection *selection, unsigned int cpu)
{
	hwloc_const_cpuset_t complete =
		hwloc_topology_get_complete_cpuset(selection->topology->hwloc);
	char *online;
	int ret;

	if (cp_usable_excludes(selection->topology, cpu))
		return cp_usable_refuse(selection->topology, cpu,
					selection->why, selection->why_len);
	online = cp_cpuset_format_alloc(selection->topology->cpus);
	ret = reject(selection, "CPU %u %s (online CPUs: %s)", cpu,
		     hwloc_bitmap_isset(complete, cpu) ? "is offline"
						       : "does not exist",
		     online ? online : "?");
	free(online);
	return ret;
}

static int add_cpu(struct selection *selection, unsigned int cpu,
		   bool named)
{
	if (!cp_cpuset_test(selection->topology->usable, cpu))
		return reject_cpu(selection, cpu);
	if (named && cp_cpuset_test(selection->named, cpu) &&
	    !selection->allow_duplicates)
		return reject(selection, "CPU %u is selected twice", cpu);
	if (named)
		cp_cpuset_set(selection->named, cpu);
	cp_cpuset_set(selection->set, cpu);
	return 0;
}

static const struct {
	const char *name;
	hwloc_obj_type_t type;
	const char *what;
} picks[] = {
	{ "per-core", HWLOC_OBJ_CORE, "cores" },
	{ "per-l2", HWLOC_OBJ_L2CACHE, "L2 caches" },
	{ "per-l3", HWLOC_OBJ_L3CACHE, "L3 caches" },
	{ "per-package", HWLOC_OBJ_PACKAGE, "packages" },
	{ "per-numa", HWLOC_OBJ_NUMANODE, "NUMA nodes" },
};

/* The lowest usable CPU of @cpus, or -1. */
static int first_usable(const struct cp_topology *topology,
			hwloc_const_cpuset_t cpus)
{
	unsigned int cpu;

	hwloc_bitmap_foreach_begin(cpu, cpus)
		if (cp_cpuset_test(topology->usable, cpu))
			return (int)cpu;
	hwloc_bitmap_foreach_end();
	return -1;
}

static int add_pick(struct selection *selection, size_t index)
{
	hwloc_topology_t hwloc = selection->topology->hwloc;
	hwloc_obj_t obj = NULL;
	bool any = false;
	int ret = 0;

	while (!ret && (obj = hwloc_get_next_obj_by_type(hwloc,
							  picks[index].type,
							  obj))) {
		int first = first_usable(selection->topology, obj->cpuset);

		if (first < 0)
			continue;	/* CPU-less, or none of them usable */
		ret = add_cpu(selection, (unsigned int)first, false);
		any = true;
	}
	if (!ret && !any)
		return reject(selection,
			      "'%s': the topology shows no %s to pick from",
			      picks[index].name, picks[index].what);
	return ret;
}

static int add_all(struct selection *selection)
{
	const struct cp_cpuset *all = selection->topology->usable;
	int ret = 0;

	for (int cpu = cp_cpuset_first(all); cpu >= 0 && !ret;
	     cpu = cp_cpuset_next(all, (unsigned int)cpu))
		ret = add_cpu(selection, (unsigned int)cpu, false);
	return ret;
}

/* "N" or "N-M" in @item (not NUL-terminated, @len long). */
static int add_range(struct selection *selection, const char *item,
		     size_t len)
{
	unsigned long first, last;
	char text[32], *end;
	int ret = 0;

	if (len >= sizeof(text))
		return reject(selection, "'%.*s' is not a CPU, range or pick",
			      (int)len, item);
	memcpy(text, item, len);
	text[len] = '\0';
	first = strtoul(text, &end, 10);
	last = first;
	if (end != text && *end == '-' && isdigit((unsigned char)end[1]))
		last = strtoul(end + 1, &end, 10);
	if (!isdigit((unsigned char)text[0]) || *end)
		return reject(selection,
			      "'%s' is not a CPU, range or pick (all, per-core, per-l2, per-l3, per-package, per-numa)",
			      text);
	if (last < first)
		return reject(selection, "range %s is reversed", text);
	if (last >= CACHEPROBE_MAX_CPUS)
		return reject(selection, "CPU %lu is beyond the limit of %d",
			      last, CACHEPROBE_MAX_CPUS - 1);
	for (unsigned long cpu = first; cpu <= last && !ret; cpu++)
		ret = add_cpu(selection, (unsigned int)cpu, true);
	return ret;
}

static int add_item(struct selection *selection, const char *item, size_t len)
{
	if (len == 0)
		return reject(selection, "empty item in the CPU selection");
	if (len == 3 && strncmp(item, "all", 3) == 0)
		return add_all(selection);
	for (size_t i = 0; i < sizeof(picks) / sizeof(picks[0]); i++)
		if (strlen(picks[i].name) == len &&
		    strncmp(item, picks[i].name, len) == 0)
			return add_pick(selection, i);
	return add_range(selection, item, len);
}

int cp_cpu_select(const struct cp_topology *topology, const char *text,
		  bool allow_duplicates, struct cp_cpuset **out, char *why,
		  size_t why_len)
{
	struct selection selection = {
		.topology = topology, .allow_duplicates = allow_duplicates,
		.why = why, .why_len = why_len,
	};
	const char *item = text;
	int ret = 0;

	if (why_len)
		why[0] = '\0';
	if (*text == '\0')
		return reject(&selection, "empty CPU selection");
	selection.set = cp_cpuset_new(CACHEPROBE_MAX_CPUS);
	selection.named = cp_cpuset_new(CACHEPROBE_MAX_CPUS);
	if (!selection.set || !selection.named) {
		cp_cpuset_free(selection.set);
		cp_cpuset_free(selection.named);
		return -ENOMEM;
	}
	for (;;) {
		size_t len = strcspn(item, ",");

		ret = add_item(&selection, item, len);
		if (ret || item[len] == '\0')
			break;
		item += len + 1;
	}
	cp_cpuset_free(selection.named);
	if (ret) {
		cp_cpuset_free(selection.set);
		return ret;
	}
	*out = selection.set;
	return 0;
}

/* 0 when both CPUs of @pair (written @text) are usable. */
static int refuse_unusable(const struct cp_topology *topology,
			   const char *text, const struct cp_cpu_pair *pair,
			   char *why, size_t why_len)
{
	unsigned int cpu = cp_usable_excludes(topology, pair->first)
				   ? pair->first : pair->second;
	int used;

	if (!cp_usable_excludes(topology, cpu))
		return 0;
	used = snprintf(why, why_len, "pair %s: ", text);
	if (used < 0 || (size_t)used >= why_len)
		return -EINVAL;
	return cp_usable_refuse(topology, cpu, why + used,
				why_len - (size_t)used);
}

static int parse_pair(const struct cp_topology *topology, const char *item,
		      size_t len, struct cp_cpu_pair *pair, char *why,
		      size_t why_len)
{
	unsigned int a, b;
	int consumed = 0;
	char text[48];

	snprintf(text, sizeof(text), "%.*s", (int)len, item);
	if (sscanf(text, "%u:%u%n", &a, &b, &consumed) != 2 ||
	    (size_t)consumed != strlen(text) || !isdigit((unsigned char)text[0])) {
		snprintf(why, why_len,
			 "'%s' is not a pair A:B (or write 'classes')", text);
		return -EINVAL;
	}
	pair->first = a;
	pair->second = b;
	pair->pair_class = cp_pair_class_of(topology, a, b);
	if (pair->pair_class != CP_PAIR_INVALID)
		return refuse_unusable(topology, text, pair, why, why_len);
	if (a == b)
		snprintf(why, why_len, "pair %s names CPU %u twice", text, a);
	else
		snprintf(why, why_len, "pair %s: CPU %u is not online", text,
			 cp_cpuset_test(topology->cpus, a) ? b : a);
	return -EINVAL;
}

/* Whether @pair is among the @n before it.  A:B and B:A differ: the first
 * CPU has its own role (producer, initiator) and the name says which. */
static bool pair_listed(const struct cp_cpu_pair *pairs, size_t n,
			const struct cp_cpu_pair *pair)
{
	for (size_t i = 0; i < n; i++)
		if (pairs[i].first == pair->first &&
		    pairs[i].second == pair->second)
			return true;
	return false;
}

int cp_pair_select(const struct cp_topology *topology, const char *text,
		   struct cp_cpu_pair *pairs, size_t max, size_t *nr_pairs,
		   char *why, size_t why_len)
{
	const char *item = text;

	*nr_pairs = 0;
	if (strcmp(text, "classes") == 0) {
		struct cp_cpu_pair all[CP_NR_PAIR_CLASSES];
		size_t found = cp_pair_representatives(topology, NULL, all);

		if (!found) {
			snprintf(why, why_len,
				 "no pair of CPUs: the machine has one CPU");
			return -EINVAL;
		}
		for (size_t i = 0; i < found && i < max; i++)
			pairs[(*nr_pairs)++] = all[i];
		return 0;
	}
	for (;;) {
		size_t len = strcspn(item, ",");

		if (*nr_pairs == max) {
			snprintf(why, why_len, "more than %zu pairs", max);
			return -EINVAL;
		}
		if (parse_pair(topology, item, len, &pairs[*nr_pairs], why,
			       why_len))
			return -EINVAL;
		if (pair_listed(pairs, *nr_pairs, &pairs[*nr_pairs])) {
			snprintf(why, why_len, "pair %u:%u is listed twice",
				 pairs[*nr_pairs].first,
				 pairs[*nr_pairs].second);
			return -EINVAL;
		}
		(*nr_pairs)++;
		if (item[len] == '\0')
			return 0;
		item += len + 1;
	}
}
