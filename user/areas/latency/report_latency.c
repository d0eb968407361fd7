// SPDX-License-Identifier: GPL-2.0
/* The latency area in the report: latency against working-set size on
 * log axes with the cache sizes marked, one curve per page size (the TLB
 * knee marked when 4 KiB pages were measured beside huge ones), the
 * overlap factor of several chases against one, and the levels read off
 * the curve (areas/latency/latency_derive.h says how knee and factor are found). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "areas/latency/latency_table.h"
#include "util/format.h"
#include "areas/latency/latency_derive.h"
#include "report/html_text.h"
#include "report/report_area.h"
#include "report/svg_chart.h"

#define MAX_PAGE_SIZES 3	/* 4k, 2m, 1g */
#define MAX_CHASE_COUNTS 16
/* The cache sizes and the knee. */
#define MAX_MARKERS (CP_MAX_LEVELS + 1)

/* One line of a chart: a series and the values it points to. */
struct line {
	char name[48];
	double x[CP_LATENCY_MAX_POINTS], y[CP_LATENCY_MAX_POINTS];
	double low[CP_LATENCY_MAX_POINTS], high[CP_LATENCY_MAX_POINTS];
};

static void line_from_curve(const struct cp_latency_curve *curve,
			    struct line *line, struct svg_series *series)
{
	for (size_t i = 0; i < curve->n; i++) {
		const struct cp_stats *s = &curve->points[i]->stats_ns;

		line->x[i] = (double)curve->size_bytes[i];
		line->y[i] = s->median;
		line->low[i] = s->median_ci_low;
		line->high[i] = s->median_ci_high;
	}
	*series = (struct svg_series){
		.name = line->name, .n = curve->n, .x = line->x, .y = line->y,
		.y_low = line->low, .y_high = line->high,
	};
}

/* The single-chase curve of each page size measured in @mode; returns
 * how many, their series in @series. */
static size_t page_curves(const struct cp_results *results, const char *mode,
			  struct line *lines, struct svg_series *series)
{
	int64_t pages[MAX_PAGE_SIZES];
	size_t nr_pages = cp_latency_page_sizes(results, mode, pages,
						MAX_PAGE_SIZES);
	struct cp_latency_curve curve;
	size_t n = 0;

	for (size_t i = 0; i < nr_pages; i++) {
		char size[32];

		if (!cp_latency_curve_collect(results, mode, pages[i], 1,
					      &curve))
			continue;
		snprintf(lines[n].name, sizeof(lines[n].name), "%s pages",
			 cp_format_size((uint64_t)pages[i], size,
					sizeof(size)));
		line_from_curve(&curve, &lines[n], &series[n]);
		n++;
	}
	/* One curve, as every run before the page choice: named as then. */
	if (n == 1)
		snprintf(lines[0].name, sizeof(lines[0].name),
			 "median, 95 %% interval");
	return n;
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
			 cp_format_size(level->nominal_bytes, size,
					sizeof(size)));
		markers[n] = (struct svg_marker){
			.x = (double)level->nominal_bytes, .label = labels[n] };
		n++;
	}
	return n;
}

/* "TLB knee 256 KiB" ("TLB knee <= ..." when slower from the first size
 * compared) after the cache markers; returns the markers' count. */
static size_t knee_marker(const struct cp_tlb_reach *reach,
			  struct svg_marker *markers, char labels[][48],
			  size_t n)
{
	char size[32];

	if (reach->verdict != CP_TLB_KNEE)
		return n;
	snprintf(labels[n], 48, "TLB knee %s%s",
		 reach->knee_at_first ? "<= " : "",
		 cp_format_size(reach->knee_bytes, size, sizeof(size)));
	markers[n] = (struct svg_marker){ .x = (double)reach->knee_bytes,
					  .label = labels[n] };
	return n + 1;
}

static void latency_chart(FILE *out, const struct cp_results *results,
			  const char *mode, const struct cp_tlb_reach *reach)
{
	struct line *lines = calloc(MAX_PAGE_SIZES, sizeof(*lines));
	struct svg_series series[MAX_PAGE_SIZES];
	struct svg_marker markers[MAX_MARKERS];
	char labels[MAX_MARKERS][48];
	char title[64];
	struct svg_line_chart chart = {
		.title = title,
		.x = { .label = "working set (bytes, log scale)", .log = true,
		       .format = SVG_FORMAT_BYTES },
		.y = { .label = "latency per load (ns, log scale)",
		       .log = true, .format = SVG_FORMAT_NS },
		.series = series,
		.markers = markers,
	};

	if (!lines)
		return;
	chart.nr_series = page_curves(results, mode, lines, series);
	chart.nr_markers = knee_marker(reach, markers, labels,
				       cache_markers(results, markers, labels));
	snprintf(title, sizeof(title),
		 "Load latency against working-set size (%s mode)", mode);
	svg_line_chart_write(out, &chart);
	free(lines);
}

/* The verdict in words, when 4 KiB pages were measured or asked about. */
static void tlb_verdict(FILE *out, const struct cp_results *results,
			const char *mode, const struct cp_tlb_reach *reach)
{
	struct cp_latency_curve small;
	char text[320];

	if (reach->verdict == CP_TLB_NOT_MEASURED &&
	    !cp_latency_curve_collect(results, mode,
				      CP_LATENCY_SMALL_PAGE_BYTES, 1, &small))
		return;
	fputs("<p>", out);
	html_printf(out, "TLB reach (4 KiB pages): %s.",
		    cli_tlb_reach_text(reach, text, sizeof(text)));
	fputs("</p>\n", out);
}

/* Overlap factor against working set, one line per chase count (1: the
 * reference, 1 everywhere). */
static void overlap_chart(FILE *out, const struct cp_overlap_curve *curves,
			  size_t nr_curves, const char *mode,
			  int64_t page_bytes)
{
	struct line *lines = calloc(nr_curves, sizeof(*lines));
	struct svg_series series[MAX_CHASE_COUNTS];
	char title[96], pages[32];
	struct svg_line_chart chart = {
		.title = title,
		.x = { .label = "working set (bytes, log scale)", .log = true,
		       .format = SVG_FORMAT_BYTES },
		.y = { .label = "overlap factor (1 chase's ns per load / N's)",
		       .format = SVG_FORMAT_NUMBER, .from_zero = true },
		.nr_series = nr_curves, .series = series,
	};

	if (!lines)
		return;
	for (size_t c = 0; c < nr_curves; c++) {
		const struct cp_overlap_curve *curve = &curves[c];

		snprintf(lines[c].name, sizeof(lines[c].name), "%" PRId64 " chase%s",
			 curve->chases, curve->chases == 1 ? "" : "s");
		for (size_t i = 0; i < curve->n; i++) {
			lines[c].x[i] = (double)curve->points[i].size_bytes;
			lines[c].y[i] = curve->points[i].factor;
		}
		series[c] = (struct svg_series){ .name = lines[c].name,
						 .n = curve->n,
						 .x = lines[c].x,
						 .y = lines[c].y };
	}
	snprintf(title, sizeof(title),
		 "Overlap factor of N chases against one (%s pages, %s mode)",
		 cp_format_size((uint64_t)page_bytes, pages, sizeof(pages)),
		 mode);
	svg_line_chart_write(out, &chart);
	free(lines);
}

/* Per chase count, the factor at its largest working set: memory. */
static void overlap_table(FILE *out, const struct cp_overlap_curve *curves,
			  size_t nr_curves, int64_t page_bytes)
{
	char caption[96], pages[32];

	snprintf(caption, sizeof(caption),
		 "Overlap factor at the largest working set (%s pages)",
		 cp_format_size((uint64_t)page_bytes, pages, sizeof(pages)));
	report_table_open(out, caption,
			  "chases|working set|ns per load, 1 chase|ns per load, N chases|overlap factor");
	for (size_t c = 0; c < nr_curves; c++) {
		const struct cp_overlap_point *last =
			&curves[c].points[curves[c].n - 1];
		char text[32];

		if (curves[c].chases == 1)
			continue;
		report_row_open(out);
		snprintf(text, sizeof(text), "%" PRId64, curves[c].chases);
		report_cell(out, text);
		report_cell(out, cp_format_size(last->size_bytes, text,
						sizeof(text)));
		report_cell_ns(out, last->single_ns);
		report_cell_ns(out, last->parallel_ns);
		snprintf(text, sizeof(text), "%.2f", last->factor);
		report_cell(out, text);
		report_row_close(out);
	}
	report_table_close(out);
}

/* The chart and table of the chases on @page_bytes, when more than one
 * chase was followed at once on them. */
static void overlap(FILE *out, const struct cp_results *results,
		    const char *mode, int64_t page_bytes)
{
	int64_t chases[MAX_CHASE_COUNTS];
	size_t n = cp_latency_chase_counts(results, mode, page_bytes, chases,
					   MAX_CHASE_COUNTS);
	struct cp_overlap_curve *curves;
	size_t nr_curves = 0;

	if (!n || chases[n - 1] <= 1)
		return;
	curves = calloc(n, sizeof(*curves));
	if (!curves)
		return;
	for (size_t k = 0; k < n; k++)
		if (cp_latency_overlap(results, mode, page_bytes, chases[k],
				       &curves[nr_curves]))
			nr_curves++;
	/* The reference alone is no comparison. */
	if (nr_curves > 1) {
		overlap_chart(out, curves, nr_curves, mode, page_bytes);
		overlap_table(out, curves, nr_curves, page_bytes);
	}
	free(curves);
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
					 ? cp_format_size(level->nominal_bytes,
							  size, sizeof(size))
					 : "-");
		report_cell(out, level->effective_bytes
					 ? cp_format_size(level->effective_bytes,
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
	struct cp_tlb_reach *reach = calloc(1, sizeof(*reach));
	int64_t pages[MAX_PAGE_SIZES];
	size_t nr_pages = cp_latency_page_sizes(results, mode, pages,
						MAX_PAGE_SIZES);

	if (reach) {
		cp_latency_tlb_reach(results, mode, reach);
		latency_chart(out, results, mode, reach);
		tlb_verdict(out, results, mode, reach);
	}
	free(reach);
	for (size_t i = 0; i < nr_pages; i++)
		overlap(out, results, mode, pages[i]);
	if (strcmp(mode, "user") == 0)
		levels_table(out, results);
}

const struct report_renderer report_latency = {
	.area = "latency",
	.question = "How long does a load take as the working set grows past each cache? (dependent random pointer chase)",
	.render = render,
};
