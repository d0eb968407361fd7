// SPDX-License-Identifier: GPL-2.0
/*
 * One xcore configuration measured by the module: XFER for a pair and for
 * the same-CPU baseline (the same CPU twice, one kernel thread), CHASE
 * with a clflush of the buffer before every sample and one hop per line
 * for the from-memory baseline (not with a delay, which CHASE cannot add:
 * that baseline is left out, with a note).  XFER's DELAY (ABI 3) adds the
 * same dependent register adds after each load as the user-mode walk.
 * Each sample is one walk over the block
 * with preemption and interrupts off; a walk longer than the module's
 * interrupt-off window (EOVERFLOW) or a block above its largest buffer
 * (E2BIG) ends the kernel sweep at that size, with a note.
 */
#include "areas/xcore/xcore_area.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/stability.h"

/* Whatever --delay accepts, the module takes. */
_Static_assert(CP_XCORE_MAX_DELAY <= CACHEPROBE_MAX_DELAY,
	       "--delay beyond the module's XFER DELAY");

static int request(struct xcore_kernel *kernel,
		   const struct xcore_config *config, unsigned int samples,
		   struct cp_run_result *result, struct cp_error *error)
{
	const struct xcore_target *t = config->target;

	if (t->kind == XCORE_MEMORY)
		return cp_client_chase(kernel->client,
				       &(struct cp_chase_params){
					       .cpu = t->consumer,
					       .samples = samples,
					       .size = config->size,
					       .order = CACHEPROBE_ORDER_RANDOM,
					       .hops = (uint32_t)(config->size / 64),
					       .prepare = CACHEPROBE_PREPARE_CLFLUSH,
				       }, result, error);
	return cp_client_xfer(kernel->client,
			      &(struct cp_xfer_params){
				      .producer = t->producer,
				      .consumer = t->consumer,
				      .samples = samples, .size = config->size,
				      .variant = config->touch ==
							 CP_XCORE_TOUCH_MODIFY
							 ? CACHEPROBE_XFER_MODIFY
							 : CACHEPROBE_XFER_READ,
				      .order = CACHEPROBE_ORDER_RANDOM,
				      .delay = config->delay,
			      }, result, error);
}

static int record(struct cp_area_context *context,
		  const struct xcore_config *config,
		  const struct cp_run_result *result)
{
	struct cp_measurement *m = cp_results_add(context->results);
	double *values = malloc(result->samples * sizeof(*values));
	int ret;

	if (!m || !values || !result->nr_series || !result->ops) {
		free(values);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < result->samples; i++)
		values[i] = (double)result->series[0].values[i] /
			    (double)result->ops;
	xcore_describe(m, config, context->topology, "kernel");
	m->count = 1;
	m->scale = result->ops;
	ret = cp_measurement_set_samples(m, values, result->samples,
					 context->clock->tsc_hz);
	if (ret)
		return ret;
	cp_stability_check_ops(m, (double)result->ops, result->retries,
			       context->harness);
	cp_stability_note_kernel_run(m, result->missed_rounds,
				     result->disturbed);
	return 0;
}

int xcore_measure_kernel(struct cp_area_context *context,
			 struct xcore_kernel *kernel,
			 const struct xcore_config *config,
			 struct cp_error *error)
{
	struct cp_run_result result;
	char name[64], why[sizeof(error->msg)];
	int ret;

	if (kernel->stopped)
		return 0;
	if (config->target->kind == XCORE_MEMORY && config->delay) {
		kernel->memory_skipped = true;
		return 0;
	}
	ret = request(kernel, config, context->harness->config.samples,
		      &result, error);
	if (ret == -EOVERFLOW || ret == -E2BIG) {
		kernel->stopped = true;
		kernel->stopped_at = config->size;
		return 0;
	}
	if (ret == -EINTR)
		return ret;
	if (ret) {
		snprintf(why, sizeof(why), "%s", error->msg);
		xcore_config_name(config, name, sizeof(name));
		return cp_error_set(error, -ret, "xcore: kernel %s: %s", name,
				    why);
	}
	ret = record(context, config, &result);
	cp_run_result_free(&result);
	if (ret)
		return cp_error_set(error, -ret, "xcore: cannot keep results");
	return 0;
}
