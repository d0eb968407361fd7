// SPDX-License-Identifier: GPL-2.0
#include "bounce_kernel.h"

#include <math.h>
#include <stdlib.h>

uint32_t cp_bounce_kernel_increments(double ticks_per_increment,
				     double tsc_hz, double target_ns,
				     uint64_t max_irqoff_ns)
{
	double ns_per_increment = ticks_per_increment * 1e9 / tsc_hz;
	double budget_ns = target_ns;
	double increments;

	if (max_irqoff_ns &&
	    (double)max_irqoff_ns * CP_BOUNCE_KERNEL_WINDOW_SHARE < budget_ns)
		budget_ns = (double)max_irqoff_ns * CP_BOUNCE_KERNEL_WINDOW_SHARE;
	if (!(ns_per_increment > 0))
		return CP_BOUNCE_KERNEL_FIRST_INCREMENTS;
	increments = floor(budget_ns / ns_per_increment);
	if (increments < 1)
		return 1;
	if (increments > CACHEPROBE_MAX_OPS)
		return CACHEPROBE_MAX_OPS;
	return (uint32_t)increments;
}

double cp_bounce_kernel_slowest(const struct cp_run_result *result)
{
	double slowest = 0;

	if (!result->ops)
		return 0;
	for (size_t c = 0; c < result->nr_series; c++)
		for (uint32_t s = 0; s < result->samples; s++) {
			double per = (double)result->series[c].values[s] /
				     (double)result->ops;

			if (per > slowest)
				slowest = per;
		}
	return slowest;
}

double *cp_bounce_kernel_samples(const struct cp_run_result *result,
				 double overhead_ticks, size_t *n)
{
	size_t count = (size_t)result->samples * result->nr_series;
	double *values;

	*n = 0;
	if (!count || !result->ops)
		return NULL;
	values = malloc(count * sizeof(*values));
	if (!values)
		return NULL;
	for (uint32_t s = 0; s < result->samples; s++)
		for (size_t c = 0; c < result->nr_series; c++)
			values[(*n)++] =
				((double)result->series[c].values[s] -
				 overhead_ticks) / (double)result->ops;
	return values;
}
