// SPDX-License-Identifier: GPL-2.0
#include "harness/harness_results.h"

int cp_measurement_take_samples(struct cp_measurement *m,
				struct cp_samples *samples, uint64_t scale,
				double tsc_hz)
{
	double *ticks = samples->ticks_per_op;

	m->count = samples->count;
	m->scale = scale;
	m->interrupted = samples->interrupted;
	m->preempted_retaken = samples->preempted_retaken;
	m->samples_per_round = samples->samples_per_round;
	samples->ticks_per_op = NULL;
	return cp_measurement_set_samples(m, ticks, samples->nr_samples,
					  tsc_hz);
}
