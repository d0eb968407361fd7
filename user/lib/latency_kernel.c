// SPDX-License-Identifier: GPL-2.0
#include "latency_kernel.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

bool cp_latency_kernel_fits(uint64_t size, uint64_t max_buffer_bytes)
{
	return !max_buffer_bytes || size <= max_buffer_bytes;
}

uint32_t cp_latency_kernel_multiple(uint64_t n, uint32_t multiple)
{
	if (!multiple)
		multiple = 1;
	if (n > CACHEPROBE_MAX_OPS)
		n = CACHEPROBE_MAX_OPS;
	n -= n % multiple;
	return n < multiple ? multiple : (uint32_t)n;
}

uint32_t cp_latency_kernel_first_hops(uint32_t multiple)
{
	return cp_latency_kernel_multiple(CP_LATENCY_KERNEL_FIRST_HOPS,
					  multiple);
}

uint32_t cp_latency_kernel_hops(double ticks_per_hop, double tsc_hz,
				double target_ns, uint64_t max_irqoff_ns,
				uint32_t multiple)
{
	double budget_ns = target_ns;
	double ns_per_hop, hops;

	if (!(ticks_per_hop > 0) || !(tsc_hz > 0))
		return cp_latency_kernel_first_hops(multiple);
	ns_per_hop = ticks_per_hop * 1e9 / tsc_hz;
	if (max_irqoff_ns &&
	    (double)max_irqoff_ns * CP_LATENCY_KERNEL_WINDOW_SHARE < budget_ns)
		budget_ns = (double)max_irqoff_ns * CP_LATENCY_KERNEL_WINDOW_SHARE;
	hops = floor(budget_ns / ns_per_hop);
	if (!(hops >= 1))
		hops = 1;
	if (hops > CACHEPROBE_MAX_OPS)
		hops = CACHEPROBE_MAX_OPS;
	return cp_latency_kernel_multiple((uint64_t)hops, multiple);
}

uint32_t cp_latency_kernel_fewer_hops(uint32_t hops, uint32_t multiple)
{
	if (!multiple)
		multiple = 1;
	return hops > multiple ? cp_latency_kernel_multiple(hops / 2, multiple)
			       : 0;
}

double cp_latency_kernel_slowest(const struct cp_run_result *result)
{
	double slowest = 0;

	if (!result->ops || !result->nr_series)
		return 0;
	for (uint32_t s = 0; s < result->samples; s++) {
		double per = (double)result->series[0].values[s] /
			     (double)result->ops;

		if (per > slowest)
			slowest = per;
	}
	return slowest;
}

double *cp_latency_kernel_samples(const struct cp_run_result *result,
				  size_t *n)
{
	double *values;

	*n = 0;
	if (!result->samples || !result->ops || !result->nr_series)
		return NULL;
	values = malloc(result->samples * sizeof(*values));
	if (!values)
		return NULL;
	for (uint32_t s = 0; s < result->samples; s++)
		values[(*n)++] = (double)result->series[0].values[s] /
				 (double)result->ops;
	return values;
}

int cp_latency_kernel_fill(struct cp_measurement *m,
			   const struct cp_run_result *result, double tsc_hz)
{
	size_t n;
	double *values;

	if (!result->samples || !result->ops || !result->nr_series)
		return -EINVAL;
	values = cp_latency_kernel_samples(result, &n);
	if (!values)
		return -ENOMEM;
	m->count = result->ops;
	m->scale = 1;
	return cp_measurement_set_samples(m, values, n, tsc_hz);
}
