// SPDX-License-Identifier: GPL-2.0
#include "cli/summary_table.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "cli/cli_util.h"
#include "results/summary.h"
#include "util/format.h"

#define WIDTH 80
#define INDENT 4

/* " [95 %: LOW to HIGH]" in @f's unit, or "" without an interval. */
static void interval_text(const struct cp_finding *f, char *out, size_t len)
{
	char low[32], high[32];
	bool factor = strcmp(f->unit, "x") == 0;

	out[0] = '\0';
	if (!isfinite(f->low) || !isfinite(f->high))
		return;
	if (strcmp(f->unit, "ns") == 0) {
		cp_format_ns(f->low, low, sizeof(low));
		cp_format_ns(f->high, high, sizeof(high));
	} else {
		snprintf(low, sizeof(low), "%.3g", f->low);
		snprintf(high, sizeof(high), "%.3g%s%s", f->high,
			 factor ? "" : " ", factor ? "" : f->unit);
	}
	snprintf(out, len, " [95 %%: %s to %s]", low, high);
}

static void print_finding(FILE *out, const struct cp_finding *f)
{
	char line[320], interval[80];

	interval_text(f, interval, sizeof(interval));
	snprintf(line, sizeof(line), "%s: %s%s", f->topic, f->answer,
		 interval);
	fprintf(out, "  ");
	cli_print_wrapped(out, line, 2, WIDTH, INDENT);
}

void cli_print_summary(FILE *out, const struct cp_results *results)
{
	struct cp_summary summary;
	char line[sizeof(summary.doubts[0]) + 16];

	cp_summary_build(results, &summary);
	fprintf(out, "summary\n");
	for (size_t i = 0; i < summary.nr_findings; i++)
		print_finding(out, &summary.findings[i]);
	for (size_t i = 0; i < summary.nr_doubts; i++) {
		snprintf(line, sizeof(line), "doubt: %s", summary.doubts[i]);
		fprintf(out, "  ");
		cli_print_wrapped(out, line, 2, WIDTH, INDENT);
	}
	fprintf(out, "\n");
}

/* What the console's line for @area counts. */
struct area_count {
	size_t measurements, warned, notes;
	bool user, kernel;
};

static struct area_count count_area(const struct cp_results *results,
				    const char *area)
{
	struct area_count count = { 0 };

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (strcmp(m->area, area) != 0)
			continue;
		count.measurements++;
		count.warned += m->nr_warnings > 0;
		count.user |= strcmp(m->mode, "user") == 0;
		count.kernel |= strcmp(m->mode, "kernel") == 0;
	}
	for (size_t i = 0; i < results->nr_area_notes; i++)
		count.notes += strcmp(results->area_notes[i].area, area) == 0;
	return count;
}

/* Whether @area came before measurement @index (its line is printed). */
static bool seen_before(const struct cp_results *results, size_t index)
{
	for (size_t i = 0; i < index; i++)
		if (strcmp(results->measurements[i].area,
			   results->measurements[index].area) == 0)
			return true;
	return false;
}

void cli_print_area_lines(FILE *out, const struct cp_results *results)
{
	fprintf(out, "  %-10s %12s  %-11s %8s %5s\n", "area", "measurements",
		"modes", "warnings", "notes");
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const char *area = results->measurements[i].area;
		struct area_count count;

		if (seen_before(results, i))
			continue;
		count = count_area(results, area);
		fprintf(out, "  %-10s %12zu  %-11s %8zu %5zu\n", area,
			count.measurements,
			count.user && count.kernel ? "user+kernel"
			: count.kernel		   ? "kernel"
						   : "user",
			count.warned, count.notes);
	}
	fprintf(out, "every measurement, warning and note: --verbose; charts: --report FILE\n");
}
