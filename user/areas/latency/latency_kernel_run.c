// SPDX-License-Identifier: GPL-2.0
#include "areas/latency/latency_kernel_run.h"

#include <errno.h>
#include <string.h>

#include "client/kernel_call.h"

int cp_latency_kernel_open(enum cp_transport transport,
			   struct cp_latency_kernel *kernel,
			   struct cp_error *error)
{
	struct cp_module_info info;
	int ret;

	*kernel = (struct cp_latency_kernel){ 0 };
	ret = cp_client_open(transport, &kernel->client, error);
	if (!ret)
		ret = cp_client_info(kernel->client, &info, error);
	if (!ret) {
		kernel->max_irqoff_ns = info.max_irqoff_ns;
		kernel->max_buffer_bytes = info.max_buffer_bytes;
		kernel->abi_version = info.abi_version;
		kernel->has_chase_options = info.abi_version >= 4;
		if (info.abi_version < 2)
			ret = cp_error_set(error, EOPNOTSUPP,
					   "the module (ABI %u) has no CHASE command; update it",
					   info.abi_version);
		cp_module_info_free(&info);
	}
	if (ret)
		cp_latency_kernel_close(kernel);
	return ret;
}

void cp_latency_kernel_close(struct cp_latency_kernel *kernel)
{
	if (kernel->client)
		cp_client_close(kernel->client);
	kernel->client = NULL;
}

static int send_chase(void *client, void *params,
		      struct cp_run_result *result, struct cp_error *error)
{
	return cp_client_chase(client, params, result, error);
}

int cp_latency_kernel_chase(const struct cp_latency_kernel *kernel,
			    const struct cp_latency_kernel_request *request_in,
			    struct cp_run_result *result,
			    struct cp_error *error)
{
	struct cp_chase_params params = {
		.cpu = request_in->cpu,
		.size = request_in->size,
		.stride = request_in->stride,
		.order = CACHEPROBE_ORDER_RANDOM,
		.prepare = CACHEPROBE_PREPARE_NONE,
		.pages = request_in->pages,
		.chases = request_in->chases,
		.seed = request_in->seed,
		.has_seed = kernel->has_chase_options,
	};
	struct cp_kernel_call call = {
		.send = send_chase, .context = kernel->client,
		.request = &params, .ops = &params.hops,
		.samples = &params.samples,
		.fixed_ops = request_in->fixed_hops,
		.target_ns = request_in->target_ns,
		.max_irqoff_ns = kernel->max_irqoff_ns,
		.tsc_hz = request_in->tsc_hz,
	};

	memset(result, 0, sizeof(*result));
	if (!kernel->has_chase_options) {
		if (params.pages > CACHEPROBE_PAGES_4K || params.chases > 1)
			return cp_error_set(error, EOPNOTSUPP,
					    "the module (ABI %u) has no choice of pages or chases for CHASE (ABI 4); update it",
					    kernel->abi_version);
		/* What such a module does anyway, without the attributes it
		 * would refuse. */
		params.pages = 0;
		params.chases = 0;
	}
	/* CHASE takes loads over all chases, whole rounds of them. */
	call.multiple = params.chases;
	return cp_kernel_call_sized(&call, request_in->samples, result, error);
}
