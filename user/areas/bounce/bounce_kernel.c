// SPDX-License-Identifier: GPL-2.0
/*
 * One bounce configuration measured by the module (BOUNCE): the module's
 * kernel threads, bound to the group's CPUs, increment their counters with
 * preemption and interrupts off, all CPUs entering each sample's window
 * together.  Increments per sample are sized from a first small request so
 * that a sample lasts the user-mode run length but at most half the
 * module's interrupt-off window (client/kernel_call.h).  The module cannot
 * run one thread alone: kernel sweeps have no alone baseline.
 */
#include "areas/bounce/bounce_area.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "areas/bounce/bounce_request.h"
#include "client/kernel_call.h"
#include "harness/stability.h"

static void fill_params(const struct bounce_config *config, uint32_t *cpus,
			struct cp_bounce_params *params)
{
	for (unsigned int i = 0; i < config->group->nr_cpus; i++)
		cpus[i] = config->group->cpus[i];
	*params = (struct cp_bounce_params){
		.cpus = cpus, .nr_cpus = config->group->nr_cpus,
		.variant = config->op == CP_BOUNCE_ATOMIC
				   ? CACHEPROBE_BOUNCE_ATOMIC
				   : CACHEPROBE_BOUNCE_PLAIN,
		.width = config->width, .distance = config->distance,
	};
}

static int send_bounce(void *client, void *params,
		       struct cp_run_result *result, struct cp_error *error)
{
	return cp_client_bounce(client, params, result, error);
}

static int record(struct cp_area_context *context,
		  const struct bounce_config *config,
		  const struct cp_run_result *result, size_t *index)
{
	struct cp_measurement *m = cp_results_add(context->results);
	size_t n;
	double *values = cp_bounce_kernel_samples(result, 0, &n);
	int ret;

	if (!m || !values) {
		free(values);
		return -ENOMEM;
	}
	bounce_describe(m, config, (unsigned int)result->nr_series, "kernel");
	m->count = result->ops;
	m->scale = 1;
	ret = cp_measurement_set_samples(m, values, n, context->clock->tsc_hz);
	if (ret)
		return ret;
	cp_stability_check_ops(m, (double)result->ops, result->retries,
			       context->harness);
	cp_stability_note_kernel_run(m, result->missed_rounds,
				     result->disturbed);
	*index = (size_t)(m - context->results->measurements);
	return 0;
}

int bounce_measure_kernel(struct cp_area_context *context,
			  const struct bounce_kernel *kernel,
			  const struct bounce_config *config, size_t *index,
			  struct cp_error *error)
{
	uint32_t cpus[CP_BOUNCE_MAX_THREADS];
	struct cp_bounce_params params;
	struct cp_kernel_call call = {
		.send = send_bounce, .context = kernel->client,
		.request = &params, .ops = &params.increments,
		.samples = &params.samples,
		.fixed_ops = context->harness->config.fixed_count,
		.target_ns = bounce_run_ns(context),
		.max_irqoff_ns = kernel->max_irqoff_ns,
		.tsc_hz = context->clock->tsc_hz,
	};
	struct cp_run_result result;
	char name[64], why[sizeof(error->msg)];
	int ret;

	fill_params(config, cpus, &params);
	ret = cp_kernel_call_sized(&call, context->harness->config.samples,
				   &result, error);
	if (ret == -EINTR)
		return ret;
	if (ret) {
		snprintf(why, sizeof(why), "%s", error->msg);
		bounce_config_name(config, name, sizeof(name));
		return cp_error_set(error, -ret, "bounce: kernel %s: %s", name,
				    why);
	}
	ret = record(context, config, &result, index);
	cp_run_result_free(&result);
	if (ret)
		return cp_error_set(error, -ret, "bounce: cannot keep results");
	return 0;
}
