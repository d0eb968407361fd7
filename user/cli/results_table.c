// SPDX-License-Identifier: GPL-2.0
#include "cli/results_table.h"

#include <math.h>
#include <string.h>

#include "areas/area.h"
#include "util/format.h"
#include "stats/stats.h"

static void print_header(FILE *out, const struct cp_results *results)
{
	const struct cp_environment *env = &results->environment;

	fprintf(out,
		"clock: TSC %.4g GHz (%s%s), timer overhead %.0f ticks, step %.0f ticks\n",
		env->tsc_hz / 1e9, env->tsc_source,
		env->tsc_invariant ? ", invariant" : ", NOT invariant",
		results->timer_overhead_ticks,
		results->timer_granularity_ticks);
	fprintf(out,
		"harness: %u samples of about %s each; NOTHING floor %.3f ticks per iteration, subtracted\n",
		results->samples_requested,
		cp_format_ns(results->target_sample_ns, (char[32]){ 0 }, 32),
		results->nothing_ticks_per_iteration);
	if (results->interrupted)
		fprintf(out, "INTERRUPTED (%s): the results below are partial\n",
			results->interrupted_reason[0]
				? results->interrupted_reason
				: "no reason recorded");
}

/* The name column: 22 wide; for latency as wide as its longest name,
 * since its variants ("chase 8 KiB pages=4k chases=4 (kernel)") are read
 * down the column beside the classic rows. */
#define NAME_WIDTH 22

static int name_width(const struct cp_results *results, const char *area)
{
	size_t width = NAME_WIDTH;

	if (strcmp(area, "latency") != 0)
		return NAME_WIDTH;
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (strcmp(m->area, area) == 0 && m->nr_samples &&
		    strlen(m->name) > width)
			width = strlen(m->name);
	}
	return (int)width;
}

static void print_row(FILE *out, const struct cp_measurement *m, int width)
{
	const struct cp_stats *s = &m->stats_ns;
	double ticks = cp_stats_median(m->ticks, m->nr_samples);
	char median[32], low[32], high[32], cycles[32] = "-";

	if (m->core_cycles_per_tick > 0)
		snprintf(cycles, sizeof(cycles), "%.1f",
			 ticks * m->core_cycles_per_tick);
	fprintf(out, "  %-*s %10s  %10s..%-10s %9.2f %8s %6.1f%% %3zu%s\n",
		width, m->name, cp_format_ns(s->median, median, sizeof(median)),
		cp_format_ns(s->median_ci_low, low, sizeof(low)),
		cp_format_ns(s->median_ci_high, high, sizeof(high)), ticks,
		cycles, 100 * s->cv, m->nr_samples, m->nr_warnings ? " !" : "");
}

static void print_area(FILE *out, const struct cp_results *results,
		       const char *area)
{
	const char *note = "";
	int width = name_width(results, area);

	fprintf(out, "\n%s (per operation; median, 95%% interval of the median)\n",
		area);
	fprintf(out, "  %-*s %10s  %-22s %9s %8s %7s %3s\n", width, "measurement",
		"median", "interval", "TSC ticks", "cycles", "CV", "n");
	for (size_t i = 0, shown = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (strcmp(m->area, area) != 0 || !m->nr_samples)
			continue;
		/* A note that changes marks a boundary, e.g. past L1d. */
		if (m->note[0] && (!shown || strcmp(m->note, note) != 0))
			fprintf(out, "  -- %s\n", m->note);
		note = m->note;
		print_row(out, m, width);
		shown++;
	}
	for (size_t i = 0; i < results->nr_area_notes; i++)
		if (!strcmp(results->area_notes[i].area, area))
			fprintf(out, "  note: %s\n", results->area_notes[i].text);
}

static void print_levels(FILE *out, const struct cp_results *results)
{
	if (!results->nr_levels)
		return;
	fprintf(out, "\ncache levels seen by the latency curve\n");
	fprintf(out, "  %-7s %10s %10s %10s %9s %8s %12s\n", "level",
		"nominal", "effective", "latency", "ticks", "cycles",
		"threshold");
	for (size_t i = 0; i < results->nr_levels; i++) {
		const struct cp_level_estimate *level = &results->levels[i];
		char nominal[32] = "-", effective[32] = "-", latency[32];
		char cycles[32] = "-", threshold[32] = "-";

		if (level->nominal_bytes)
			cp_format_size(level->nominal_bytes, nominal,
				       sizeof(nominal));
		if (level->effective_bytes)
			cp_format_size(level->effective_bytes, effective,
				       sizeof(effective));
		if (level->latency_cycles > 0)
			snprintf(cycles, sizeof(cycles), "%.1f",
				 level->latency_cycles);
		if (level->threshold_ns > 0)
			cp_format_ns(level->threshold_ns, threshold,
				     sizeof(threshold));
		fprintf(out, "  %-7s %10s %10s %10s %9.2f %8s %12s\n",
			level->name, nominal, effective,
			cp_format_ns(level->latency_ns, latency,
				     sizeof(latency)),
			level->latency_ticks, cycles, threshold);
	}
}

static void print_warnings(FILE *out, const struct cp_results *results)
{
	bool first = true;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		for (size_t j = 0; j < m->nr_warnings; j++) {
			if (first)
				fprintf(out, "\nwarnings (! above)\n");
			first = false;
			fprintf(out, "  %s: %s: %s\n", m->area, m->name,
				m->warnings[j]);
		}
	}
}

void cli_print_results(FILE *out, const struct cp_results *results)
{
	print_header(out, results);
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const char *area = results->measurements[i].area;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(results->measurements[j].area, area) == 0;
		if (!seen)
			print_area(out, results, area);
		if (!seen && cp_area_find(area) && cp_area_find(area)->print)
			cp_area_find(area)->print(out, results);
	}
	print_levels(out, results);
	print_warnings(out, results);
}
