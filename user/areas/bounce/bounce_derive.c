// SPDX-License-Identifier: GPL-2.0
/*
 * What a bounce sweep shows: each distance's slowdown against padded
 * counters and against one thread alone (ratios of medians with bootstrap
 * intervals, areas/bounce/bounce_granularity.h), the coherence granularity (or why the
 * run cannot tell it), and the classic case.  Ratios go into integer
 * parameters in thousandths (slowdown_padded_milli: 2310 is 2.31x) and
 * into the note the table shows.
 */
#include "areas/bounce/bounce_area.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "areas/bounce/bounce_granularity.h"

static bool ratio_of(const struct cp_measurement *a,
		     const struct cp_measurement *b, struct cp_ratio *out)
{
	return a && b && a->nr_samples && b->nr_samples &&
	       cp_ratio_of_medians(a->ns, a->nr_samples, b->ns, b->nr_samples,
				   out) == 0;
}

static int64_t milli(double ratio)
{
	return (int64_t)llround(ratio * 1000);
}

/* The note: "x2.31 padded, x2.05 alone", with lost updates if any. */
static void note_slowdowns(struct cp_measurement *m, double padded,
			   double alone)
{
	int64_t lost = cp_measurement_param(m, "lost_permille", -1);
	char text[sizeof(m->note)] = "";
	size_t used = 0;

	if (padded > 0)
		used += (size_t)snprintf(text, sizeof(text), "x%.2f padded",
					 padded);
	if (alone > 0 && used < sizeof(text))
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%sx%.2f alone", used ? ", " : "",
					 alone);
	if (lost >= 0 && used < sizeof(text))
		snprintf(text + used, sizeof(text) - used, "; %.0f%% lost",
			 (double)lost / 10);
	memcpy(m->note, text, sizeof(m->note));
}

/*
 * The verdict on every measurement of the sweep: granularity_bytes when
 * found; granularity_undetermined = 1 and no size (readers older than it
 * would take any size for the answer) when the slowdowns are within the
 * run's noise, the reason a warning on the measurement judged (the first
 * when none was); neither when bouncing never stopped.
 */
static void record_decision(struct cp_measurement **sweep,
			    const uint32_t *distances, size_t n,
			    const struct cp_bounce_decision *decision)
{
	size_t judged = 0;

	for (size_t i = 0; i < n; i++) {
		struct cp_measurement *m = sweep[i];

		if (decision->verdict == CP_BOUNCE_UNDETERMINED)
			cp_measurement_add_param(m, "granularity_undetermined",
						 1);
		if (decision->verdict == CP_BOUNCE_FOUND)
			cp_measurement_add_param(m, "granularity_bytes",
						 decision->granularity);
		if (decision->verdict == CP_BOUNCE_FOUND &&
		    distances[i] == decision->granularity)
			snprintf(m->note + strlen(m->note),
				 sizeof(m->note) - strlen(m->note),
				 ": granularity");
		if (decision->in_line && distances[i] == decision->in_line)
			judged = i;
	}
	if (decision->verdict == CP_BOUNCE_UNDETERMINED && n)
		cp_measurement_warn(sweep[judged], "%s%s",
				    CP_BOUNCE_UNDETERMINED_WARNING,
				    decision->reason);
}

uint32_t bounce_derive_sweep(struct cp_measurement **sweep,
			     const uint32_t *distances, size_t n,
			     const struct cp_measurement *padded,
			     const struct cp_measurement *alone)
{
	struct cp_ratio slowdowns[CP_BOUNCE_MAX_DISTANCES + 1] = { 0 };
	struct cp_bounce_decision decision;
	struct cp_ratio ratio;

	for (size_t i = 0; i < n; i++) {
		double against_alone = 0;

		/* Left at 0, not measured: without a padded baseline no
		 * distance has a verdict. */
		if (ratio_of(sweep[i], padded, &ratio)) {
			slowdowns[i] = ratio;
			cp_measurement_add_param(sweep[i],
						 "slowdown_padded_milli",
						 milli(ratio.value));
		}
		if (ratio_of(sweep[i], alone, &ratio)) {
			against_alone = ratio.value;
			cp_measurement_add_param(sweep[i],
						 "slowdown_alone_milli",
						 milli(ratio.value));
		}
		note_slowdowns(sweep[i], slowdowns[i].value, against_alone);
	}
	cp_bounce_decide(distances, slowdowns, n, &decision);
	record_decision(sweep, distances, n, &decision);
	return decision.verdict == CP_BOUNCE_FOUND ? decision.granularity : 0;
}

void bounce_note_classic(struct cp_measurement *adjacent,
			 const struct cp_measurement *one_line,
			 unsigned int line_size)
{
	struct cp_ratio ratio;

	if (!ratio_of(adjacent, one_line, &ratio))
		return;
	cp_measurement_add_param(adjacent, "classic_milli", milli(ratio.value));
	snprintf(adjacent->note, sizeof(adjacent->note),
		 "classic x%.2f [%.2f, %.2f] vs %u B apart", ratio.value,
		 ratio.low, ratio.high, line_size);
}
