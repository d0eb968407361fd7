// SPDX-License-Identifier: GPL-2.0
#include "stability.h"

#include <math.h>

void cp_stability_check(struct cp_measurement *measurement,
			double median_sample_ticks,
			const struct cp_harness *harness)
{
	const struct cp_stats *stats = &measurement->stats_ns;
	double granularity_ticks = harness->clock->granularity_ticks;

	if (stats->count > 1 && stats->cv > CP_UNSTABLE_CV)
		cp_measurement_warn(measurement,
				    "unstable: CV %.1f %% (above %.0f %%); run on a quiet machine, pin CPUs or use --tune",
				    100 * stats->cv, 100 * CP_UNSTABLE_CV);
	if (stats->median != 0 &&
	    fabs(stats->mean - stats->median) / fabs(stats->median) >
		    CP_SKEWED_SHARE)
		cp_measurement_warn(measurement,
				    "skewed: mean %.3g ns is %.0f %% from median %.3g ns",
				    stats->mean,
				    100 * fabs(stats->mean - stats->median) /
					    fabs(stats->median),
				    stats->median);
	if (median_sample_ticks < CP_MIN_TIMER_STEPS * granularity_ticks)
		cp_measurement_warn(measurement,
				    "samples too short for the timer: %.0f ticks is under %d steps of %.0f; raise %s",
				    median_sample_ticks, CP_MIN_TIMER_STEPS,
				    granularity_ticks,
				    /* --sample-time does nothing once the
				     * count is fixed. */
				    harness->config.fixed_count
					    ? "--count" : "--sample-time");
	if (measurement->preempted_retaken >= measurement->nr_samples &&
	    measurement->nr_samples)
		cp_measurement_warn(measurement,
				    "busy CPU: %u samples were preempted and taken again, and some kept preemptions",
				    measurement->preempted_retaken);
	if (measurement->interrupted)
		cp_measurement_warn(measurement,
				    "interrupted: %zu samples taken",
				    measurement->nr_samples);
}

void cp_stability_check_ops(struct cp_measurement *measurement, double ops,
			    unsigned int retries,
			    const struct cp_harness *harness)
{
	cp_stability_check(measurement,
			   measurement->stats_ns.median *
				   harness->clock->tsc_hz / 1e9 * ops,
			   harness);
	if (retries)
		cp_measurement_warn(measurement,
				    "%u samples overran the module's interrupt-off window and were run again",
				    retries);
}

void cp_stability_note_kernel_run(struct cp_measurement *measurement,
				  unsigned int missed_rounds,
				  unsigned int disturbed)
{
	cp_measurement_add_param(measurement, "missed_rounds", missed_rounds);
	cp_measurement_add_param(measurement, "disturbed_windows", disturbed);
	if (missed_rounds)
		cp_measurement_warn(measurement,
				    "kernel mode: %u rounds missed (a partner CPU busy or descheduled)",
				    missed_rounds);
	if (disturbed)
		cp_measurement_warn(measurement,
				    "kernel mode: %u samples taken again after something the module cannot see (a hypervisor, an SMI) stretched their window",
				    disturbed);
}

void cp_stability_check_core_clock(struct cp_measurement *measurement,
				   double before, double after)
{
	if (before > 0 && after > 0 &&
	    (after > before * (1 + CP_CORE_CLOCK_DRIFT) ||
	     before > after * (1 + CP_CORE_CLOCK_DRIFT)))
		cp_measurement_warn(measurement,
				    "core clock moved during the measurement (%.3f then %.3f cycles per tick)",
				    before, after);
}
