// SPDX-License-Identifier: GPL-2.0
#include "areas/align/align_table.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "areas/align/align_layout.h"
#include "areas/align/align_results.h"
#include "stats/median_ratio.h"
#include "stats/stats.h"

static bool is_classic(const struct cp_measurement *m)
{
	return strcmp(m->area, "align") == 0 &&
	       strncmp(m->name, "classic ", 8) == 0 && m->nr_samples;
}

/* The offset-0 measurement of a sweep (not of a page pair). */
static bool is_row(const struct cp_measurement *m)
{
	return strcmp(m->area, "align") == 0 && !is_classic(m) &&
	       m->nr_samples &&
	       cp_measurement_param(m, "offset_bytes", -1) == 0 &&
	       cp_measurement_param(m, "stride_bytes", 0) != CP_ALIGN_PAGE;
}

/* "1.82 ns/4.1c" for @m, or "-". */
static void cost(const struct cp_measurement *m, char *out, size_t len)
{
	double ticks;

	if (!m) {
		snprintf(out, len, "-");
		return;
	}
	ticks = cp_stats_median(m->ticks, m->nr_samples);
	if (m->core_cycles_per_tick > 0)
		snprintf(out, len, "%.2f ns %.1fc", m->stats_ns.median,
			 ticks * m->core_cycles_per_tick);
	else
		snprintf(out, len, "%.2f ns", m->stats_ns.median);
}

/* "x1.62 [1.58,1.66]" of @m against @base, or "-". */
static void ratio(const struct cp_measurement *m,
		  const struct cp_measurement *base, char *out, size_t len)
{
	struct cp_ratio r;

	if (!m || !base || cp_ratio_of_medians(m->ns, m->nr_samples, base->ns,
					       base->nr_samples, &r))
		snprintf(out, len, "-");
	else
		snprintf(out, len, "x%.2f [%.2f,%.2f]", r.value, r.low, r.high);
}

static void print_row(FILE *out, const struct cp_results *results,
		      const struct cp_measurement *aligned)
{
	int64_t width = cp_measurement_param(aligned, "width_bytes", 0);
	int64_t line = cp_measurement_param(aligned, "line_bytes", 64);
	const struct cp_measurement *split = cp_align_find_offset(
		results, aligned,
		cp_align_line_split_offset((unsigned int)line,
					   (unsigned int)width));
	const struct cp_measurement *page0 = cp_align_find_stride(
		results, aligned, CP_ALIGN_PAGE, 0);
	const struct cp_measurement *page = cp_align_find_stride(
		results, aligned, CP_ALIGN_PAGE,
		cp_align_page_split_offset((unsigned int)width));
	char a[32], s[32], sr[40], p0[32], p[32], pr[40];

	cost(aligned, a, sizeof(a));
	cost(split, s, sizeof(s));
	ratio(split, aligned, sr, sizeof(sr));
	cost(page0, p0, sizeof(p0));
	cost(page, p, sizeof(p));
	ratio(page, page0, pr, sizeof(pr));
	fprintf(out, "  %-6s %8" PRId64 "K %-16.*s %3" PRId64 "B %15s %15s %-19s %15s %15s %s\n",
		aligned->mode,
		cp_measurement_param(aligned, "buffer_bytes", 0) >> 10,
		(int)strcspn(aligned->name, " "), aligned->name, width, a, s,
		sr, p0, p, pr);
}

static void print_lines(FILE *out, const struct cp_results *results)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		int64_t found = cp_measurement_param(m, "line_detected_bytes", -1);
		int64_t line = cp_measurement_param(m, "line_bytes", 0);

		if (!is_row(m) || found < 0)
			continue;
		fprintf(out, "  line size from the %.*s %" PRId64 "B sweep (%" PRId64 " KiB, %s): ",
			(int)strcspn(m->name, " "), m->name,
			cp_measurement_param(m, "width_bytes", 0),
			cp_measurement_param(m, "buffer_bytes", 0) >> 10,
			m->mode);
		if (found == 0)
			fprintf(out, "not detected (see warnings); the system reports %" PRId64 " B\n",
				line);
		else
			fprintf(out, "%" PRId64 " B; the system reports %" PRId64 " B%s\n",
				found, line,
				found == line ? "" : " -- THEY DIFFER");
	}
}

static void print_classic(FILE *out, const struct cp_results *results)
{
	const struct cp_measurement *shift[3] = { NULL, NULL, NULL };
	size_t n = 0;
	char r1[40], r2[40];

	for (size_t i = 0; i < results->nr_measurements && n < 3; i++)
		if (is_classic(&results->measurements[i]))
			shift[n++] = &results->measurements[i];
	if (n < 3)
		return;
	ratio(shift[2], shift[0], r2, sizeof(r2));
	ratio(shift[1], shift[0], r1, sizeof(r1));
	fprintf(out,
		"  classic pattern (sum p[0] and p[%" PRId64 "], step %" PRId64 " B, %" PRId64 " KiB buffer): base shifted by %" PRId64 " against 0: %s; by %" PRId64 ": %s\n",
		cp_measurement_param(shift[0], "line_bytes", 0) / 2,
		cp_measurement_param(shift[0], "step_bytes", 0),
		cp_measurement_param(shift[0], "buffer_bytes", 0) >> 10,
		cp_measurement_param(shift[2], "shift_bytes", 0), r2,
		cp_measurement_param(shift[1], "shift_bytes", 0), r1);
	for (size_t i = 0; i < 3; i++)
		fprintf(out, "    shift %2" PRId64 ": %s -- %s\n",
			cp_measurement_param(shift[i], "shift_bytes", 0),
			shift[i]->note,
			i == 0 ? "the baseline"
			: cp_measurement_param(shift[i], "lines_per_step", 1) > 1
				? "touches twice the lines; no load splits (1-byte loads)"
				: "misaligned but the same lines; no load splits");
}

void cli_print_align(FILE *out, const struct cp_results *results)
{
	bool any = false;

	for (size_t i = 0; i < results->nr_measurements && !any; i++)
		any = strcmp(results->measurements[i].area, "align") == 0;
	if (!any)
		return;
	fprintf(out, "\nalign: split against aligned accesses of the same width (median per access; ratio of medians, 95%% interval)\n");
	fprintf(out, "  %-6s %9s %-16s %4s %15s %15s %-19s %15s %15s %s\n",
		"mode", "buffer", "kind", "w", "aligned", "line split",
		"ratio", "page-aligned", "page split", "ratio");
	for (size_t i = 0; i < results->nr_measurements; i++)
		if (is_row(&results->measurements[i]))
			print_row(out, results, &results->measurements[i]);
	print_lines(out, results);
	print_classic(out, results);
}
