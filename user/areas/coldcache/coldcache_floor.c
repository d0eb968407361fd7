// SPDX-License-Identifier: GPL-2.0
#include "areas/coldcache/coldcache_floor.h"

#include <string.h>

double cp_coldcache_floor_ns(const struct cp_results *results,
			     const char *mode)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (strcmp(m->area, "coldcache") == 0 &&
		    strcmp(m->mode, mode) == 0 &&
		    strcmp(m->name, "line timer floor") == 0 &&
		    m->nr_samples)
			return m->stats_ns.p95 - m->stats_ns.p5;
	}
	return 0;
}

bool cp_coldcache_under_floor(const struct cp_results *results,
			      const struct cp_measurement *pass)
{
	double floor = cp_coldcache_floor_ns(results, pass->mode);

	return floor > 0 && pass->stats_ns.median <= floor;
}
