// SPDX-License-Identifier: GPL-2.0
/* The line classifier's levels for the area's CPU (evict/line_calibrate.h). */
#include "areas/coldcache/coldcache.h"

#include <errno.h>
#include <stdio.h>

#include "evict/line_calibrate.h"

int cold_calibrate(struct cold_run *run, struct cp_error *error)
{
	char why[sizeof(error->msg)];
	int ret = cp_lines_calibrate(run->context->topology, run->cpu,
				     run->flush, run->context->options->seed,
				     CP_LINE_TIMER_CHASE, run->pages, &run->levels,
				     &run->calibration_floor, error);

	if (ret && ret != -EINTR) {
		snprintf(why, sizeof(why), "%s", error->msg);
		cp_error_set(error, -ret, "coldcache: %s", why);
	}
	return ret;
}
