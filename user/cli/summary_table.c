// SPDX-License-Identifier: GPL-2.0
#include "cli/summary_table.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "cli/results_table.h"
#include "lib/summary.h"

#define WIDTH 80
#define INDENT 4

/* @text from column @column on, wrapped at word boundaries to WIDTH,
 * continuation lines indented by INDENT. */
static void wrapped(FILE *out, const char *text, size_t column)
{
	while (*text) {
		size_t room = WIDTH - column, cut = strlen(text);

		if (cut > room) {
			cut = room;
			while (cut && text[cut] != ' ')
				cut--;
			if (!cut)
				cut = room;
		}
		fprintf(out, "%.*s\n", (int)cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		if (*text)
			fprintf(out, "%*s", INDENT, "");
		column = INDENT;
	}
}

/* " [95 %: LOW to HIGH]" in @f's unit, or "" without an interval. */
static void interval_text(const struct cp_finding *f, char *out, size_t len)
{
	char low[32], high[32];
	bool factor = strcmp(f->unit, "x") == 0;

	out[0] = '\0';
	if (!isfinite(f->low) || !isfinite(f->high))
		return;
	if (strcmp(f->unit, "ns") == 0) {
		cli_format_ns(f->low, low, sizeof(low));
		cli_format_ns(f->high, high, sizeof(high));
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
	wrapped(out, line, 2);
}

void cli_print_summary(FILE *out, const struct cp_results *results)
{
	struct cp_summary summary;
	char line[200];

	cp_summary_build(results, &summary);
	fprintf(out, "summary (the tables below are the evidence)\n");
	for (size_t i = 0; i < summary.nr_findings; i++)
		print_finding(out, &summary.findings[i]);
	for (size_t i = 0; i < summary.nr_doubts; i++) {
		snprintf(line, sizeof(line), "doubt: %s", summary.doubts[i]);
		fprintf(out, "  ");
		wrapped(out, line, 2);
	}
	fprintf(out, "\n");
}
