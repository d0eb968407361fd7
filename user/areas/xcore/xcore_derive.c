// SPDX-License-Identifier: GPL-2.0
/*
 * The transfer penalty: a pair's median ns per line against the same-CPU
 * baseline's (the producer's own cache serving the walk) for the same
 * block size, producer action, delay and mode, in thousandths.
 */
#include "areas/xcore/xcore_area.h"

#include <math.h>
#include <string.h>

static bool same_config(const struct cp_measurement *a,
			const struct cp_measurement *b, uint64_t size)
{
	return strcmp(a->area, "xcore") == 0 && strcmp(a->mode, b->mode) == 0 &&
	       cp_measurement_param(a, "size_bytes", -1) == (int64_t)size &&
	       cp_measurement_param(a, "modify", -1) ==
		       cp_measurement_param(b, "modify", -2) &&
	       cp_measurement_param(a, "delay", -1) ==
		       cp_measurement_param(b, "delay", -2);
}

static bool is_same_cpu(const struct cp_measurement *m)
{
	return cp_measurement_param(m, "producer", -1) ==
		       cp_measurement_param(m, "consumer", -2);
}

static const struct cp_measurement *
same_cpu_of(const struct cp_results *results, const struct cp_measurement *m,
	    uint64_t size)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *base = &results->measurements[i];

		if (same_config(base, m, size) && is_same_cpu(base) &&
		    base->nr_samples)
			return base;
	}
	return NULL;
}

void xcore_derive_penalties(struct cp_results *results, uint64_t size)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		struct cp_measurement *m = &results->measurements[i];
		const struct cp_measurement *base;

		if (strcmp(m->area, "xcore") != 0 || !m->nr_samples ||
		    cp_measurement_param(m, "size_bytes", -1) != (int64_t)size ||
		    cp_measurement_param(m, "pair_class", -1) < 0 ||
		    cp_measurement_param(m, "penalty_milli", -1) >= 0)
			continue;
		base = same_cpu_of(results, m, size);
		if (!base || base->stats_ns.median <= 0)
			continue;
		cp_measurement_add_param(m, "penalty_milli",
					 (int64_t)llround(1000 *
							  m->stats_ns.median /
							  base->stats_ns.median));
	}
}
