/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When a measurement's samples do not support its median: warnings that
 * travel with the measurement into every output.
 */
#ifndef CACHEPROBE_STABILITY_H
#define CACHEPROBE_STABILITY_H

#include "harness/harness.h"
#include "results/results.h"

/* Above this coefficient of variation a result is called unstable. */
#define CP_UNSTABLE_CV 0.10
/* Median and mean further apart than this share of the median: skewed. */
#define CP_SKEWED_SHARE 0.10
/* A sample should span at least this many timer steps. */
#define CP_MIN_TIMER_STEPS 1000
/* Core clock readings before and after a measurement further apart than
 * this share: its core cycles are approximate. */
#define CP_CORE_CLOCK_DRIFT 0.05

/* Add the warnings @measurement deserves; @median_sample_ticks is the raw
 * length of one sample.  @harness gives the timer's step and whether the
 * count per sample was calibrated or fixed by --count, which decides the
 * advice for samples too short. */
void cp_stability_check(struct cp_measurement *measurement,
			double median_sample_ticks,
			const struct cp_harness *harness);

/* Warn when the core clock (cycles per TSC tick, 0 unknown) read @before
 * and @after the measurement moved by more than CP_CORE_CLOCK_DRIFT. */
void cp_stability_check_core_clock(struct cp_measurement *measurement,
				   double before, double after);

/* The same for a measurement whose median is per operation, @ops of them
 * per sample; and a warning when the module ran @retries samples again
 * because they overran its interrupt-off window (0 in user mode). */
void cp_stability_check_ops(struct cp_measurement *measurement, double ops,
			    unsigned int retries,
			    const struct cp_harness *harness);

/* Kernel mode: how the module's run behind @measurement went, as params
 * "missed_rounds" (rounds a partner CPU did not join in time) and
 * "disturbed_windows" (samples retaken after something the module cannot
 * see stretched their window), with a warning for each that is not 0. */
void cp_stability_note_kernel_run(struct cp_measurement *measurement,
				  unsigned int missed_rounds,
				  unsigned int disturbed);

#endif
