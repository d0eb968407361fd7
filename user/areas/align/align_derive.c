// SPDX-License-Identifier: GPL-2.0
/*
 * What the align measurements show: each one's penalty against the
 * aligned access (offset 0) of the same kind, width, stride and buffer in
 * the same mode, as a ratio of medians in thousandths (penalty_milli) and
 * in the note with the effect it shows (one line, a line split, a page
 * split); the classic shifts against shift 0; and, for each group of at
 * least ALIGN_MIN_SWEEP offsets, the line size read off the penalties
 * (line_detected_bytes on the group's offset-0 measurement, with a warning
 * when it differs from what the system reports or cannot be read).
 */
#include "areas/align/align_area.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "areas/align/align_detect.h"
#include "areas/align/align_results.h"
#include "stats/median_ratio.h"

static bool is_classic(const struct cp_measurement *m)
{
	return strncmp(m->name, "classic ", 8) == 0;
}

static bool is_item(const struct cp_measurement *m, const char *mode)
{
	return strcmp(m->area, "align") == 0 && strcmp(m->mode, mode) == 0 &&
	       !is_classic(m) && m->nr_samples;
}

static const char *effect(const struct cp_measurement *m)
{
	switch (cp_measurement_param(m, "split", 0)) {
	case CP_ALIGN_SPLIT_PAGE:
		return "splits a page";
	case CP_ALIGN_SPLIT_LINE:
		return "splits a line";
	default:
		return "in one line";
	}
}

static void note_penalty(struct cp_measurement *m,
			 const struct cp_measurement *aligned)
{
	double ratio;

	if (m == aligned) {
		snprintf(m->note, sizeof(m->note), "aligned");
		return;
	}
	if (!aligned ||
	    cp_ratio_of_medians_value(m->ns, m->nr_samples, aligned->ns,
				      aligned->nr_samples, &ratio))
		return;
	cp_measurement_add_param(m, "penalty_milli",
				 (int64_t)llround(ratio * 1000));
	snprintf(m->note, sizeof(m->note), "%s: x%.2f", effect(m), ratio);
}

static void detect_group(struct cp_results *results, size_t first,
			 const char *mode, struct cp_measurement *aligned,
			 const struct align_plan *plan)
{
	size_t n = 0, cap = results->nr_measurements - first;
	uint32_t *offsets = malloc(cap * sizeof(*offsets));
	double *medians = malloc(cap * sizeof(*medians));
	struct cp_align_detection found;

	for (size_t i = first; offsets && medians &&
			       i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (!is_item(m, mode) || !cp_align_same_group(m, aligned))
			continue;
		offsets[n] = (uint32_t)cp_measurement_param(m, "offset_bytes", 0);
		medians[n++] = m->stats_ns.median;
	}
	if (n >= ALIGN_MIN_SWEEP) {
		cp_align_detect_line(offsets, medians, n,
				     (unsigned int)cp_measurement_param(
					     aligned, "width_bytes", 0),
				     &found);
		cp_measurement_add_param(aligned, "line_detected_bytes",
					 found.line_bytes);
		if (!found.line_bytes)
			cp_measurement_warn(aligned,
					    "line size not detected from this sweep: %s",
					    found.why);
		else if (found.line_bytes != plan->line)
			cp_measurement_warn(aligned,
					    "the penalty puts the line at %u bytes; the system reports %u",
					    found.line_bytes, plan->line);
	}
	free(offsets);
	free(medians);
}

static void derive_classic(struct cp_results *results, size_t first)
{
	struct cp_measurement *base = NULL;
	double ratio;

	for (size_t i = first; i < results->nr_measurements; i++) {
		struct cp_measurement *m = &results->measurements[i];
		size_t len = strlen(m->note);

		if (strcmp(m->area, "align") != 0 || !is_classic(m) ||
		    !m->nr_samples)
			continue;
		if (!base) {
			base = m;
			continue;
		}
		if (cp_ratio_of_medians_value(m->ns, m->nr_samples, base->ns,
					      base->nr_samples, &ratio))
			continue;
		cp_measurement_add_param(m, "penalty_milli",
					 (int64_t)llround(ratio * 1000));
		snprintf(m->note + len, sizeof(m->note) - len, " x%.2f",
			 ratio);
	}
}

void align_derive(struct cp_results *results, size_t first, const char *mode,
		  const struct align_plan *plan)
{
	for (size_t i = first; i < results->nr_measurements; i++) {
		struct cp_measurement *m = &results->measurements[i];

		if (is_item(m, mode))
			note_penalty(m, cp_align_find_offset(results, m, 0));
	}
	for (size_t i = first; i < results->nr_measurements; i++) {
		struct cp_measurement *m = &results->measurements[i];

		if (is_item(m, mode) &&
		    cp_measurement_param(m, "offset_bytes", -1) == 0)
			detect_group(results, first, mode, m, plan);
	}
	if (strcmp(mode, "user") == 0)
		derive_classic(results, first);
}
