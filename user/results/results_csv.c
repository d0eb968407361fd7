// SPDX-License-Identifier: GPL-2.0
#include "results/results_csv.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static const char header[] =
	"area,name,mode,params,samples,count,scale,"
	"median_ns,mean_ns,stddev_ns,min_ns,max_ns,p5_ns,p95_ns,cv,"
	"median_ci95_low_ns,median_ci95_high_ns,median_ticks,median_cycles,"
	"mild_outliers,extreme_outliers,interrupted,warnings,run_interrupted\n";

/* A field quoted when it holds a comma, quote or line break. */
static void put_field(FILE *out, const char *text)
{
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, out);
		return;
	}
	fputc('"', out);
	for (const char *c = text; *c; c++) {
		if (*c == '"')
			fputc('"', out);
		fputc(*c, out);
	}
	fputc('"', out);
}

static void put_params(FILE *out, const struct cp_measurement *m)
{
	char text[CP_MAX_PARAMS * 48] = "";
	size_t used = 0;

	for (size_t i = 0; i < m->nr_params && used < sizeof(text); i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%s%s=%" PRId64, i ? ";" : "",
					 m->params[i].name, m->params[i].value);
	put_field(out, text);
}

static void put_warnings(FILE *out, const struct cp_measurement *m)
{
	char text[CP_MAX_WARNINGS * 164] = "";
	size_t used = 0;

	for (size_t i = 0; i < m->nr_warnings && used < sizeof(text); i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%s%s", i ? "; " : "", m->warnings[i]);
	put_field(out, text);
}

/* @run_interrupted is the run's, repeated on every row: a script reading
 * rows sees that the run stopped early even where each row it has is
 * complete (a Ctrl-C between measurements). */
static void put_row(FILE *out, const struct cp_measurement *m,
		    bool run_interrupted)
{
	const struct cp_stats *s = &m->stats_ns;
	double median_ticks = cp_stats_median(m->ticks, m->nr_samples);

	put_field(out, m->area);
	fputc(',', out);
	put_field(out, m->name);
	fprintf(out, ",%s,", m->mode);
	put_params(out, m);
	fprintf(out, ",%zu,%" PRIu64 ",%" PRIu64, m->nr_samples, m->count,
		m->scale);
	fprintf(out, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g",
		s->median, s->mean, s->stddev, s->min, s->max, s->p5, s->p95,
		s->cv, s->median_ci_low, s->median_ci_high);
	fprintf(out, ",%.6g,", median_ticks);
	if (m->core_cycles_per_tick > 0)
		fprintf(out, "%.6g", median_ticks * m->core_cycles_per_tick);
	fprintf(out, ",%zu,%zu,%s,", s->mild_outliers, s->extreme_outliers,
		m->interrupted ? "true" : "false");
	put_warnings(out, m);
	fprintf(out, ",%s\n", run_interrupted ? "true" : "false");
}

int cp_results_write_csv(const struct cp_results *results, FILE *out)
{
	fputs(header, out);
	for (size_t i = 0; i < results->nr_measurements; i++)
		if (results->measurements[i].nr_samples)
			put_row(out, &results->measurements[i],
				results->interrupted);
	return ferror(out) ? -EIO : 0;
}
