// SPDX-License-Identifier: GPL-2.0
#include "areas/c2c/c2c_round_trip.h"

#include <errno.h>
#include <math.h>

#include "areas/c2c/c2c_pingpong.h"
#include "harness/interrupt.h"

/* Round trips a sample: its 16 lines (CP_C2C_LINES_PER_SAMPLE) are fresh
 * pages, and with one round trip each the first touches are most of the
 * time (a 16-trip probe read 80 ns where c2c read 62, 335 where it read
 * 216); with 16 each, tens of microseconds on hardware. */
#define ROUND_TRIP_TRIPS 256
#define ROUND_TRIP_SAMPLES 9
/* Samples taken at least: one sample stalled by a preemption must not
 * pass for a placement. */
#define ROUND_TRIP_LEAST 3
/* No sample past ROUND_TRIP_LEAST starts after this. */
#define ROUND_TRIP_BUDGET_NS 2e6
/* A probe still under way after this gives up, unmeasured: a responder
 * that does not answer must not hold the run, and under emulation, where
 * a round trip can take a millisecond, there is no placement to see. */
#define ROUND_TRIP_GIVE_UP_NS 50e6

static double give_up_at_ns;

static bool give_up(void)
{
	return cp_interrupt_requested() ||
	       cp_clock_monotonic_ns() > give_up_at_ns;
}

/* The quickest sample's round trip: a preemption or a host's stall only
 * ever adds time, and the placement is in the quickest. */
static double quickest_trip_ticks(const uint64_t *ticks, unsigned int n,
				  double overhead_ticks)
{
	double quickest = INFINITY;

	for (unsigned int i = 0; i < n; i++)
		quickest = fmin(quickest,
				cp_c2c_trip_ticks(ticks[i], overhead_ticks,
						  ROUND_TRIP_TRIPS));
	return quickest;
}

int cp_c2c_round_trip_ns(const struct cp_topology *topology, unsigned int a,
			 unsigned int b, const struct cp_clock *clock,
			 double *ns)
{
	struct cp_c2c_job job = {
		.initiator = a, .responder = b, .variant = CP_C2C_CAS,
		.round_trips = ROUND_TRIP_TRIPS,
		.samples = ROUND_TRIP_SAMPLES, .least = ROUND_TRIP_LEAST,
	};
	uint64_t ticks[ROUND_TRIP_SAMPLES];
	struct cp_c2c_placement placement;
	struct cp_c2c_pinger *pinger;
	unsigned int taken = 0, failed_cpu;
	int ret;

	if (!(clock->tsc_hz > 0))
		return -EINVAL;
	ret = cp_c2c_pinger_start(topology, &pinger);
	if (ret)
		return ret;
	job.deadline_tsc = cp_clock_stop() +
		(uint64_t)(ROUND_TRIP_BUDGET_NS * clock->tsc_hz / 1e9);
	give_up_at_ns = cp_clock_monotonic_ns() + ROUND_TRIP_GIVE_UP_NS;
	ret = cp_c2c_pinger_run(pinger, &job, ticks, NULL, &placement, &taken,
				&failed_cpu, give_up);
	cp_c2c_pinger_stop(pinger);
	if (ret == -EINTR && !cp_interrupt_requested())
		return -ETIMEDOUT;
	if (ret)
		return ret;
	if (taken < ROUND_TRIP_LEAST)
		return -EIO;
	*ns = quickest_trip_ticks(ticks, taken, clock->overhead_ticks) * 1e9 /
	      clock->tsc_hz;
	return *ns > 0 && isfinite(*ns) ? 0 : -EIO;
}
