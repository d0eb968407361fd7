// SPDX-License-Identifier: GPL-2.0
#include "harness/stability.h"

#include <math.h>

#include "harness/rounds.h"
#include "stats/stats.h"

/* The median of the rounds' CVs (rounds of two samples or more): the
 * machine's noise without the arrangements' spread; NAN without rounds. */
static double within_round_cv(const struct cp_measurement *m)
{
	size_t rounds = cp_rounds_count(m->nr_samples, m->samples_per_round);
	double cvs[CP_ROUNDS_MAX];
	size_t n = 0;

	for (size_t r = 0; rounds >= 2 && r < rounds && n < CP_ROUNDS_MAX;
	     r++) {
		size_t first = r * m->samples_per_round;
		size_t count = m->nr_samples - first < m->samples_per_round
				       ? m->nr_samples - first
				       : m->samples_per_round;
		struct cp_stats round;

		if (count >= 2 &&
		    !cp_stats_summarize(m->ns + first, count, &round))
			cvs[n++] = round.cv;
	}
	return n ? cp_stats_median(cvs, n) : NAN;
}

/*
 * Samples in rounds: unstable is the noise inside a round; the spread of
 * the rounds' medians (the arrangements', and the machine's from one
 * moment to a later one) is said apart: it belongs in the figure's
 * interval, and a quiet machine does not remove all of it.
 */
static void check_spread(struct cp_measurement *measurement)
{
	const struct cp_stats *stats = &measurement->stats_ns;
	size_t rounds = cp_rounds_count(measurement->nr_samples,
					measurement->samples_per_round);
	double cv = within_round_cv(measurement);
	double medians[CP_ROUNDS_MAX], low, high;

	if (isnan(cv)) {
		if (stats->count > 1 && stats->cv > CP_UNSTABLE_CV)
			cp_measurement_warn(measurement,
					    "unstable: CV %.1f %% (above %.0f %%); run on a quiet machine, pin CPUs or use --tune",
					    100 * stats->cv, 100 * CP_UNSTABLE_CV);
		return;
	}
	if (cv > CP_UNSTABLE_CV)
		cp_measurement_warn(measurement,
				    "unstable: CV %.1f %% within a round (above %.0f %%); run on a quiet machine, pin CPUs or use --tune",
				    100 * cv, 100 * CP_UNSTABLE_CV);
	if (rounds > CP_ROUNDS_MAX || !stats->median)
		return;
	cp_rounds_medians(measurement->ns, measurement->nr_samples,
			  measurement->samples_per_round, medians);
	low = high = medians[0];
	for (size_t r = 1; r < rounds; r++) {
		low = medians[r] < low ? medians[r] : low;
		high = medians[r] > high ? medians[r] : high;
	}
	if ((high - low) / fabs(stats->median) > CP_UNSTABLE_CV)
		cp_measurement_warn(measurement,
				    "rounds differ: the %zu rounds' medians span %.0f %% of the median (each round a new buffer and a later moment: placement, or the core clock); the interval holds it",
				    rounds, 100 * (high - low) / fabs(stats->median));
}

void cp_stability_check(struct cp_measurement *measurement,
			double median_sample_ticks,
			const struct cp_harness *harness)
{
	const struct cp_stats *stats = &measurement->stats_ns;
	double granularity_ticks = harness->clock->granularity_ticks;

	check_spread(measurement);
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
