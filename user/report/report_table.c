// SPDX-License-Identifier: GPL-2.0
/* HTML tables of the report: the helpers renderers use, and the table of
 * every measurement of an area. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/median_ratio.h"
#include "report/html_text.h"
#include "report/report_area.h"
#include "util/format.h"

bool report_is(const struct cp_measurement *m, const char *area,
	       const char *mode)
{
	return strcmp(m->area, area) == 0 && strcmp(m->mode, mode) == 0;
}

double *report_nans(size_t n)
{
	double *values = malloc((n ? n : 1) * sizeof(*values));

	for (size_t i = 0; values && i < n; i++)
		values[i] = NAN;
	return values;
}

/* Every table is evidence behind the charts and the summary: folded, so
 * that the page reads as its answers until a reader opens one. */
void report_table_open(FILE *out, const char *caption, const char *headers)
{
	const char *column = headers;

	fputs("<details class=\"table\"><summary>", out);
	html_escape(out, caption);
	fputs("</summary>\n<div class=\"tablewrap\"><table>\n<caption>", out);
	html_escape(out, caption);
	fputs("</caption>\n<thead><tr>", out);
	while (column) {
		const char *end = strchr(column, '|');
		size_t len = end ? (size_t)(end - column) : strlen(column);

		fputs("<th>", out);
		html_printf(out, "%.*s", (int)len, column);
		fputs("</th>", out);
		column = end ? end + 1 : NULL;
	}
	fputs("</tr></thead>\n<tbody>\n", out);
}

void report_table_close(FILE *out)
{
	fputs("</tbody></table></div>\n</details>\n", out);
}

void report_row_open(FILE *out)
{
	fputs("<tr>", out);
}

void report_row_close(FILE *out)
{
	fputs("</tr>\n", out);
}

void report_cell(FILE *out, const char *text)
{
	fputs("<td>", out);
	html_escape(out, text);
	fputs("</td>", out);
}

void report_cell_ns(FILE *out, double ns)
{
	char text[32] = "-";

	if (isfinite(ns))
		cp_format_ns(ns, text, sizeof(text));
	fputs("<td class=\"num\">", out);
	html_escape(out, text);
	fputs("</td>", out);
}

void report_cell_interval_ns(FILE *out, double low, double high)
{
	char low_text[32], high_text[32];

	if (!isfinite(low) || !isfinite(high)) {
		report_cell(out, "-");
		return;
	}
	fputs("<td class=\"num\">", out);
	html_printf(out, "%s – %s", cp_format_ns(low, low_text, 32),
		    cp_format_ns(high, high_text, 32));
	fputs("</td>", out);
}

void report_cell_percent(FILE *out, double percent)
{
	fputs("<td class=\"num\">", out);
	if (isfinite(percent))
		fprintf(out, "%.1f %%", percent);
	else
		fputs("-", out);
	fputs("</td>", out);
}

void report_cell_ratio(FILE *out, const struct cp_measurement *m,
		       const struct cp_measurement *base)
{
	struct cp_ratio r;

	if (!m || !base || cp_ratio_of_medians(m->ns, m->nr_samples, base->ns,
					       base->nr_samples, &r)) {
		report_cell(out, "-");
		return;
	}
	fputs("<td class=\"num\">", out);
	fprintf(out, "x%.2f [%.2f, %.2f]", r.value, r.low, r.high);
	fputs("</td>", out);
}

static void params_cell(FILE *out, const struct cp_measurement *m)
{
	fputs("<td class=\"params\">", out);
	for (size_t i = 0; i < m->nr_params; i++)
		html_printf(out, "%s%s=%" PRId64, i ? " " : "",
			    m->params[i].name, m->params[i].value);
	fputs("</td>", out);
}

static void measurement_row(FILE *out, const struct cp_measurement *m)
{
	const struct cp_stats *s = &m->stats_ns;
	char n[32];

	report_row_open(out);
	report_cell(out, m->name);
	if (m->nr_samples) {
		report_cell_ns(out, s->median);
		report_cell_interval_ns(out, s->median_ci_low,
					s->median_ci_high);
		report_cell_interval_ns(out, s->p5, s->p95);
		report_cell_percent(out, 100 * s->cv);
	} else {
		for (int i = 0; i < 4; i++)
			report_cell(out, "-");
	}
	snprintf(n, sizeof(n), "%zu%s", m->nr_samples,
		 m->interrupted ? " (interrupted)" : "");
	report_cell(out, n);
	params_cell(out, m);
	report_cell(out, m->note);
	report_row_close(out);
}

static void warning_list(FILE *out, const struct cp_results *results,
			 const char *area, const char *mode)
{
	size_t count = 0;

	for (size_t i = 0; i < results->nr_measurements; i++)
		if (report_is(&results->measurements[i], area, mode))
			count += results->measurements[i].nr_warnings;
	if (!count)
		return;
	fprintf(out, "<details class=\"warnings\"><summary>%zu warning%s</summary><ul>\n",
		count, count == 1 ? "" : "s");
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (!report_is(m, area, mode))
			continue;
		for (size_t w = 0; w < m->nr_warnings; w++) {
			fputs("<li>", out);
			html_printf(out, "%s: %s", m->name, m->warnings[w]);
			fputs("</li>\n", out);
		}
	}
	fputs("</ul></details>\n", out);
}

void report_measurement_table(FILE *out, const struct cp_results *results,
			      const char *area, const char *mode)
{
	char caption[96];

	snprintf(caption, sizeof(caption),
		 "%s, %s mode: every measurement (per operation)", area, mode);
	report_table_open(out, caption,
			  "measurement|median|95 % interval of the median|p5 – p95|CV|samples|parameters|note");
	for (size_t i = 0; i < results->nr_measurements; i++)
		if (report_is(&results->measurements[i], area, mode))
			measurement_row(out, &results->measurements[i]);
	report_table_close(out);
	warning_list(out, results, area, mode);
}
