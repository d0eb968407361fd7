// SPDX-License-Identifier: GPL-2.0
/* The latency area in the report: latency against working-set size on
 * log axes with the cache sizes marked, and the levels read off it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/size_format.h"
#include "report/report_area.h"
#include "report/svg_chart.h"

#define SIZE_PARAM "size_bytes"

struct curve {
	size_t n;
	double *size, *median, *low, *high;
};

static void curve_free(struct curve *curve)
{
	free(curve->size);
	free(curve->median);
	free(curve->low);
	free(curve->high);
}

static int curve_collect(const struct cp_results *results, const char *mode,
			 struct curve *curve)
{
	size_t max = results->nr_measurements;

	*curve = (struct curve){ .size = report_nans(max),
				 .median = report_nans(max),
				 .low = report_nans(max),
				 .high = report_nans(max) };
	if (!curve->size || !curve->median || !curve->low || !curve->high)
		return -1;
	for (size_t i = 0; i < max; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		int64_t size = cp_measurement_param(m, SIZE_PARAM, -1);

		if (!report_is(m, "latency", mode) || size <= 0 ||
		    !m->nr_samples)
			continue;
		curve->size[curve->n] = (double)size;
		curve->median[curve->n] = m->stats_ns.median;
		curve->low[curve->n] = m->stats_ns.median_ci_low;
		curve->high[curve->n] = m->stats_ns.median_ci_high;
		curve->n++;
	}
	return 0;
}

/* Each cache's nominal size, labelled "L2 2 MiB". */
static size_t cache_markers(const struct cp_results *results,
			    struct svg_marker *markers, char labels[][48])
{
	size_t n = 0;

	for (size_t i = 0; i < results->nr_levels && n < CP_MAX_LEVELS; i++) {
		const struct cp_level_estimate *level = &results->levels[i];
		char size[32];

		if (!level->nominal_bytes)
			continue;
		snprintf(labels[n], 48, "%s %s", level->name,
			 cli_format_size(level->nominal_bytes, size,
					 sizeof(size)));
		markers[n] = (struct svg_marker){
			.x = (double)level->nominal_bytes, .label = labels[n] };
		n++;
	}
	return n;
}

static void chart(FILE *out, const struct cp_results *results,
		  const char *mode, const struct curve *curve)
{
	struct svg_marker markers[CP_MAX_LEVELS];
	char labels[CP_MAX_LEVELS][48];
	struct svg_series series = {
		.name = "median, 95 % interval", .n = curve->n,
		.x = curve->size, .y = curve->median,
		.y_low = curve->low, .y_high = curve->high,
	};
	char title[64];
	struct svg_line_chart line = {
		.title = title,
		.x = { .label = "working set (bytes, log scale)", .log = true,
		       .format = SVG_FORMAT_BYTES },
		.y = { .label = "latency per load (ns, log scale)",
		       .log = true, .format = SVG_FORMAT_NS },
		.nr_series = 1, .series = &series,
		.markers = markers,
		.nr_markers = cache_markers(results, markers, labels),
	};

	snprintf(title, sizeof(title),
		 "Load latency against working-set size (%s mode)", mode);
	svg_line_chart_write(out, &line);
}

static void levels_table(FILE *out, const struct cp_results *results)
{
	if (!results->nr_levels)
		return;
	report_table_open(out, "Cache levels read off the user-mode curve",
			  "level|nominal size|effective size|plateau|core cycles|slower than this: next level");
	for (size_t i = 0; i < results->nr_levels; i++) {
		const struct cp_level_estimate *level = &results->levels[i];
		char size[32], cycles[32] = "-";

		report_row_open(out);
		report_cell(out, level->name);
		report_cell(out, level->nominal_bytes
					 ? cli_format_size(level->nominal_bytes,
							   size, sizeof(size))
					 : "-");
		report_cell(out, level->effective_bytes
					 ? cli_format_size(level->effective_bytes,
							   size, sizeof(size))
					 : "-");
		report_cell_ns(out, level->latency_ns);
		if (level->latency_cycles > 0)
			snprintf(cycles, sizeof(cycles), "%.1f",
				 level->latency_cycles);
		report_cell(out, cycles);
		report_cell_ns(out, level->threshold_ns > 0
					    ? level->threshold_ns : NAN);
		report_row_close(out);
	}
	report_table_close(out);
}

static void render(FILE *out, const struct cp_results *results,
		   const char *mode)
{
	struct curve curve;

	if (curve_collect(results, mode, &curve) == 0)
		chart(out, results, mode, &curve);
	curve_free(&curve);
	if (strcmp(mode, "user") == 0)
		levels_table(out, results);
}

const struct report_renderer report_latency = {
	.area = "latency",
	.question = "How long does a load take as the working set grows past each cache? (dependent random pointer chase)",
	.render = render,
};
