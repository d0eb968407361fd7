// SPDX-License-Identifier: GPL-2.0
/* The align area's offset sweeps, gathered from a run's results for the
 * report's charts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "areas/align/align_layout.h"
#include "areas/align/align_results.h"
#include "stats/median_ratio.h"
#include "areas/align/report_align.h"
#include "report/report_area.h"

static bool is_access(const struct cp_measurement *m, const char *mode)
{
	return report_is(m, "align", mode) && m->nr_samples &&
	       strncmp(m->name, "classic ", 8) != 0 &&
	       cp_measurement_param(m, "offset_bytes", -1) >= 0;
}

bool align_sweep_is_page(const struct align_sweep *sweep)
{
	return sweep->stride == CP_ALIGN_PAGE;
}

bool align_sweep_is_swept(const struct align_sweep *sweep)
{
	return sweep->n >= 3;
}

static struct align_sweep *sweep_find(struct align_sweeps *sweeps,
				      const struct cp_measurement *base)
{
	for (size_t i = 0; i < sweeps->n; i++)
		if (sweeps->sweep[i].base == base)
			return &sweeps->sweep[i];
	return NULL;
}

/* A new sweep whose offset 0 is @base, with room for @capacity points;
 * NULL without memory.  There must be room for it in @sweeps. */
static struct align_sweep *sweep_open(struct align_sweeps *sweeps,
				      const struct cp_measurement *base,
				      size_t capacity)
{
	struct align_sweep *sweep = &sweeps->sweep[sweeps->n];

	*sweep = (struct align_sweep){
		.base = base,
		.width = cp_measurement_param(base, "width_bytes", 0),
		.stride = cp_measurement_param(base, "stride_bytes", 0),
		.buffer = cp_measurement_param(base, "buffer_bytes", 0),
		.line = cp_measurement_param(base, "line_bytes", 0),
		.detected = cp_measurement_param(base, "line_detected_bytes",
						 -1),
		.offset = report_nans(capacity), .ratio = report_nans(capacity),
		.low = report_nans(capacity), .high = report_nans(capacity),
		.split = calloc(capacity ? capacity : 1, sizeof(int64_t)),
	};
	snprintf(sweep->kind, sizeof(sweep->kind), "%.*s",
		 (int)strcspn(base->name, " "), base->name);
	sweeps->n++;
	if (!sweep->offset || !sweep->ratio || !sweep->low || !sweep->high ||
	    !sweep->split)
		return NULL;
	return sweep;
}

/* Insert @m in offset order (sweeps are short; the results are usually in
 * order already). */
static void add_point(struct align_sweep *sweep, const struct cp_measurement *m)
{
	double offset = (double)cp_measurement_param(m, "offset_bytes", 0);
	struct cp_ratio r = { .value = 1, .low = NAN, .high = NAN };
	size_t at = sweep->n;

	if (m != sweep->base &&
	    cp_ratio_of_medians(m->ns, m->nr_samples, sweep->base->ns,
				sweep->base->nr_samples, &r))
		return;
	for (; at > 0 && sweep->offset[at - 1] > offset; at--) {
		sweep->offset[at] = sweep->offset[at - 1];
		sweep->ratio[at] = sweep->ratio[at - 1];
		sweep->low[at] = sweep->low[at - 1];
		sweep->high[at] = sweep->high[at - 1];
		sweep->split[at] = sweep->split[at - 1];
	}
	sweep->offset[at] = offset;
	sweep->ratio[at] = r.value;
	sweep->low[at] = r.low;
	sweep->high[at] = r.high;
	sweep->split[at] = cp_measurement_param(m, "split", 0);
	sweep->n++;
}

int align_sweeps_collect(const struct cp_results *results, const char *mode,
			 struct align_sweeps *sweeps)
{
	size_t capacity = 0;

	sweeps->n = 0;
	for (size_t i = 0; i < results->nr_measurements; i++)
		capacity += is_access(&results->measurements[i], mode);
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		const struct cp_measurement *base;
		struct align_sweep *sweep;

		if (!is_access(m, mode))
			continue;
		base = cp_align_find_offset(results, m, 0);
		if (!base || !base->nr_samples)
			continue;
		sweep = sweep_find(sweeps, base);
		/* More sweeps than a page can show: the table has them. */
		if (!sweep && sweeps->n == ALIGN_MAX_SWEEPS)
			continue;
		if (!sweep)
			sweep = sweep_open(sweeps, base, capacity);
		if (!sweep)
			return -1;
		add_point(sweep, m);
	}
	return 0;
}

void align_sweeps_free(struct align_sweeps *sweeps)
{
	for (size_t i = 0; i < sweeps->n; i++) {
		free(sweeps->sweep[i].offset);
		free(sweeps->sweep[i].ratio);
		free(sweeps->sweep[i].low);
		free(sweeps->sweep[i].high);
		free(sweeps->sweep[i].split);
	}
	sweeps->n = 0;
}
