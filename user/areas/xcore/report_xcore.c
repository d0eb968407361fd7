// SPDX-License-Identifier: GPL-2.0
/*
 * The xcore area in the report: the consumer's ns per line against block
 * size (log axes), one chart per producer action (read, modify) and delay,
 * one line per pair with the same-CPU and from-memory baselines, the
 * producer's caches marked; the penalty table beneath.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse_size.h"
#include "util/parse_size.h"
#include "machine/cpu_pairs.h"
#include "report/report_area.h"
#include "areas/xcore/report_xcore.h"
#include "report/svg_chart.h"

#define MAX_MARKERS 8

static bool is_xcore(const struct cp_measurement *m, const char *mode)
{
	return report_is(m, "xcore", mode) && m->nr_samples &&
	       cp_measurement_param(m, "size_bytes", -1) > 0;
}

static void curve_name(const struct cp_measurement *m, char *out, size_t len)
{
	int64_t producer = cp_measurement_param(m, "producer", -1);
	int64_t consumer = cp_measurement_param(m, "consumer", -1);
	int64_t cls = cp_measurement_param(m, "pair_class", -1);
	int64_t delay = cp_measurement_param(m, "delay", 0);
	int used;

	if (producer < 0)
		used = snprintf(out, len, "memory, cpu %" PRId64, consumer);
	else if (cls < 0)
		used = snprintf(out, len, "same CPU %" PRId64 ">%" PRId64,
				producer, consumer);
	else
		used = snprintf(out, len, "%s %" PRId64 ">%" PRId64,
				cp_pair_class_name((enum cp_pair_class)cls),
				producer, consumer);
	if (delay > 0 && used > 0 && (size_t)used < len)
		snprintf(out + used, len - (size_t)used, " delay %" PRId64,
			 delay);
}

static bool same_curve(const struct xcore_curve *curve,
		       const struct cp_measurement *m)
{
	return curve->producer == cp_measurement_param(m, "producer", -1) &&
	       curve->consumer == cp_measurement_param(m, "consumer", -1) &&
	       curve->delay == cp_measurement_param(m, "delay", 0) &&
	       curve->modify == (curve->producer < 0
					 ? 0 : cp_measurement_param(m, "modify", 0));
}

static struct xcore_curve *curve_of(struct xcore_curves *curves,
				    const struct cp_measurement *m)
{
	struct xcore_curve *curve;

	for (size_t i = 0; i < curves->n; i++)
		if (same_curve(&curves->curve[i], m))
			return &curves->curve[i];
	if (curves->n == XCORE_MAX_CURVES)
		return NULL;
	curve = &curves->curve[curves->n++];
	memset(curve, 0, sizeof(*curve));
	curve->producer = cp_measurement_param(m, "producer", -1);
	curve->consumer = cp_measurement_param(m, "consumer", -1);
	curve->pair_class = cp_measurement_param(m, "pair_class", -1);
	curve->delay = cp_measurement_param(m, "delay", 0);
	curve->modify = curve->producer < 0
				? 0 : cp_measurement_param(m, "modify", 0);
	curve_name(m, curve->name, sizeof(curve->name));
	return curve;
}

void xcore_curves_collect(const struct cp_results *results, const char *mode,
			  struct xcore_curves *curves)
{
	curves->n = 0;
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		struct xcore_curve *curve;

		if (!is_xcore(m, mode))
			continue;
		curve = curve_of(curves, m);
		if (!curve || curve->n == XCORE_MAX_SIZES)
			continue;
		curve->at[curve->n] = m;
		curve->size[curve->n] =
			(double)cp_measurement_param(m, "size_bytes", 0);
		curve->median[curve->n] = m->stats_ns.median;
		curve->low[curve->n] = m->stats_ns.median_ci_low;
		curve->high[curve->n] = m->stats_ns.median_ci_high;
		curve->n++;
	}
}

/* The size in a note "fits L2 (2 MiB)": 0, or -1 for another note. */
static int note_cache(const char *note, char *label, size_t len,
		      uint64_t *bytes)
{
	char level[16], size[32], compact[32], why[64];
	size_t k = 0;

	if (sscanf(note, "fits %15s (%31[^)])", level, size) != 2)
		return -1;
	/* cp_parse_size reads "2MiB", without the space. */
	for (const char *c = size; *c && k < sizeof(compact) - 1; c++)
		if (*c != ' ')
			compact[k++] = *c;
	compact[k] = '\0';
	if (cp_parse_size(compact, bytes, why, sizeof(why)))
		return -1;
	snprintf(label, len, "%s %s", level, size);
	return 0;
}

/* The producer's caches the notes name, once each. */
static size_t cache_markers(const struct xcore_curves *curves,
			    struct svg_marker *markers, char labels[][48])
{
	size_t n = 0;

	for (size_t i = 0; i < curves->n; i++) {
		for (size_t p = 0; p < curves->curve[i].n; p++) {
			uint64_t bytes;
			bool known = false;

			if (n == MAX_MARKERS ||
			    note_cache(curves->curve[i].at[p]->note, labels[n],
				       48, &bytes))
				continue;
			for (size_t k = 0; k < n; k++)
				known |= markers[k].x == (double)bytes;
			if (known)
				continue;
			markers[n] = (struct svg_marker){
				.x = (double)bytes, .label = labels[n] };
			n++;
		}
	}
	return n;
}

/* The curves of one action and delay: pairs, then the baselines. */
static void action_chart(FILE *out, const char *mode,
			 const struct xcore_curves *curves, int64_t modify,
			 int64_t delay)
{
	struct svg_series series[XCORE_MAX_CURVES];
	struct svg_marker markers[MAX_MARKERS];
	char labels[MAX_MARKERS][48], title[128];
	size_t n = 0;

	for (size_t i = 0; i < curves->n; i++) {
		const struct xcore_curve *curve = &curves->curve[i];

		if (curve->delay != delay ||
		    (curve->producer >= 0 && curve->modify != modify))
			continue;
		series[n++] = (struct svg_series){
			.name = curve->name, .n = curve->n, .x = curve->size,
			.y = curve->median, .y_low = curve->low,
			.y_high = curve->high,
		};
	}
	snprintf(title, sizeof(title),
		 "Producer %s the block%s: consumer's walk (%s mode)",
		 modify ? "modified" : "read", delay ? ", with delay" : "",
		 mode);
	svg_line_chart_write(out, &(struct svg_line_chart){
		.title = title,
		.x = { .label = "block size (bytes, log scale)", .log = true,
		       .format = SVG_FORMAT_BYTES },
		.y = { .label = "time per line (ns, log scale, 95 % interval)",
		       .log = true, .format = SVG_FORMAT_NS },
		.nr_series = n, .series = series,
		.nr_markers = cache_markers(curves, markers, labels),
		.markers = markers,
	});
}

/* One chart per action and delay that some pair measured. */
static void charts(FILE *out, const char *mode,
		   const struct xcore_curves *curves)
{
	for (size_t i = 0; i < curves->n; i++) {
		const struct xcore_curve *curve = &curves->curve[i];
		bool drawn = false;

		if (curve->producer < 0)
			continue;
		for (size_t k = 0; k < i; k++)
			drawn |= curves->curve[k].producer >= 0 &&
				 curves->curve[k].modify == curve->modify &&
				 curves->curve[k].delay == curve->delay;
		if (!drawn)
			action_chart(out, mode, curves, curve->modify,
				     curve->delay);
	}
}

static void render(FILE *out, const struct cp_results *results,
		   const char *mode)
{
	struct xcore_curves *curves = malloc(sizeof(*curves));

	if (!curves)
		return;
	xcore_curves_collect(results, mode, curves);
	charts(out, mode, curves);
	xcore_penalty_table(out, mode, curves);
	free(curves);
}

const struct report_renderer report_xcore = {
	.area = "xcore",
	.question = "What does it cost to read lines another CPU just read or modified? One CPU touches a block, another walks it; against the same CPU's own cache and against memory.",
	.render = render,
};
