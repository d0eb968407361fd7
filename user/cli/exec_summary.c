// SPDX-License-Identifier: GPL-2.0
#include "cli/exec_summary.h"

#include <math.h>
#include <string.h>

#include "cli/cli_util.h"
#include "util/format.h"

static void print_series(FILE *out, const struct exec_summary *summary)
{
	const struct exec_series *series = summary->series;

	if (series->kinds == EXEC_BOTH)
		fprintf(out,
			"exec: %zu cold and %zu warm run%s of '%s', alternating, cold first\n",
			series->runs, series->runs,
			series->runs == 1 ? "" : "s", summary->command);
	else
		fprintf(out, "exec: %zu %s run%s of '%s'\n", series->runs,
			exec_kind_name(exec_series_kind(series, 0)),
			series->runs == 1 ? "" : "s", summary->command);
}

static void print_eviction(FILE *out, const struct exec_summary *summary)
{
	const struct exec_eviction *eviction = summary->eviction;
	char size[32];

	if (!eviction)
		return;
	fprintf(out, "eviction: %s on %s%s", eviction->name,
		summary->cpus ? "CPUs " : "the CPUs this process may use",
		summary->cpus ? summary->cpus : "");
	if (eviction->garbage_bytes)
		fprintf(out, ", %s read each time",
			cp_format_size(eviction->garbage_bytes, size,
				       sizeof(size)));
	fputc('\n', out);
	if (eviction->reason && eviction->reason[0])
		cli_print_line(out, 4, "  why %s: %s", eviction->name,
			       eviction->reason);
}

static void print_stop(FILE *out, const struct exec_summary *summary)
{
	size_t measured = exec_series_measured(summary->series);

	if (summary->series->stop == EXEC_STOP_NONE)
		return;
	fprintf(out, "STOPPED: %s; below, the %zu run%s measured before\n",
		summary->stop_reason, measured, measured == 1 ? "" : "s");
}

static void print_row(FILE *out, const struct cp_results *results,
		      const char *name)
{
	const struct cp_measurement *m = cp_results_find(results, EXEC_AREA,
							 name);
	char median[32], low[32], high[32], min[32], max[32];

	if (!m)
		return;
	fprintf(out, "  %-10s %10s  %10s..%-10s %10s %10s %5zu\n", name,
		cp_format_ns(m->stats_ns.median, median, sizeof(median)),
		cp_format_ns(m->stats_ns.median_ci_low, low, sizeof(low)),
		cp_format_ns(m->stats_ns.median_ci_high, high, sizeof(high)),
		cp_format_ns(m->stats_ns.min, min, sizeof(min)),
		cp_format_ns(m->stats_ns.max, max, sizeof(max)),
		m->nr_samples);
}

static void print_table(FILE *out, const struct exec_summary *summary)
{
	static const char *const rows[] = {
		"cold wall", "cold user", "cold sys", "warm wall",
		"warm user", "warm sys", "evict",
	};

	if (!summary->results->nr_measurements)
		return;
	fprintf(out, "  %-10s %10s  %-22s %10s %10s %5s\n", "", "median",
		"95% interval of median", "min", "max", "runs");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		print_row(out, summary->results, rows[i]);
}

static void print_contrast(FILE *out, const struct exec_contrast *contrast)
{
	const struct cp_ratio_interval *ratio = &contrast->ratio;

	if (!contrast->valid)
		return;
	fprintf(out, "cold/warm wall: x%.3f", ratio->estimate);
	if (ratio->low > 0 && isfinite(ratio->high))
		fprintf(out, ", %.0f%% interval x%.3f..x%.3f",
			100 * EXEC_CONFIDENCE, ratio->low, ratio->high);
	else
		fprintf(out, " (too few runs for a %.0f%% interval)",
			100 * EXEC_CONFIDENCE);
	fprintf(out, "; Mann-Whitney p = %.2g (%s)\n", contrast->p_value,
		contrast->exact ? "exact" : "normal approximation");
}

void exec_summary_print(FILE *out, const struct exec_summary *summary)
{
	print_series(out, summary);
	print_eviction(out, summary);
	print_stop(out, summary);
	print_table(out, summary);
	print_contrast(out, summary->contrast);
}
