// SPDX-License-Identifier: GPL-2.0
/*
 * The align area: what an access that straddles two cache lines, or two
 * pages, costs.  For each buffer (half of L1d and half of L2 by default),
 * kind (load latency: a dependent chain; load throughput: independent
 * loads; store throughput) and access width the CPU can do, the access at
 * offset 0 of its slot against the same access straddling a line
 * boundary by half its width, both at the sweep stride, and against the
 * same access straddling a 4 KiB page boundary, both at a stride of one
 * page.  With --offsets every listed offset is measured (0 is added as the
 * baseline); without, 8-byte load latency in the first buffer is swept
 * over 0 to two lines, one byte apart, and the line size is read off that
 * sweep (areas/align/align_detect.h).  The classic pattern (areas/align/align_classic.h)
 * runs in user mode.
 *
 * --mode kernel (or both, the default when the module answers) measures
 * the same items with the module's ACCESS, except the classic pattern,
 * which ACCESS cannot express (two loads per step).
 */
#include "areas/align/align_area.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/access.h"
#include "areas/align/align_table.h"
#include "harness/interrupt.h"
#include "machine/usable_cpus.h"

/* The instance of the level-@level data cache serving @cpu, and its line. */
static uint64_t cache_bytes(const struct cp_topology *topology, int cpu,
			    unsigned int level, unsigned int *line)
{
	for (size_t i = 0; i < topology->nr_cache_levels; i++) {
		const struct cp_cache_level *cache = &topology->cache_levels[i];

		if (cache->level != level ||
		    cache->type == CP_CACHE_INSTRUCTION)
			continue;
		if (line && cache->line_size)
			*line = cache->line_size;
		for (size_t k = 0; k < cache->nr_instances; k++)
			if (cp_cpuset_test(cache->instances[k].cpus,
					   (unsigned int)cpu))
				return cache->instances[k].size_bytes;
	}
	return 0;
}

/* Widths: the chosen ones (each must be possible here), or every one the
 * CPU can do, the others named in plan->skipped. */
static int plan_widths(struct align_plan *plan, char *why, size_t why_len)
{
	struct cp_align_choices *c = &plan->choices;
	struct cp_align_cpu cpu;
	size_t used = 0;

	cp_align_cpu_read(&cpu);
	for (size_t i = 0; i < c->nr_widths; i++) {
		const char *no = cp_align_width_unsupported(c->widths[i], &cpu);

		if (no) {
			snprintf(why, why_len, "--access-widths %u: %s",
				 c->widths[i], no);
			return -EINVAL;
		}
	}
	if (c->nr_widths)
		return 0;
	for (int i = 0; i < CP_ALIGN_NR_WIDTHS; i++) {
		unsigned int w = cp_align_widths[i];
		const char *no = cp_align_width_unsupported(w, &cpu);

		if (!no)
			c->widths[c->nr_widths++] = w;
		else if (used < sizeof(plan->skipped))
			used += (size_t)snprintf(plan->skipped + used,
						 sizeof(plan->skipped) - used,
						 "%s%u-byte skipped: %s",
						 used ? "; " : "", w, no);
	}
	return 0;
}

static void plan_buffers(const struct cp_topology *topology,
			 struct align_plan *plan)
{
	struct cp_align_choices *c = &plan->choices;
	uint64_t l2;

	plan->line = ALIGN_DEFAULT_LINE;
	plan->l1d_bytes = cache_bytes(topology, plan->cpu, 1, &plan->line);
	l2 = cache_bytes(topology, plan->cpu, 2, NULL);
	if (!c->nr_buffers) {
		c->buffers[c->nr_buffers++] = CP_ALIGN_BUFFER_L1;
		c->buffers[c->nr_buffers++] = CP_ALIGN_BUFFER_L2;
	}
	for (size_t i = 0; i < c->nr_buffers; i++) {
		if (c->buffers[i] == CP_ALIGN_BUFFER_L1)
			c->buffers[i] = plan->l1d_bytes ? plan->l1d_bytes / 2
							: 16 << 10;
		else if (c->buffers[i] == CP_ALIGN_BUFFER_L2)
			c->buffers[i] = l2 ? l2 / 2 : 512 << 10;
	}
	if (!c->nr_kinds)
		for (int k = 0; k < CP_ALIGN_NR_KINDS; k++)
			c->kinds[c->nr_kinds++] = k;
}

static uint32_t max_offset(const struct cp_align_choices *c)
{
	uint32_t max = 0;

	for (size_t i = 0; i < c->nr_offsets; i++)
		if (c->offsets[i] > max)
			max = c->offsets[i];
	return max;
}

static unsigned int max_width(const struct cp_align_choices *c)
{
	unsigned int max = 0;

	for (size_t i = 0; i < c->nr_widths; i++)
		if (c->widths[i] > max)
			max = c->widths[i];
	return max;
}

/* Every chosen offset fits every buffer with room for the slots needed. */
static int check_offsets(const struct align_plan *plan, char *why,
			 size_t why_len)
{
	const struct cp_align_choices *c = &plan->choices;
	uint32_t offset = max_offset(c);
	unsigned int width = max_width(c);
	uint32_t stride = cp_align_sweep_stride(offset + width);

	for (size_t b = 0; c->nr_offsets && b < c->nr_buffers; b++)
		if (cp_align_nr_slots(c->buffers[b], stride, offset, width) <
		    CP_ACCESS_UNROLL) {
			snprintf(why, why_len,
				 "--offsets: offset %u with %u-byte accesses (slots of %u bytes) does not fit a %llu-byte buffer %d times; give a larger --buffers or smaller offsets",
				 offset, width, stride,
				 (unsigned long long)c->buffers[b],
				 CP_ACCESS_UNROLL);
			return -EINVAL;
		}
	return 0;
}

static int add_item(struct align_plan *plan, const struct align_item *item)
{
	struct align_item *grown;

	if (cp_align_nr_slots(item->buffer, item->stride, item->offset,
			      item->width) < cp_align_min_slots(item->kind))
		return 0;	/* e.g. a page split in a small buffer */
	grown = realloc(plan->items, (plan->nr_items + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	plan->items = grown;
	plan->items[plan->nr_items++] = *item;
	return 0;
}

/* The offsets of one (buffer, kind, width) group at the sweep stride. */
static int add_group(struct align_plan *plan, struct align_item item,
		     bool sweep, uint32_t stride)
{
	const struct cp_align_choices *c = &plan->choices;
	bool zero_listed = false;
	int ret = 0;

	item.stride = stride;
	for (size_t i = 0; i < c->nr_offsets; i++)
		zero_listed |= c->offsets[i] == 0;
	if (c->nr_offsets) {
		item.offset = 0;
		if (!zero_listed)
			ret = add_item(plan, &item);
		for (size_t i = 0; i < c->nr_offsets && !ret; i++) {
			item.offset = c->offsets[i];
			ret = add_item(plan, &item);
		}
	} else if (sweep) {
		for (uint32_t o = 0; o <= 2 * plan->line && !ret; o++) {
			item.offset = o;
			ret = add_item(plan, &item);
		}
	} else {
		item.offset = 0;
		ret = add_item(plan, &item);
		item.offset = cp_align_line_split_offset(plan->line, item.width);
		if (!ret)
			ret = add_item(plan, &item);
	}
	if (ret || item.width == 1)
		return ret;
	/* The page split against the same access at a page's start. */
	item.stride = CP_ALIGN_PAGE;
	item.offset = 0;
	ret = add_item(plan, &item);
	item.offset = cp_align_page_split_offset(item.width);
	return ret ? ret : add_item(plan, &item);
}

static int plan_items(struct align_plan *plan)
{
	const struct cp_align_choices *c = &plan->choices;
	uint32_t stride = cp_align_sweep_stride(
		(c->nr_offsets ? max_offset(c) : 2 * plan->line) +
		max_width(c));
	int ret = 0;

	for (size_t b = 0; b < c->nr_buffers && !ret; b++)
		for (size_t k = 0; k < c->nr_kinds && !ret; k++)
			for (size_t w = 0; w < c->nr_widths && !ret; w++) {
				struct align_item item = {
					.kind = c->kinds[k],
					.width = c->widths[w],
					.buffer = c->buffers[b],
				};
				/* The default sweep: 8-byte load latency
				 * (else the first kind and width) in the
				 * first buffer. */
				bool sweep = b == 0 && k == 0 &&
					     (c->widths[w] == 8 ||
					      (w == 0 && max_width(c) < 8));

				ret = add_group(plan, item, sweep, stride);
			}
	return ret;
}

static int make_plan(const struct cp_area_options *options,
		     const struct cp_topology *topology, int cpu,
		     struct align_plan *plan, char *why, size_t why_len)
{
	const struct cp_align_choices *choices =
		cp_area_choices(options, &cp_area_align);
	int ret;

	memset(plan, 0, sizeof(*plan));
	plan->cpu = cpu;
	if (choices)
		plan->choices = *choices;
	ret = plan_widths(plan, why, why_len);
	if (ret)
		return ret;
	plan_buffers(topology, plan);
	ret = check_offsets(plan, why, why_len);
	if (!ret && plan_items(plan))
		ret = -ENOMEM;
	if (!ret && !plan->nr_items) {
		snprintf(why, why_len,
			 "no buffer holds enough slots to measure; give larger --buffers");
		ret = -EINVAL;
	}
	return ret;
}

static int first_cpu(const struct cp_area_options *options,
		     const struct cp_topology *topology)
{
	return options->cpus ? cp_cpuset_first(options->cpus)
			     : cp_usable_default_cpu(topology);
}

static int check_align(const struct cp_area_options *options,
		       const struct cp_topology *topology,
		       struct cp_error *error)
{
	struct align_plan plan;
	char why[256];
	int ret = make_plan(options, topology, first_cpu(options, topology),
			    &plan, why, sizeof(why));

	free(plan.items);
	if (ret)
		return cp_error_set(error, EINVAL, "align: %s", why);
	return 0;
}

/* Reach the module when the mode wants it; AUTO falls back to user mode. */
static int open_module(const struct cp_area_options *options,
		       struct align_kernel *kernel, struct cp_error *error)
{
	static const struct area_module_need need = {
		"align", 2, "ACCESS command",
	};
	struct cp_module_info info;
	int ret;

	*kernel = (struct align_kernel){ 0 };
	ret = area_open_module(options, &need, &kernel->client, &info, error);
	if (kernel->client) {
		kernel->features = info.features;
		kernel->max_irqoff_ns = info.max_irqoff_ns;
		kernel->max_buffer_bytes = info.max_buffer_bytes;
		kernel->takes_seed = info.abi_version >= 5;
		cp_module_info_free(&info);
	}
	return ret;
}

static void progress(struct cp_area_context *context,
		     const struct align_item *item, const char *suffix,
		     double done, double total)
{
	char what[96];

	if (!context->progress)
		return;
	align_item_name(item, what, sizeof(what));
	strncat(what, suffix, sizeof(what) - strlen(what) - 1);
	context->progress(context->progress_data, what, done, total);
}

static void user_progress(struct cp_area_context *context,
			  const struct align_item *item, double done,
			  double total)
{
	progress(context, item, "", done, total);
}

static int run_user(struct cp_area_context *context,
		    const struct align_plan *plan, double total,
		    struct cp_error *error)
{
	size_t first = context->results->nr_measurements;
	int ret = align_measure_all(context, plan, user_progress, 0, total,
				    error);

	if (!ret || ret == -EINTR)
		align_derive(context->results, first, "user", plan);
	return ret;
}

/* The module's sweep; what it cannot measure is skipped with a note. */
static int run_kernel(struct cp_area_context *context,
		      const struct align_plan *plan,
		      const struct align_kernel *kernel, double done,
		      double total, struct cp_error *error)
{
	size_t first = context->results->nr_measurements, skipped = 0;
	const char *why = NULL;
	int ret = 0;

	for (size_t i = 0; i < plan->nr_items && !ret; i++) {
		const char *no = align_kernel_refuses(kernel, &plan->items[i]);

		if (no) {
			why = why ? why : no;
			skipped++;
			continue;
		}
		progress(context, &plan->items[i], " (kernel)", done + (double)i,
			 total);
		ret = cp_interrupt_requested()
			      ? -EINTR
			      : align_measure_kernel(context, plan, kernel,
						     &plan->items[i], error);
	}
	if (ret && ret != -EINTR)
		return ret;
	align_derive(context->results, first, "kernel", plan);
	if (!ret && context->results->nr_measurements == first && skipped)
		return cp_error_set(error, EOPNOTSUPP,
				    "align: kernel mode: the module can measure none of the chosen accesses (%s)",
				    why);
	if (skipped)
		cp_measurement_warn(&context->results->measurements[first],
				    "kernel mode skipped %zu measurements: %s",
				    skipped, why);
	return ret;
}

static int run_align(struct cp_area_context *context, struct cp_error *error)
{
	const struct cp_area_options *options = context->options;
	struct align_kernel kernel;
	struct align_plan plan;
	cpu_set_t previous, mask;
	bool user_wanted = options->mode != CP_AREA_MODE_KERNEL;
	size_t first = context->results->nr_measurements;
	char why[256];
	double total;
	int ret;

	if (sched_getaffinity(0, sizeof(previous), &previous))
		return cp_error_set(error, errno,
				    "align: cannot read the CPU affinity");
	ret = make_plan(options, context->topology,
			first_cpu(options, context->topology), &plan,
			why, sizeof(why));
	if (ret) {
		free(plan.items);
		return cp_error_set(error, -ret, "align: %s", why);
	}
	plan.harness = *context->harness;
	if (!options->sample_time_chosen &&
	    plan.harness.config.target_sample_ns > ALIGN_DEFAULT_SAMPLE_NS)
		plan.harness.config.target_sample_ns = ALIGN_DEFAULT_SAMPLE_NS;
	CPU_ZERO(&mask);
	CPU_SET(plan.cpu, &mask);
	if (sched_setaffinity(0, sizeof(mask), &mask)) {
		free(plan.items);
		return cp_error_set(error, errno, "align: cannot run on CPU %d",
				    plan.cpu);
	}
	ret = open_module(options, &kernel, error);
	total = (double)plan.nr_items *
		((unsigned int)user_wanted + (kernel.client != NULL));
	if (!ret && user_wanted)
		ret = run_user(context, &plan, total, error);
	if (!ret && kernel.client)
		ret = run_kernel(context, &plan, &kernel,
				 user_wanted ? (double)plan.nr_items : 0, total,
				 error);
	if (kernel.client)
		cp_client_close(kernel.client);
	/* On the first measurement, where the table looks for notes. */
	if (plan.skipped[0] && context->results->nr_measurements > first)
		cp_measurement_warn(&context->results->measurements[first],
				    "%s", plan.skipped);
	sched_setaffinity(0, sizeof(previous), &previous);
	free(plan.items);
	return ret;
}

const struct cp_area cp_area_align = {
	.name = "align",
	.description = "cost of accesses that straddle cache lines and pages: offsets, widths 1-64, loads and stores, latency and throughput; line size from the penalty",
	.run = run_align,
	.check = check_align,
	.print = cli_print_align,
	.report = &report_align,
	.options = cp_align_options,
	.choices_size = sizeof(struct cp_align_choices),
};
