// SPDX-License-Identifier: GPL-2.0
#include "report/report_summary.h"

#include <math.h>
#include <string.h>

#include "results/summary.h"
#include "report/html_text.h"
#include "util/format.h"

static void interval_cell(FILE *out, const struct cp_finding *f)
{
	bool factor = strcmp(f->unit, "x") == 0;
	char low[32], high[32];

	fputs("<td>", out);
	if (isfinite(f->low) && isfinite(f->high) &&
	    strcmp(f->unit, "ns") == 0)
		html_printf(out, "%s to %s",
			    cp_format_ns(f->low, low, sizeof(low)),
			    cp_format_ns(f->high, high, sizeof(high)));
	else if (isfinite(f->low) && isfinite(f->high))
		html_printf(out, "%s%.3g to %.3g%s%s", factor ? "x" : "",
			    f->low, f->high, factor ? "" : " ",
			    factor ? "" : f->unit);
	fputs("</td>", out);
}

static bool area_ran(const struct cp_results *results, const char *area)
{
	for (size_t i = 0; i < results->nr_measurements; i++)
		if (strcmp(results->measurements[i].area, area) == 0)
			return true;
	return false;
}

/* The area a finding comes from, a link to its section when it has one. */
static void area_cell(FILE *out, const struct cp_results *results,
		      const struct cp_finding *f)
{
	fputs("<td class=\"area\">", out);
	if (area_ran(results, f->area)) {
		fputs("<a href=\"#area-", out);
		html_escape(out, f->area);
		fputs("\">", out);
		html_escape(out, f->area);
		fputs("</a>", out);
	} else {
		html_escape(out, f->area);
	}
	fputs("</td>", out);
}

void report_summary(FILE *out, const struct cp_results *results)
{
	struct cp_summary summary;

	cp_summary_build(results, &summary);
	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n"
	      "<table class=\"summary\">\n<tr><th>area</th><th>finding</th><th>answer</th><th>95 % interval</th></tr>\n",
	      out);
	for (size_t i = 0; i < summary.nr_findings; i++) {
		const struct cp_finding *f = &summary.findings[i];

		fputs(f->measured ? "<tr data-area=\""
				  : "<tr class=\"unmeasured\" data-area=\"",
		      out);
		html_escape(out, f->area);
		fputs("\">", out);
		area_cell(out, results, f);
		fputs("<th>", out);
		html_escape(out, f->topic);
		fputs("</th><td>", out);
		html_escape(out, f->answer);
		fputs("</td>", out);
		interval_cell(out, f);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	if (summary.nr_doubts) {
		fputs("<ul class=\"doubts\">\n", out);
		for (size_t i = 0; i < summary.nr_doubts; i++) {
			fputs("<li>", out);
			html_escape(out, summary.doubts[i]);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	fputs("</section>\n", out);
}
