// SPDX-License-Identifier: GPL-2.0
/*
 * The xcore area: how fast a block moves from one core's cache to
 * another's.  For every block size (xcore_plan.c), every target (the
 * pairs, the same-CPU and the from-memory baselines) and both producer
 * actions (read: lines Shared/Exclusive; modify: lines Modified), the
 * consumer's ns per line of one dependent walk over the block, in user
 * mode (xcore_measure.c) and by the module (xcore_kernel.c); then the
 * transfer penalty of each pair against the same-CPU case
 * (xcore_derive.c).
 */
#include "areas/xcore/xcore_area.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "areas/xcore/xcore_table.h"
#include "harness/interrupt.h"
#include "harness/turns.h"
#include "harness/rounds.h"

static const enum cp_xcore_touch touches[] = {
	CP_XCORE_TOUCH_READ, CP_XCORE_TOUCH_MODIFY,
};

/* The module's info when the mode wants kernel measurements: 0 with
 * *@client NULL when it is not wanted or (AUTO) not there or too old for
 * @delay. */
static int open_module(const struct cp_area_options *options,
		       unsigned int delay, struct xcore_kernel *kernel,
		       struct cp_error *error)
{
	char what[64];
	struct area_module_need need = { "xcore", 2, "XFER command" };
	struct cp_module_info info;
	int ret;

	memset(kernel, 0, sizeof(*kernel));
	if (delay) {
		snprintf(what, sizeof(what),
			 "XFER delay (ABI 3) for --delay %u; or use --mode user",
			 delay);
		need = (struct area_module_need){ "xcore", 3, what };
	}
	ret = area_open_module(options, &need, &kernel->client, &info, error);
	if (kernel->client) {
		kernel->max_buffer_bytes = info.max_buffer_bytes;
		cp_module_info_free(&info);
	}
	return ret;
}

/* Kernel-mode limits a usage error can name: a chosen block size above the
 * module's largest buffer cannot run. */
static int check_kernel(const struct cp_area_options *options,
			const struct xcore_plan *plan, struct cp_error *error)
{
	struct xcore_kernel kernel;
	uint64_t largest = plan->sizes[plan->nr_sizes - 1];
	int ret;

	if (options->mode != CP_AREA_MODE_KERNEL &&
	    options->mode != CP_AREA_MODE_BOTH)
		return 0;
	if (open_module(options, plan->delay, &kernel, error))
		return 0;	/* reported when the area runs */
	cp_client_close(kernel.client);
	if (options->max_size_bytes && kernel.max_buffer_bytes &&
	    largest > kernel.max_buffer_bytes)
		ret = cp_error_set(error, EINVAL,
				   "xcore: --max-size %llu is above the module's largest buffer (%llu bytes, max_buffer_mb)",
				   (unsigned long long)largest,
				   (unsigned long long)kernel.max_buffer_bytes);
	else
		ret = 0;
	return ret;
}

static int check_xcore(const struct cp_area_options *options,
		       const struct cp_topology *topology,
		       struct cp_error *error)
{
	struct xcore_plan plan;
	char why[160];

	if (xcore_plan(options, topology, &plan, why, sizeof(why)))
		return cp_error_set(error, EINVAL, "xcore: %s", why);
	return check_kernel(options, &plan, error);
}

/* One configuration in kernel mode (user mode interleaves: run_user). */
static int measure_one(struct cp_area_context *context,
		       struct xcore_plan *plan, struct xcore_kernel *kernel,
		       const struct xcore_config *config,
		       struct cp_error *error)
{
	char what[80];
	int ret;

	xcore_config_name(config, what, sizeof(what));
	strncat(what, " (kernel)", sizeof(what) - strlen(what) - 1);
	if (context->progress)
		context->progress(context->progress_data, what, plan->done,
				  plan->total);
	ret = xcore_measure_kernel(context, kernel, config, error);
	plan->done += (double)config->size / (double)plan->sizes[0];
	return ret;
}

/* Every target and action at one size. */
static int run_size(struct cp_area_context *context, struct xcore_plan *plan,
		    struct xcore_kernel *kernel, uint64_t size,
		    struct cp_error *error)
{
	int ret = 0;

	for (size_t t = 0; t < plan->nr_targets && !ret; t++) {
		const struct xcore_target *target = &plan->targets[t];
		size_t nr_touches = target->kind == XCORE_MEMORY ? 1 : 2;

		for (size_t k = 0; k < nr_touches && !ret; k++) {
			struct xcore_config config = {
				.target = target, .size = size,
				.touch = target->kind == XCORE_MEMORY
						 ? CP_XCORE_TOUCH_NONE
						 : touches[k],
				.delay = plan->delay,
			};

			ret = measure_one(context, plan, kernel, &config,
					  error);
		}
	}
	xcore_derive_penalties(context->results, size);
	if (!ret && cp_interrupt_requested())
		ret = -EINTR;
	return ret;
}

static struct cp_measurement *last_kernel_measurement(struct cp_results *results)
{
	for (size_t i = results->nr_measurements; i-- > 0;) {
		struct cp_measurement *m = &results->measurements[i];

		if (!strcmp(m->area, "xcore") && !strcmp(m->mode, "kernel"))
			return m;
	}
	return NULL;
}

/* What the kernel sweep left out: say so on its last measurement. */
static void note_kernel_limits(struct cp_area_context *context,
			       const struct xcore_kernel *kernel)
{
	struct cp_measurement *m = last_kernel_measurement(context->results);

	if (!m)
		return;
	if (kernel->stopped)
		cp_measurement_warn(m,
				    "kernel mode stopped at %llu KiB: a walk does not fit the module's interrupt-off window or buffer",
				    (unsigned long long)(kernel->stopped_at >> 10));
	if (kernel->memory_skipped)
		cp_measurement_warn(m,
				    "kernel mode has no from-memory baseline with --delay: the module's CHASE walks without a delay");
}

/* Every configuration of every size, size by size, in @configs. */
static size_t list_configs(const struct xcore_plan *plan,
			   struct xcore_config *configs)
{
	size_t n = 0;

	for (size_t s = 0; s < plan->nr_sizes; s++)
		for (size_t t = 0; t < plan->nr_targets; t++) {
			const struct xcore_target *target = &plan->targets[t];
			size_t nr_touches = target->kind == XCORE_MEMORY ? 1
									 : 2;

			for (size_t k = 0; k < nr_touches; k++)
				configs[n++] = (struct xcore_config){
					.target = target,
					.size = plan->sizes[s],
					.touch = target->kind == XCORE_MEMORY
							 ? CP_XCORE_TOUCH_NONE
							 : touches[k],
					.delay = plan->delay,
				};
		}
	return n;
}

/* Round after round of @n started configurations, each round all of
 * them in an order drawn from --seed and the round. */
static int interleave(struct cp_area_context *context, struct xcore_plan *plan,
		      const struct xcore_config *configs,
		      struct xcore_measuring **m, size_t n,
		      struct cp_error *error)
{
	size_t *order = malloc(n * sizeof(*order));
	unsigned int rounds = xcore_measure_rounds(m[0]);
	int ret = order ? 0 : cp_error_set(error, ENOMEM, "xcore: no memory");

	for (unsigned int r = 0; r < rounds && !ret; r++) {
		if (r && (ret = cp_turn_pass()))
			break;
		cp_rounds_order_in(order, n, context->options->seed, r);
		for (size_t k = 0; k < n && !ret; k++) {
			const struct xcore_config *config = &configs[order[k]];
			char what[80];

			xcore_config_name(config, what, sizeof(what));
			if (context->progress)
				context->progress(context->progress_data, what,
						  plan->done, plan->total);
			ret = xcore_measure_round(context, m[order[k]], error);
			plan->done += (double)config->size /
				      (double)plan->sizes[0] / rounds;
		}
		if (!ret && cp_interrupt_requested())
			ret = -EINTR;
	}
	free(order);
	return ret;
}

/*
 * User mode: the rounds of every configuration of every size interleaved,
 * so that a slow moment of the machine, or the host moving a vCPU,
 * spreads over all of them and each one's rounds spread over the whole
 * run; recorded size by size as before, then each size's penalties.
 */
static int run_user(struct cp_area_context *context, struct xcore_plan *plan,
		    struct cp_error *error)
{
	size_t most = plan->nr_sizes * (2 * plan->nr_targets);
	struct xcore_config *configs = calloc(most, sizeof(*configs));
	struct xcore_measuring **m = calloc(most, sizeof(*m));
	size_t n = configs && m ? list_configs(plan, configs) : 0;
	int ret = configs && m ? 0 : -ENOMEM;

	for (size_t i = 0; i < n && !ret; i++)
		ret = xcore_measure_start(&configs[i],
					  &context->harness->config, &m[i]);
	if (ret)
		ret = cp_error_set(error, ENOMEM, "xcore: no memory");
	if (!ret && n)
		ret = interleave(context, plan, configs, m, n, error);
	for (size_t i = 0; i < n; i++) {
		int kept = 0;

		if (!ret || ret == -EINTR)
			kept = xcore_measure_finish(context, m[i], error);
		else
			xcore_measure_drop(m[i]);
		if (kept)
			ret = kept;
	}
	for (size_t s = 0; s < plan->nr_sizes && (!ret || ret == -EINTR); s++)
		xcore_derive_penalties(context->results, plan->sizes[s]);
	free(configs);
	free(m);
	return ret;
}

static int run_mode(struct cp_area_context *context, struct xcore_plan *plan,
		    struct xcore_kernel *kernel, struct cp_error *error)
{
	int ret = 0;

	if (!kernel)
		return run_user(context, plan, error);
	for (size_t s = 0; s < plan->nr_sizes && !ret; s++)
		ret = run_size(context, plan, kernel, plan->sizes[s], error);
	if (kernel)
		note_kernel_limits(context, kernel);
	return ret;
}

static int run_xcore(struct cp_area_context *context, struct cp_error *error)
{
	const struct cp_area_options *options = context->options;
	struct xcore_kernel kernel;
	struct xcore_plan plan;
	bool user_wanted = options->mode != CP_AREA_MODE_KERNEL, kernel_wanted;
	char why[160];
	int ret;

	if (xcore_plan(options, context->topology, &plan, why, sizeof(why)))
		return cp_error_set(error, EINVAL, "xcore: %s", why);
	ret = open_module(options, plan.delay, &kernel, error);
	if (ret)
		return ret;
	kernel_wanted = kernel.client != NULL;
	for (size_t s = 0; s < plan.nr_sizes; s++)
		plan.total += (double)((int)user_wanted + kernel_wanted) *
			      (double)(2 * plan.nr_targets - 1) *
			      (double)plan.sizes[s] / (double)plan.sizes[0];
	if (user_wanted)
		ret = run_mode(context, &plan, NULL, error);
	if (kernel_wanted && !ret)
		ret = run_mode(context, &plan, &kernel, error);
	if (kernel.client)
		cp_client_close(kernel.client);
	return ret;
}

const struct cp_area cp_area_xcore = {
	.name = "xcore",
	.description = "cache-to-cache transfer: a block read or modified on one CPU, walked on another; ns per line by block size, pair class and line state",
	.run = run_xcore,
	.check = check_xcore,
	.min_cpus = 2,
	.print = cli_print_xcore,
	.report = &report_xcore,
	.options = cp_xcore_options,
	.choices_size = sizeof(struct cp_xcore_choices),
};
