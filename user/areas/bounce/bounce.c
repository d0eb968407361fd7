// SPDX-License-Identifier: GPL-2.0
/*
 * The bounce area: what cache-line bouncing (false sharing) costs.
 * Threads pinned to the CPUs of a group (areas/bounce/bounce_groups.h) each
 * increment their own counter, the counters d bytes apart
 * (areas/bounce/bounce_layout.h), d swept over --distances; plain and atomic
 * increments of 4- and 8-byte counters.  Baselines: one thread alone on
 * the group's first CPU, and the counters padded BOUNCE_PADDED_LINES lines
 * apart (added to the sweep when not in it).  Derived per sweep: slowdowns
 * and the coherence granularity; per group, the classic case (two 4-byte
 * counters side by side against one line apart, plain increments).
 */
#include "areas/bounce/bounce_area.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "areas/bounce/bounce_table.h"
#include "harness/interrupt.h"
#include "harness/turns.h"
#include "harness/rounds.h"

struct bounce_plan {
	struct cp_bounce_choices choices;
	struct cp_bounce_group groups[CP_NR_PAIR_CLASSES];
	size_t nr_groups;
	unsigned int line_size;
	uint32_t padded_distance;
	double total, done;		/* progress, in measurements */
};

static unsigned int line_size_of(const struct cp_topology *topology)
{
	for (size_t i = 0; i < topology->nr_cache_levels; i++)
		if (topology->cache_levels[i].level == 1 &&
		    topology->cache_levels[i].line_size)
			return topology->cache_levels[i].line_size;
	return BOUNCE_DEFAULT_LINE;
}

/* Choices completed and groups planned; -EINVAL with @why on bad input. */
static int plan_bounce(const struct cp_area_options *options,
		       const struct cp_topology *topology,
		       struct bounce_plan *plan, char *why, size_t why_len)
{
	const struct cp_bounce_choices *choices =
		cp_area_choices(options, &cp_area_bounce);
	int ret;

	memset(plan, 0, sizeof(*plan));
	if (choices)
		plan->choices = *choices;
	ret = cp_bounce_choices_complete(&plan->choices, why, why_len);
	if (ret)
		return ret;
	plan->line_size = line_size_of(topology);
	plan->padded_distance = BOUNCE_PADDED_LINES * plan->line_size;
	return cp_bounce_plan_groups(topology, options->cpus,
				     plan->choices.threads, plan->groups,
				     &plan->nr_groups, why, why_len);
}

static int check_bounce(const struct cp_area_options *options,
			const struct cp_topology *topology,
			struct cp_error *error)
{
	struct bounce_plan plan;
	char why[160];

	if (plan_bounce(options, topology, &plan, why, sizeof(why)))
		return cp_error_set(error, EINVAL, "bounce: %s", why);
	return 0;
}

/* The distances of one sweep for @width: the chosen ones that fit it, and
 * the padded distance when missing (it is the baseline). */
static size_t sweep_distances(const struct bounce_plan *plan,
			      unsigned int width, uint32_t *out)
{
	size_t n = 0;
	bool padded = false;

	for (size_t i = 0; i < plan->choices.nr_distances; i++) {
		uint32_t d = plan->choices.distances[i];

		if (!cp_bounce_distance_fits(d, width))
			continue;
		padded |= d == plan->padded_distance;
		out[n++] = d;
	}
	if (!padded)
		out[n++] = plan->padded_distance;
	return n;
}

/* One configuration in kernel mode (user mode interleaves its sweeps:
 * measure_interleaved). */
static int measure_one(struct cp_area_context *context,
		       struct bounce_plan *plan,
		       const struct bounce_config *config, size_t *index,
		       struct cp_error *error)
{
	char what[64];
	int ret;

	bounce_config_name(config, what, sizeof(what));
	snprintf(what + strlen(what), sizeof(what) - strlen(what),
		 " (kernel)");
	if (context->progress)
		context->progress(context->progress_data, what, plan->done,
				  plan->total);
	ret = bounce_measure_kernel(context, config->kernel, config, index,
				    error);
	plan->done++;
	return ret;
}

/* Measurements of one alone baseline, shared by the groups that start on
 * the same CPU. */
struct alone_cache {
	size_t nr;
	struct {
		unsigned int cpu, width;
		enum cp_bounce_op op;
		size_t index;
	} entries[CP_NR_PAIR_CLASSES * 2 * CP_BOUNCE_NR_OPS];
};

/* Whether another group's alone baseline serves @sweep: its index into
 * *@index, counted as done. */
static bool alone_cached(struct bounce_plan *plan,
			 const struct alone_cache *cache,
			 const struct bounce_config *sweep, size_t *index)
{
	for (size_t i = 0; i < cache->nr; i++) {
		if (cache->entries[i].cpu == sweep->group->cpus[0] &&
		    cache->entries[i].width == sweep->width &&
		    cache->entries[i].op == sweep->op) {
			*index = cache->entries[i].index;
			plan->done++;
			return true;
		}
	}
	return false;
}

static void alone_keep(struct alone_cache *cache,
		       const struct bounce_config *sweep, size_t index)
{
	cache->entries[cache->nr].cpu = sweep->group->cpus[0];
	cache->entries[cache->nr].width = sweep->width;
	cache->entries[cache->nr].op = sweep->op;
	cache->entries[cache->nr].index = index;
	cache->nr++;
}

static struct cp_measurement *at(struct cp_area_context *context,
				 size_t index)
{
	return index == SIZE_MAX ? NULL
				 : &context->results->measurements[index];
}

/* Slowdowns, granularity and (for plain 4-byte counters) the classic case
 * from what the sweep measured. */
static void derive(struct cp_area_context *context,
		   const struct bounce_plan *plan,
		   const struct bounce_config *sweep, const uint32_t *distances,
		   const size_t *indexes, size_t measured, size_t alone)
{
	struct cp_measurement *by_distance[CP_BOUNCE_MAX_DISTANCES + 1];
	const struct cp_measurement *padded = NULL;
	struct cp_measurement *adjacent = NULL;
	const struct cp_measurement *one_line = NULL;

	for (size_t i = 0; i < measured; i++) {
		by_distance[i] = at(context, indexes[i]);
		if (distances[i] == plan->padded_distance)
			padded = by_distance[i];
		if (distances[i] == 4)
			adjacent = by_distance[i];
		if (distances[i] == plan->line_size)
			one_line = by_distance[i];
	}
	bounce_derive_sweep(by_distance, distances, measured, padded,
			    at(context, alone));
	if (sweep->op != CP_BOUNCE_PLAIN || sweep->width != 4 || !adjacent)
		return;
	bounce_note_classic(adjacent, one_line, plan->line_size);
	if (!sweep->kernel && one_line && padded && adjacent->count &&
	    one_line->count && padded->count)
		bounce_classic_side_by_side(context, sweep, adjacent, one_line,
					    padded, plan->line_size);
}

/*
 * User mode: the rounds of @n configurations interleaved, each round in
 * an order drawn from --seed and the round, so that a slow moment of the
 * machine, or the host moving a vCPU, spreads over all of them instead of
 * biasing one, and the slowdowns (ratios within the sweep) compare rounds
 * taken side by side.  What each measured is recorded at *@indexes[i], in
 * the configurations' order; on an error (not an interruption) nothing.
 */
static int measure_interleaved(struct cp_area_context *context,
			       struct bounce_plan *plan,
			       const struct bounce_config *configs, size_t n,
			       size_t *const *indexes, struct cp_error *error)
{
	struct bounce_measuring *m[CP_BOUNCE_MAX_DISTANCES + 2] = { 0 };
	size_t order[CP_BOUNCE_MAX_DISTANCES + 2];
	unsigned int rounds = 0;
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		ret = bounce_measure_start(context, &configs[i], &m[i]);
		if (!ret && bounce_measure_rounds(m[i]) > rounds)
			rounds = bounce_measure_rounds(m[i]);
	}
	if (ret)
		ret = cp_error_set(error, -ret, "bounce: no memory");
	for (unsigned int r = 0; r < rounds && !ret; r++) {
		if (r && (ret = cp_turn_pass()))
			break;
		cp_rounds_order_in(order, n, context->options->seed, r);
		for (size_t k = 0; k < n && !ret; k++) {
			char what[64];

			bounce_config_name(&configs[order[k]], what,
					   sizeof(what));
			if (context->progress)
				context->progress(context->progress_data, what,
						  plan->done, plan->total);
			ret = bounce_measure_round(context, m[order[k]],
						   error);
			plan->done += 1.0 / rounds;
		}
	}
	for (size_t i = 0; i < n; i++) {
		int kept = 0;

		if (!ret || ret == -EINTR)
			kept = bounce_measure_finish(context, m[i],
						     indexes[i], error);
		else
			bounce_measure_drop(m[i]);
		if (kept && (!ret || ret == -EINTR))
			ret = kept;
	}
	return ret;
}

/* A user-mode sweep: its alone baseline (unless another group's serves)
 * and its distances, their rounds interleaved. */
static int run_user_sweep(struct cp_area_context *context,
			  struct bounce_plan *plan, struct alone_cache *cache,
			  const struct bounce_config *sweep,
			  const uint32_t *distances, size_t n, size_t *indexes,
			  size_t *alone, struct cp_error *error)
{
	struct bounce_config configs[CP_BOUNCE_MAX_DISTANCES + 2];
	size_t *where[CP_BOUNCE_MAX_DISTANCES + 2];
	size_t nr = 0;
	int ret;

	if (!alone_cached(plan, cache, sweep, alone)) {
		configs[nr] = *sweep;
		configs[nr].alone = true;
		configs[nr].distance = 0;
		where[nr++] = alone;
	}
	for (size_t i = 0; i < n; i++) {
		configs[nr] = *sweep;
		configs[nr].distance = distances[i];
		indexes[i] = SIZE_MAX;
		where[nr++] = &indexes[i];
	}
	ret = measure_interleaved(context, plan, configs, nr, where, error);
	if (*alone != SIZE_MAX && nr > n)
		alone_keep(cache, sweep, *alone);
	return ret;
}

static int run_sweep(struct cp_area_context *context,
		     struct bounce_plan *plan, struct alone_cache *cache,
		     const struct bounce_config *sweep, struct cp_error *error)
{
	uint32_t distances[CP_BOUNCE_MAX_DISTANCES + 1];
	size_t indexes[CP_BOUNCE_MAX_DISTANCES + 1];
	size_t n = sweep_distances(plan, sweep->width, distances);
	size_t alone = SIZE_MAX, measured = 0;
	int ret = 0;

	if (!sweep->kernel) {
		ret = run_user_sweep(context, plan, cache, sweep, distances, n,
				     indexes, &alone, error);
		/* The distances that got a measurement: an interruption in
		 * the first round leaves those later in its order without. */
		for (size_t i = 0; i < n; i++)
			if (indexes[i] != SIZE_MAX) {
				distances[measured] = distances[i];
				indexes[measured++] = indexes[i];
			}
	}
	for (size_t i = 0; sweep->kernel && i < n && !ret; i++) {
		struct bounce_config config = *sweep;

		config.distance = distances[i];
		ret = measure_one(context, plan, &config, &indexes[i], error);
		if (!ret)
			measured++;
	}
	if (ret && ret != -EINTR)
		return ret;
	derive(context, plan, sweep, distances, indexes, measured, alone);
	return ret ? ret : cp_interrupt_requested() ? -EINTR : 0;
}

static int run_group(struct cp_area_context *context,
		     struct bounce_plan *plan, struct alone_cache *cache,
		     const struct cp_bounce_group *group,
		     const struct bounce_kernel *kernel, struct cp_error *error)
{
	const struct cp_bounce_choices *choices = &plan->choices;
	int ret = 0;

	for (size_t w = 0; w < choices->nr_widths && !ret; w++)
		for (size_t o = 0; o < choices->nr_ops && !ret; o++) {
			struct bounce_config sweep = {
				.group = group, .kernel = kernel,
				.op = choices->ops[o],
				.width = choices->widths[w],
			};

			ret = run_sweep(context, plan, cache, &sweep, error);
		}
	return ret;
}

static void count_work(struct bounce_plan *plan, unsigned int modes)
{
	uint32_t distances[CP_BOUNCE_MAX_DISTANCES + 1];

	for (size_t w = 0; w < plan->choices.nr_widths; w++)
		plan->total += (double)(modes * plan->nr_groups *
					plan->choices.nr_ops *
					(sweep_distances(plan,
							 plan->choices.widths[w],
							 distances) + 1));
}

/*
 * Reach the module when the mode wants it: *@kernel_wanted is set when
 * kernel sweeps are to run.  AUTO falls back to user mode without a module
 * that knows BOUNCE; KERNEL and BOTH fail instead.
 */
static int open_module(const struct cp_area_options *options,
		       struct bounce_kernel *kernel, bool *kernel_wanted,
		       struct cp_error *error)
{
	static const struct area_module_need need = {
		"bounce", 2, "BOUNCE command",
	};
	struct cp_module_info info;
	int ret = area_open_module(options, &need, &kernel->client, &info,
				   error);

	*kernel_wanted = kernel->client != NULL;
	if (kernel->client) {
		kernel->max_irqoff_ns = info.max_irqoff_ns;
		cp_module_info_free(&info);
	}
	return ret;
}

static int run_mode(struct cp_area_context *context, struct bounce_plan *plan,
		    const struct bounce_kernel *kernel, struct cp_error *error)
{
	struct alone_cache cache = { 0 };
	int ret = 0;

	for (size_t g = 0; g < plan->nr_groups && !ret; g++)
		ret = run_group(context, plan, &cache, &plan->groups[g], kernel,
				error);
	return ret;
}

static int run_bounce(struct cp_area_context *context, struct cp_error *error)
{
	struct bounce_kernel kernel = { 0 };
	struct bounce_plan plan;
	bool kernel_wanted, user_wanted;
	char why[160];
	int ret;

	if (plan_bounce(context->options, context->topology, &plan, why,
			sizeof(why)))
		return cp_error_set(error, EINVAL, "bounce: %s", why);
	ret = open_module(context->options, &kernel, &kernel_wanted, error);
	if (ret)
		return ret;
	user_wanted = context->options->mode != CP_AREA_MODE_KERNEL;
	count_work(&plan, (unsigned int)user_wanted + kernel_wanted);
	if (user_wanted)
		ret = run_mode(context, &plan, NULL, error);
	if (kernel_wanted && !ret)
		ret = run_mode(context, &plan, &kernel, error);
	if (kernel.client)
		cp_client_close(kernel.client);
	return ret;
}

const struct cp_area cp_area_bounce = {
	.name = "bounce",
	.description = "cost of cache-line bouncing (false sharing): counters d bytes apart on 2+ CPUs, per CPU-pair class; coherence granularity",
	.run = run_bounce,
	.check = check_bounce,
	.min_cpus = 2,
	.print = cli_print_bounce,
	.report = &report_bounce,
	.options = cp_bounce_options,
	.choices_size = sizeof(struct cp_bounce_choices),
	.check_choices = cp_bounce_check_choices,
};
