// SPDX-License-Identifier: GPL-2.0
#include "areas/xcore/xcore_table.h"

#include <inttypes.h>
#include <string.h>

static bool is_xcore(const struct cp_measurement *m)
{
	return strcmp(m->area, "xcore") == 0 && m->nr_samples;
}

/* The measurement's name without its size: "read shared-l3 0>1". */
static int label_length(const struct cp_measurement *m)
{
	const char *end = strrchr(m->name, ' ');
	const char *delay = strstr(m->name, " delay ");

	if (delay) {
		for (end = delay; end > m->name && end[-1] != ' '; end--)
			;
		end--;
		for (; end > m->name && end[-1] != ' '; end--)
			;
		end--;
	} else if (end) {
		for (end--; end > m->name && end[-1] != ' '; end--)
			;
		end--;
	}
	return end && end > m->name ? (int)(end - m->name)
				    : (int)strlen(m->name);
}

static void print_row(FILE *out, const struct cp_measurement *m)
{
	int64_t penalty = cp_measurement_param(m, "penalty_milli", -1);
	double ticks = m->stats_ns.median * 1e-9;

	(void)ticks;
	fprintf(out, "  %-6s %-26.*s %9" PRId64 " %9.1f", m->mode,
		label_length(m), m->name,
		cp_measurement_param(m, "size_bytes", 0) >> 10,
		m->stats_ns.median);
	if (penalty >= 0)
		fprintf(out, "  x%-6.2f", (double)penalty / 1000);
	else
		fprintf(out, "  %-7s", "-");
	fprintf(out, "  %s\n", m->note);
}

void cli_print_xcore(FILE *out, const struct cp_results *results)
{
	bool any = false;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (!is_xcore(m))
			continue;
		if (!any)
			fprintf(out,
				"\nxcore: consumer ns per line by block size; penalty against the same CPU\n"
				"  %-6s %-26s %9s %9s  %-7s  %s\n", "mode",
				"producer action, pair", "KiB", "ns/line",
				"penalty", "producer's cache");
		any = true;
		print_row(out, m);
	}
}
