// SPDX-License-Identifier: GPL-2.0
/*
 * What the xcore area measures: the pairs (one per pair class among the
 * chosen CPUs, or the pairs --pairs names), then the same-CPU baseline on
 * the first pair's producer and the from-memory baseline on its consumer;
 * block sizes from 8 KiB (or --min-size) by powers of two to --max-size
 * (default: areas/xcore/xcore_block.h, cp_xcore_default_max).
 */
#include "areas/xcore/xcore_area.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "machine/cpu_select.h"
#include "util/name_bytes.h"

static unsigned int line_size_of(const struct cp_topology *topology)
{
	for (size_t i = 0; i < topology->nr_cache_levels; i++)
		if (topology->cache_levels[i].level == 1 &&
		    topology->cache_levels[i].line_size)
			return topology->cache_levels[i].line_size;
	return 64;
}

static int plan_pairs(const struct cp_area_options *options,
		      const struct cp_topology *topology,
		      struct xcore_plan *plan, char *why, size_t why_len)
{
	const struct cp_xcore_choices *choices =
		cp_area_choices(options, &cp_area_xcore);
	const char *text = choices && choices->pairs ? choices->pairs
						     : "classes";
	struct cp_cpu_pair pairs[XCORE_MAX_PAIRS];
	size_t n;

	if (strcmp(text, "classes") == 0 && options->cpus) {
		n = cp_pair_representatives(topology, options->cpus, pairs);
		if (!n) {
			snprintf(why, why_len,
				 "--cpus selects one CPU; a transfer needs two");
			return -EINVAL;
		}
	} else if (cp_pair_select(topology, text, pairs, XCORE_MAX_PAIRS, &n,
				  why, why_len)) {
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		plan->targets[plan->nr_targets++] = (struct xcore_target){
			.kind = XCORE_PAIR, .producer = pairs[i].first,
			.consumer = pairs[i].second,
			.pair_class = pairs[i].pair_class,
		};
	plan->targets[plan->nr_targets++] = (struct xcore_target){
		.kind = XCORE_SAME_CPU, .producer = pairs[0].first,
		.consumer = pairs[0].first, .pair_class = CP_PAIR_INVALID,
	};
	plan->targets[plan->nr_targets++] = (struct xcore_target){
		.kind = XCORE_MEMORY, .producer = pairs[0].second,
		.consumer = pairs[0].second, .pair_class = CP_PAIR_INVALID,
	};
	return 0;
}

static int plan_sizes(const struct cp_area_options *options,
		      const struct cp_topology *topology,
		      struct xcore_plan *plan, char *why, size_t why_len)
{
	uint64_t min = options->min_size_bytes ? options->min_size_bytes
					       : CP_XCORE_MIN_BLOCK;
	uint64_t max = options->max_size_bytes;

	if (options->min_size_bytes &&
	    cp_xcore_check_block(min, CP_XCORE_MAX_BLOCK, why, why_len))
		return -EINVAL;
	if (max && cp_xcore_check_block(max, CP_XCORE_MAX_BLOCK, why, why_len))
		return -EINVAL;
	if (!max)
		max = cp_xcore_default_max(topology, plan->targets[0].producer);
	if (max < min)
		max = min;
	plan->nr_sizes = cp_xcore_block_sizes(min, max, plan->sizes);
	if (!plan->nr_sizes) {
		snprintf(why, why_len, "no block size from %" PRIu64
			 " to %" PRIu64 " bytes", min, max);
		return -EINVAL;
	}
	return 0;
}

int xcore_plan(const struct cp_area_options *options,
	       const struct cp_topology *topology, struct xcore_plan *plan,
	       char *why, size_t why_len)
{
	const struct cp_xcore_choices *choices =
		cp_area_choices(options, &cp_area_xcore);

	memset(plan, 0, sizeof(*plan));
	plan->line_size = line_size_of(topology);
	plan->delay = choices ? choices->delay : 0;
	if (plan_pairs(options, topology, plan, why, why_len))
		return -EINVAL;
	return plan_sizes(options, topology, plan, why, why_len);
}

void xcore_config_name(const struct xcore_config *config, char *out,
		       size_t len)
{
	const struct xcore_target *t = config->target;
	char size[24], delay[24] = "";

	cp_name_bytes(config->size, size, sizeof(size));
	if (config->delay)
		snprintf(delay, sizeof(delay), " delay %u", config->delay);
	if (t->kind == XCORE_MEMORY)
		snprintf(out, len, "memory cpu %u %s%s", t->consumer, size,
			 delay);
	else
		snprintf(out, len, "%s %s %u>%u %s%s",
			 cp_xcore_touch_name(config->touch),
			 t->kind == XCORE_SAME_CPU
				 ? "same-cpu"
				 : cp_pair_class_name(t->pair_class),
			 t->producer, t->consumer, size, delay);
}

/* Which of the producer's caches the block fits, e.g. "fits L2 (2 MiB)". */
static void name_fit(const struct cp_topology *topology, unsigned int cpu,
		     uint64_t size, char *out, size_t len)
{
	char level[16], bytes[16];
	uint64_t largest = 0;

	out[0] = '\0';
	for (size_t i = 0; i < topology->nr_cache_levels; i++) {
		const struct cp_cache_level *cache = &topology->cache_levels[i];

		if (cache->type == CP_CACHE_INSTRUCTION)
			continue;
		for (size_t k = 0; k < cache->nr_instances; k++) {
			uint64_t bytes_here = cache->instances[k].size_bytes;

			if (!cp_cpuset_test(cache->instances[k].cpus, cpu))
				continue;
			cp_cache_level_name(cache, level, sizeof(level));
			cp_name_bytes(bytes_here, bytes, sizeof(bytes));
			if (size <= bytes_here) {
				snprintf(out, len, "fits %s (%s)", level, bytes);
				return;
			}
			if (bytes_here > largest) {
				largest = bytes_here;
				snprintf(out, len, "exceeds %s (%s)", level,
					 bytes);
			}
		}
	}
}

void xcore_describe(struct cp_measurement *m, const struct xcore_config *config,
		    const struct cp_topology *topology, const char *mode)
{
	const struct xcore_target *t = config->target;

	snprintf(m->area, sizeof(m->area), "xcore");
	snprintf(m->mode, sizeof(m->mode), "%s", mode);
	xcore_config_name(config, m->name, sizeof(m->name));
	name_fit(topology, t->producer, config->size, m->note, sizeof(m->note));
	cp_measurement_add_param(m, "size_bytes", (int64_t)config->size);
	cp_measurement_add_param(m, "producer", t->kind == XCORE_MEMORY
							? -1 : (int64_t)t->producer);
	cp_measurement_add_param(m, "consumer", t->consumer);
	cp_measurement_add_param(m, "modify",
				 config->touch == CP_XCORE_TOUCH_MODIFY);
	cp_measurement_add_param(m, "delay", config->delay);
	cp_measurement_add_param(m, "pair_class", t->pair_class);
}
