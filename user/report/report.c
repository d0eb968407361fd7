// SPDX-License-Identifier: GPL-2.0
#include "report/report.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "areas/area.h"
#include "report/html_text.h"
#include "report/report_area.h"
#include "report/report_machine.h"
#include "report/report_summary.h"
#include "report/report_style.h"

#define MAX_AREAS 32

/* The areas of the results, in the order they were measured. */
static size_t areas_of(const struct cp_results *results, const char **areas)
{
	size_t n = 0;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const char *area = results->measurements[i].area;
		bool known = false;

		for (size_t k = 0; k < n; k++)
			known |= strcmp(areas[k], area) == 0;
		if (!known && n < MAX_AREAS)
			areas[n++] = area;
	}
	return n;
}

static bool has_mode(const struct cp_results *results, const char *area,
		     const char *mode)
{
	for (size_t i = 0; i < results->nr_measurements; i++)
		if (report_is(&results->measurements[i], area, mode))
			return true;
	return false;
}

static void head(FILE *out, const struct cp_results *results)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>", out);
	html_printf(out, "cacheprobe report: %s, %s",
		    results->environment.hostname, results->environment.date);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n",
		report_css);
	fputs("<h1>cacheprobe report</h1>\n", out);
}

static void contents(FILE *out, const char **areas, size_t n)
{
	fputs("<nav><a href=\"#summary\">Summary</a> · <a href=\"#machine\">Machine</a>",
	      out);
	for (size_t i = 0; i < n; i++) {
		fputs(" · <a href=\"#area-", out);
		html_escape(out, areas[i]);
		fputs("\">", out);
		html_escape(out, areas[i]);
		fputs("</a>", out);
	}
	fputs("</nav>\n", out);
}

/* The charts of @area (its struct cp_area's), or NULL. */
static const struct report_renderer *renderer_of(const char *area)
{
	const struct cp_area *found = cp_area_find(area);

	return found ? found->report : NULL;
}

/* One mode's part of an area: its charts, or the table alone. */
static void area_mode(FILE *out, const struct cp_results *results,
		      const char *area, const char *mode)
{
	const struct report_renderer *renderer = renderer_of(area);

	fputs("<div class=\"mode\">\n<h3>", out);
	html_printf(out, "%s mode", mode);
	fputs("</h3>\n", out);
	if (renderer)
		renderer->render(out, results, mode);
	report_measurement_table(out, results, area, mode);
	fputs("</div>\n", out);
}

/* The area's notes on the run as a whole, collapsed: context, not findings. */
static void area_notes(FILE *out, const struct cp_results *results,
		       const char *area)
{
	size_t count = 0;

	for (size_t i = 0; i < results->nr_area_notes; i++)
		count += !strcmp(results->area_notes[i].area, area);
	if (!count)
		return;
	fprintf(out, "<details class=\"notes\"><summary>%zu note%s on this run</summary><ul>\n",
		count, count == 1 ? "" : "s");
	for (size_t i = 0; i < results->nr_area_notes; i++) {
		if (strcmp(results->area_notes[i].area, area))
			continue;
		fputs("<li>", out);
		html_escape(out, results->area_notes[i].text);
		fputs("</li>\n", out);
	}
	fputs("</ul></details>\n", out);
}

/* Modes in a fixed order (user before kernel), then any other. */
static void area_section(FILE *out, const struct cp_results *results,
			 const char *area)
{
	const struct report_renderer *renderer = renderer_of(area);
	const char *done[8];
	size_t nr_done = 0;

	fputs("<section id=\"area-", out);
	html_escape(out, area);
	fputs("\" class=\"area\">\n<h2>", out);
	html_escape(out, area);
	fputs("</h2>\n", out);
	if (renderer && renderer->question) {
		fputs("<p class=\"question\">", out);
		html_escape(out, renderer->question);
		fputs("</p>\n", out);
	}
	area_notes(out, results, area);
	fputs("<div class=\"modes\">\n", out);
	static const char *const known_modes[] = { "user", "kernel" };

	for (size_t k = 0; k < 2; k++) {
		if (has_mode(results, area, known_modes[k])) {
			area_mode(out, results, area, known_modes[k]);
			done[nr_done++] = known_modes[k];
		}
	}
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		bool shown = false;

		if (strcmp(m->area, area) != 0)
			continue;
		for (size_t k = 0; k < nr_done; k++)
			shown |= strcmp(done[k], m->mode) == 0;
		if (!shown && nr_done < sizeof(done) / sizeof(done[0])) {
			area_mode(out, results, area, m->mode);
			done[nr_done++] = m->mode;
		}
	}
	fputs("</div>\n</section>\n", out);
}

int cp_report_write(const struct cp_results *results, FILE *out)
{
	const char *areas[MAX_AREAS];
	size_t nr_areas = areas_of(results, areas);

	head(out, results);
	contents(out, areas, nr_areas);
	report_summary(out, results);
	report_machine(out, results);
	for (size_t i = 0; i < nr_areas; i++)
		area_section(out, results, areas[i]);
	if (!nr_areas)
		fputs("<p>This run has no measurements.</p>\n", out);
	fputs("<footer>Made by cacheprobe-run from the results of one run; every chart's numbers are in the folded table beneath it. Times are per operation.</footer>\n</body>\n</html>\n",
	      out);
	return ferror(out) ? -EIO : 0;
}
