// SPDX-License-Identifier: GPL-2.0
#include "areas/latency/latency_kernel.h"

#include <errno.h>
#include <stdlib.h>

bool cp_latency_kernel_fits(uint64_t size, uint64_t max_buffer_bytes)
{
	return !max_buffer_bytes || size <= max_buffer_bytes;
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
