// SPDX-License-Identifier: GPL-2.0
#include "machine/placement.h"

#include <stdio.h>

bool cp_placement_measured(const struct cp_placement_probe *probe)
{
	return probe->round_trip_ns[0] > 0;
}

static bool apart(double a, double b)
{
	return a > b * CP_PLACEMENT_FACTOR || b > a * CP_PLACEMENT_FACTOR;
}

bool cp_placement_mixed(const struct cp_placement_probe *probe)
{
	return cp_placement_measured(probe) && probe->round_trip_ns[1] > 0 &&
	       apart(probe->round_trip_ns[0], probe->round_trip_ns[1]);
}

bool cp_placement_moved(const struct cp_placement_probe *probe)
{
	return !probe->pooled_runs && cp_placement_mixed(probe);
}

/* The quickest and slowest readings of @probe (its end when measured). */
static void span(const struct cp_placement_probe *probe, double *low,
		 double *high)
{
	*low = *high = probe->round_trip_ns[0];
	if (probe->round_trip_ns[1] <= 0)
		return;
	if (probe->round_trip_ns[1] < *low)
		*low = probe->round_trip_ns[1];
	else
		*high = probe->round_trip_ns[1];
}

void cp_placement_pool_add(struct cp_placement_probe *pool,
			   const struct cp_placement_probe *run)
{
	double low, high, run_low, run_high;

	if (!cp_placement_measured(pool) || !cp_placement_measured(run) ||
	    pool->cpus[0] != run->cpus[0] || pool->cpus[1] != run->cpus[1]) {
		*pool = (struct cp_placement_probe){ .pooled_runs = 0 };
		return;
	}
	span(pool, &low, &high);
	span(run, &run_low, &run_high);
	pool->round_trip_ns[0] = run_low < low ? run_low : low;
	pool->round_trip_ns[1] = run_high > high ? run_high : high;
	pool->pooled_runs = (pool->pooled_runs ? pool->pooled_runs : 1) + 1;
}

bool cp_placements_differ(const struct cp_placement_probe *a,
			  const struct cp_placement_probe *b)
{
	double a_low, a_high, b_low, b_high;

	if (!cp_placement_measured(a) || !cp_placement_measured(b))
		return false;
	if (a->cpus[0] != b->cpus[0] || a->cpus[1] != b->cpus[1])
		return true;
	span(a, &a_low, &a_high);
	span(b, &b_low, &b_high);
	return b_low > a_high * CP_PLACEMENT_FACTOR ||
	       a_low > b_high * CP_PLACEMENT_FACTOR;
}

int cp_placement_format(const struct cp_placement_probe *probe, char *buf,
			size_t len)
{
	if (!cp_placement_measured(probe))
		return snprintf(buf, len, "not measured");
	if (probe->pooled_runs)
		return snprintf(buf, len, "%u:%u %.0f to %.0f ns over %u runs",
				probe->cpus[0], probe->cpus[1],
				probe->round_trip_ns[0],
				probe->round_trip_ns[1], probe->pooled_runs);
	if (probe->round_trip_ns[1] <= 0)
		return snprintf(buf, len, "%u:%u %.0f ns", probe->cpus[0],
				probe->cpus[1], probe->round_trip_ns[0]);
	return snprintf(buf, len, "%u:%u %.0f ns, then %.0f ns",
			probe->cpus[0], probe->cpus[1],
			probe->round_trip_ns[0], probe->round_trip_ns[1]);
}
