// SPDX-License-Identifier: GPL-2.0
/* The align area's tables in the report: what the charts show, as
 * numbers. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "util/format.h"
#include "areas/align/align_layout.h"
#include "areas/align/align_results.h"
#include "areas/align/report_align.h"
#include "report/report_area.h"

static void cell_bytes(FILE *out, int64_t bytes)
{
	char text[32];

	report_cell(out, cp_format_size(bytes > 0 ? (uint64_t)bytes : 0, text,
					sizeof(text)));
}

static void cell_median(FILE *out, const struct cp_measurement *m)
{
	report_cell_ns(out, m ? m->stats_ns.median : NAN);
}

/* One line sweep: aligned against the line split, and the page pair. */
static void split_row(FILE *out, const struct cp_results *results,
		      const struct align_sweep *sweep)
{
	const struct cp_measurement *line = cp_align_find_offset(
		results, sweep->base,
		cp_align_line_split_offset((unsigned int)sweep->line,
					   (unsigned int)sweep->width));
	const struct cp_measurement *page0 = cp_align_find_stride(
		results, sweep->base, CP_ALIGN_PAGE, 0);
	const struct cp_measurement *page = cp_align_find_stride(
		results, sweep->base, CP_ALIGN_PAGE,
		cp_align_page_split_offset((unsigned int)sweep->width));
	char width[16];

	snprintf(width, sizeof(width), "%" PRId64 " B", sweep->width);
	report_row_open(out);
	report_cell(out, sweep->kind);
	cell_bytes(out, sweep->buffer);
	report_cell(out, width);
	cell_median(out, sweep->base);
	cell_median(out, line);
	report_cell_ratio(out, line, sweep->base);
	cell_median(out, page0);
	cell_median(out, page);
	report_cell_ratio(out, page, page0);
	report_row_close(out);
}

static void split_table(FILE *out, const struct cp_results *results,
			const char *mode, const struct align_sweeps *sweeps)
{
	char caption[128];

	snprintf(caption, sizeof(caption),
		 "align, %s mode: split against aligned accesses of the same width (medians per access; ratio of medians, 95 %% interval)",
		 mode);
	report_table_open(out, caption,
			  "kind|buffer|width|aligned|line split|ratio|page-aligned|page split|ratio");
	for (size_t i = 0; i < sweeps->n; i++)
		if (!align_sweep_is_page(&sweeps->sweep[i]))
			split_row(out, results, &sweeps->sweep[i]);
	report_table_close(out);
}

static void line_table(FILE *out, const char *mode,
		       const struct align_sweeps *sweeps)
{
	bool any = false;
	char caption[96];

	for (size_t i = 0; i < sweeps->n; i++)
		any |= sweeps->sweep[i].detected >= 0;
	if (!any)
		return;
	snprintf(caption, sizeof(caption),
		 "align, %s mode: the line size read off the penalties", mode);
	report_table_open(out, caption,
			  "sweep|offsets|detected line|the system reports|verdict");
	for (size_t i = 0; i < sweeps->n; i++) {
		const struct align_sweep *sweep = &sweeps->sweep[i];
		char name[64], count[16], found[32] = "not determined";
		char buffer[32];

		if (sweep->detected < 0)
			continue;
		cp_format_size((uint64_t)sweep->buffer, buffer,
			       sizeof(buffer));
		snprintf(name, sizeof(name), "%s %" PRId64 " B, %s",
			 sweep->kind, sweep->width, buffer);
		snprintf(count, sizeof(count), "%zu", sweep->n);
		if (sweep->detected > 0)
			snprintf(found, sizeof(found), "%" PRId64 " B",
				 sweep->detected);
		report_row_open(out);
		report_cell(out, name);
		report_cell(out, count);
		report_cell(out, found);
		cell_bytes(out, sweep->line);
		report_cell(out, sweep->detected == 0 ? "see the warnings"
				 : sweep->detected == sweep->line ? "agree"
				 : "they differ");
		report_row_close(out);
	}
	report_table_close(out);
}

/* What each shift of the classic pattern shows. */
static const char *classic_effect(const struct cp_measurement *row,
				  size_t index)
{
	if (index == 0)
		return "the baseline";
	if (cp_measurement_param(row, "lines_per_step", 1) > 1)
		return "touches twice the lines: the larger working set, not a split load (1-byte loads never split)";
	return "misaligned but the same lines: no load splits";
}

static void classic_table(FILE *out, const struct cp_results *results,
			  const char *mode)
{
	const struct cp_measurement *rows[ALIGN_CLASSIC_SHIFTS];
	size_t n = align_classic_rows(results, mode, rows);
	char caption[160];

	if (!n)
		return;
	snprintf(caption, sizeof(caption),
		 "align, %s mode: the classic pattern (sum p[0] and p[%" PRId64 "], step %" PRId64 " B)",
		 mode, cp_measurement_param(rows[0], "line_bytes", 0) / 2,
		 cp_measurement_param(rows[0], "step_bytes", 0));
	report_table_open(out, caption,
			  "shift|lines touched (note)|per load|against shift 0|what it shows");
	for (size_t i = 0; i < n; i++) {
		char shift[16];

		snprintf(shift, sizeof(shift), "%" PRId64,
			 cp_measurement_param(rows[i], "shift_bytes", 0));
		report_row_open(out);
		report_cell(out, shift);
		report_cell(out, rows[i]->note);
		cell_median(out, rows[i]);
		if (i)
			report_cell_ratio(out, rows[i], rows[0]);
		else
			report_cell(out, "-");
		report_cell(out, classic_effect(rows[i], i));
		report_row_close(out);
	}
	report_table_close(out);
}

void align_tables(FILE *out, const struct cp_results *results,
		  const char *mode, const struct align_sweeps *sweeps)
{
	split_table(out, results, mode, sweeps);
	line_table(out, mode, sweeps);
	classic_table(out, results, mode);
}
