// SPDX-License-Identifier: GPL-2.0
/* The bounce area in the report: slowdown against the distance between
 * counters, one line per pair class (and counter width), one chart per
 * kind of increment, the coherence granularity marked. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "areas/bounce/bounce_granularity.h"
#include "report/report_area.h"
#include "report/svg_chart.h"

#define MAX_LINES 16
#define MAX_DISTANCES 64

/* A sweep: the rows sharing a name before " d=", e.g.
 * "shared-l3 0,1 atomic 4B". */
struct sweep {
	char name[64];
	int64_t atomic;
	int64_t granularity;	/* -1: bouncing never stopped */
	/* Slowdowns within the run's noise: no granularity, and why. */
	bool undetermined;
	char reason[160];
	size_t n;
	double distance[MAX_DISTANCES], slowdown[MAX_DISTANCES];
};

static bool is_sweep_row(const struct cp_measurement *m, const char *mode)
{
	return report_is(m, "bounce", mode) && m->nr_samples &&
	       cp_measurement_param(m, "distance_bytes", -1) >= 0 &&
	       cp_measurement_param(m, "slowdown_padded_milli", -1) >= 0;
}

static struct sweep *sweep_of(struct sweep *sweeps, size_t *n,
			      const struct cp_measurement *m)
{
	const char *mark = strstr(m->name, " d=");
	int len = mark ? (int)(mark - m->name) : (int)strlen(m->name);

	for (size_t i = 0; i < *n; i++)
		if ((int)strlen(sweeps[i].name) == len &&
		    strncmp(sweeps[i].name, m->name, (size_t)len) == 0)
			return &sweeps[i];
	if (*n == MAX_LINES)
		return NULL;
	memset(&sweeps[*n], 0, sizeof(sweeps[*n]));
	snprintf(sweeps[*n].name, sizeof(sweeps[*n].name), "%.*s", len,
		 m->name);
	sweeps[*n].atomic = cp_measurement_param(m, "atomic", 0);
	sweeps[*n].granularity = -1;
	return &sweeps[(*n)++];
}

/* The reason of @m's warning of an undetermined granularity, if any. */
static void note_reason(struct sweep *sweep, const struct cp_measurement *m)
{
	size_t prefix = strlen(CP_BOUNCE_UNDETERMINED_WARNING);

	for (size_t w = 0; w < m->nr_warnings && !*sweep->reason; w++)
		if (strncmp(m->warnings[w], CP_BOUNCE_UNDETERMINED_WARNING,
			    prefix) == 0)
			snprintf(sweep->reason, sizeof(sweep->reason), "%s",
				 m->warnings[w] + prefix);
}

static size_t collect(const struct cp_results *results, const char *mode,
		      struct sweep *sweeps)
{
	size_t n = 0;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		struct sweep *sweep;

		if (!is_sweep_row(m, mode))
			continue;
		sweep = sweep_of(sweeps, &n, m);
		if (!sweep || sweep->n == MAX_DISTANCES)
			continue;
		sweep->distance[sweep->n] =
			(double)cp_measurement_param(m, "distance_bytes", 0);
		sweep->slowdown[sweep->n++] =
			(double)cp_measurement_param(m, "slowdown_padded_milli",
						     0) / 1000;
		sweep->granularity = cp_measurement_param(
			m, "granularity_bytes", sweep->granularity);
		if (cp_measurement_param(m, "granularity_undetermined", 0) == 1)
			sweep->undetermined = true;
		note_reason(sweep, m);
	}
	return n;
}

/* The chart of the sweeps with increments of kind @atomic. */
static void chart(FILE *out, const char *mode, const struct sweep *sweeps,
		  size_t n, int64_t atomic)
{
	struct svg_series series[MAX_LINES];
	struct svg_marker markers[MAX_LINES];
	char labels[MAX_LINES][48], title[96];
	size_t nr_series = 0, nr_markers = 0;

	for (size_t i = 0; i < n; i++) {
		bool marked = false;

		if (sweeps[i].atomic != atomic)
			continue;
		series[nr_series++] = (struct svg_series){
			.name = sweeps[i].name, .n = sweeps[i].n,
			.x = sweeps[i].distance, .y = sweeps[i].slowdown,
		};
		if (sweeps[i].undetermined || sweeps[i].granularity <= 0)
			continue;
		for (size_t k = 0; k < nr_markers; k++)
			marked |= markers[k].x == (double)sweeps[i].granularity;
		if (marked)
			continue;
		snprintf(labels[nr_markers], sizeof(labels[0]),
			 "granularity %" PRId64 " B", sweeps[i].granularity);
		markers[nr_markers] = (struct svg_marker){
			.x = (double)sweeps[i].granularity,
			.label = labels[nr_markers] };
		nr_markers++;
	}
	if (!nr_series)
		return;
	snprintf(title, sizeof(title),
		 "%s increments: slowdown by distance (%s mode)",
		 atomic ? "Atomic" : "Plain", mode);
	svg_line_chart_write(out, &(struct svg_line_chart){
		.title = title,
		.x = { .label = "distance between counters (bytes)",
		       .format = SVG_FORMAT_BYTES, .from_zero = true },
		.y = { .label = "slowdown against padded counters (x)",
		       .from_zero = true },
		.nr_series = nr_series, .series = series,
		.nr_markers = nr_markers, .markers = markers,
	});
}

static void table(FILE *out, const char *mode, const struct sweep *sweeps,
		  size_t n)
{
	char caption[96];

	snprintf(caption, sizeof(caption),
		 "bounce, %s mode: slowdown against padded counters", mode);
	report_table_open(out, caption,
			  "group, increments, counter|slowdown by distance (bytes: x)|granularity");
	for (size_t i = 0; i < n; i++) {
		char cell[MAX_DISTANCES * 16] = "", granularity[192] = "none";

		for (size_t k = 0; k < sweeps[i].n; k++)
			snprintf(cell + strlen(cell),
				 sizeof(cell) - strlen(cell), "%s%.0f: %.2f",
				 k ? ", " : "", sweeps[i].distance[k],
				 sweeps[i].slowdown[k]);
		if (sweeps[i].undetermined)
			snprintf(granularity, sizeof(granularity),
				 "undetermined%s%s",
				 *sweeps[i].reason ? ": " : "",
				 sweeps[i].reason);
		else if (sweeps[i].granularity > 0)
			snprintf(granularity, sizeof(granularity),
				 "%" PRId64 " B", sweeps[i].granularity);
		report_row_open(out);
		report_cell(out, sweeps[i].name);
		report_cell(out, cell);
		report_cell(out, granularity);
		report_row_close(out);
	}
	report_table_close(out);
}

static void render(FILE *out, const struct cp_results *results,
		   const char *mode)
{
	struct sweep *sweeps = calloc(MAX_LINES, sizeof(*sweeps));
	size_t n;

	if (!sweeps)
		return;
	n = collect(results, mode, sweeps);
	chart(out, mode, sweeps, n, 0);
	chart(out, mode, sweeps, n, 1);
	if (n)
		table(out, mode, sweeps, n);
	free(sweeps);
}

const struct report_renderer report_bounce = {
	.area = "bounce",
	.question = "What does cache-line bouncing cost? Threads on different CPUs increment their own counters placed d bytes apart.",
	.render = render,
};
