// SPDX-License-Identifier: GPL-2.0
#include "latency_kernel_run.h"

#include <errno.h>
#include <string.h>

#include "latency_kernel.h"

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

/* Run @params, halving the hops while a sample overflows a window. */
static int request(const struct cp_latency_kernel *kernel,
		   struct cp_chase_params *params,
		   struct cp_run_result *result, struct cp_error *error)
{
	int ret = cp_client_chase(kernel->client, params, result, error);

	for (int i = 0; ret == -EOVERFLOW &&
			i < CP_LATENCY_KERNEL_OVERFLOW_RETRIES; i++) {
		uint32_t fewer = cp_latency_kernel_fewer_hops(params->hops,
							      params->chases);

		if (!fewer)
			break;
		params->hops = fewer;
		ret = cp_client_chase(kernel->client, params, result, error);
	}
	return ret;
}

int cp_latency_kernel_chase(const struct cp_latency_kernel *kernel,
			    const struct cp_latency_kernel_request *request_in,
			    struct cp_run_result *result,
			    struct cp_error *error)
{
	struct cp_chase_params params = {
		.cpu = request_in->cpu,
		.samples = 1,
		.size = request_in->size,
		.stride = request_in->stride,
		.order = CACHEPROBE_ORDER_RANDOM,
		.prepare = CACHEPROBE_PREPARE_NONE,
		.pages = request_in->pages,
		.chases = request_in->chases,
		.seed = request_in->seed,
		.has_seed = kernel->has_chase_options,
	};
	struct cp_run_result first;
	int ret;

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
	params.hops = cp_latency_kernel_first_hops(params.chases);
	if (request_in->fixed_hops) {
		params.hops = cp_latency_kernel_multiple(request_in->fixed_hops,
							 params.chases);
	} else {
		ret = request(kernel, &params, &first, error);
		if (ret)
			return ret;
		params.hops = cp_latency_kernel_hops(
			cp_latency_kernel_slowest(&first), request_in->tsc_hz,
			request_in->target_ns, kernel->max_irqoff_ns,
			params.chases);
		cp_run_result_free(&first);
	}
	params.samples = request_in->samples;
	return request(kernel, &params, result, error);
}
