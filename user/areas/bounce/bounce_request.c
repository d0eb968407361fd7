// SPDX-License-Identifier: GPL-2.0
#include "areas/bounce/bounce_request.h"

#include <stdlib.h>

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
