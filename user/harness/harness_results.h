/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness's samples as a measurement of the results: what every area
 * that measures through cp_harness_measure keeps the same way.
 */
#ifndef CACHEPROBE_HARNESS_RESULTS_H
#define CACHEPROBE_HARNESS_RESULTS_H

#include <stdint.h>

#include "harness/harness.h"
#include "results/results.h"

/*
 * Give @samples to @m: iterations per sample, @scale operations per
 * iteration, whether they were interrupted or retaken, and the values
 * (@m owns them from now on, @samples is left without) at @tsc_hz.
 * 0 or -ENOMEM.
 */
int cp_measurement_take_samples(struct cp_measurement *m,
				struct cp_samples *samples, uint64_t scale,
				double tsc_hz);

#endif
