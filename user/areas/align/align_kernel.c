// SPDX-License-Identifier: GPL-2.0
/*
 * One align item measured by the module (ACCESS): the same width, offset,
 * stride and buffer size on the same CPU, with preemption and interrupts
 * off, and the same loops (include/measure/access.h): from ABI 5 the
 * module's load latency follows the cycle user mode's first round draws
 * from --seed (an older module walks the slots in address order and adds
 * the loaded zero to the next address; see the UAPI header).  Accesses
 * per sample, whole steps of the loop, are sized from a first small
 * request so that a sample lasts the user-mode sample length but at most
 * half the module's interrupt-off window, and halved while a sample
 * overflows it (client/kernel_call.h).
 */
#include "areas/align/align_area.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "client/kernel_call.h"
#include "areas/latency/latency_kernel.h"
#include "harness/stability.h"
#include "measure/access.h"

_Static_assert(CACHEPROBE_ACCESS_LOAD_THROUGHPUT ==
		       CACHEPROBE_ACCESS_LOAD_LATENCY + CP_ALIGN_LOAD_THROUGHPUT &&
	       CACHEPROBE_ACCESS_STORE_THROUGHPUT ==
		       CACHEPROBE_ACCESS_LOAD_LATENCY + CP_ALIGN_STORE_THROUGHPUT,
	       "the module's variants follow the kinds");

const char *align_kernel_refuses(const struct align_kernel *kernel,
				 const struct align_item *item)
{
	if (item->width == 32 && !(kernel->features & CACHEPROBE_FEAT_AVX))
		return "the module cannot do 32-byte accesses (no AVX)";
	if (item->width == 64 && !(kernel->features & CACHEPROBE_FEAT_AVX512F))
		return "the module cannot do 64-byte accesses (no AVX-512F)";
	if (!cp_latency_kernel_fits(item->buffer, kernel->max_buffer_bytes))
		return "buffers above the module's largest (max_buffer_mb)";
	return NULL;
}

static int send_access(void *client, void *params,
		       struct cp_run_result *result, struct cp_error *error)
{
	return cp_client_access(client, params, result, error);
}

static int record(struct cp_area_context *context,
		  const struct align_plan *plan, const struct align_item *item,
		  const struct cp_run_result *result)
{
	struct cp_measurement *m = cp_results_add(context->results);
	int ret;

	if (!m)
		return -ENOMEM;
	align_describe(m, plan, item, "kernel");
	ret = cp_latency_kernel_fill(m, result, context->clock->tsc_hz);
	if (ret)
		return ret;
	cp_stability_check_ops(m, (double)result->ops, result->retries,
			       context->harness);
	cp_stability_note_kernel_run(m, result->missed_rounds,
				     result->disturbed);
	return 0;
}

int align_measure_kernel(struct cp_area_context *context,
			 const struct align_plan *plan,
			 const struct align_kernel *kernel,
			 const struct align_item *item, struct cp_error *error)
{
	struct cp_access_params params = {
		.cpu = (uint32_t)plan->cpu, .size = item->buffer,
		.stride = item->stride, .width = item->width,
		.offset = item->offset,
		/* The module's variants follow the kinds, from 1. */
		.variant = CACHEPROBE_ACCESS_LOAD_LATENCY + item->kind,
		/* User mode's first round draws its cycle from this seed:
		 * the module's is the same cycle.  The ioctl cannot carry
		 * seed 0 (its "draw one"): the module then draws its own. */
		.seed = context->options->seed,
		.has_seed = kernel->takes_seed &&
			    (context->options->seed ||
			     strcmp(cp_client_transport_name(kernel->client),
				    "netlink") == 0),
	};
	const struct cp_harness_config *config = &plan->harness.config;
	struct cp_kernel_call call = {
		.send = send_access, .context = kernel->client,
		.request = &params, .ops = &params.accesses,
		/* The module's loops do whole steps (ABI 5). */
		.multiple = item->kind == CP_ALIGN_LOAD_LATENCY ?
			    CP_ACCESS_HOPS : CP_ACCESS_UNROLL,
		.samples = &params.samples,
		.fixed_ops = config->fixed_count,
		.target_ns = config->target_sample_ns,
		.max_irqoff_ns = kernel->max_irqoff_ns,
		.tsc_hz = context->clock->tsc_hz,
	};
	struct cp_run_result result;
	char name[96], why[sizeof(error->msg)];
	int ret = cp_kernel_call_sized(&call, config->samples, &result, error);

	if (ret == -EINTR)
		return ret;
	if (ret) {
		snprintf(why, sizeof(why), "%s", error->msg);
		align_item_name(item, name, sizeof(name));
		return cp_error_set(error, -ret, "align: kernel %s: %s", name,
				    why);
	}
	ret = record(context, plan, item, &result);
	cp_run_result_free(&result);
	if (ret)
		return cp_error_set(error, -ret, "align: cannot keep results");
	return 0;
}
