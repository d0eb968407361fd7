// SPDX-License-Identifier: GPL-2.0
/* The xcore area's penalty table in the report. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "util/format.h"
#include "report/report_area.h"
#include "areas/xcore/report_xcore.h"

/* The measurement of @curve at block @size, or NULL. */
static const struct cp_measurement *at_size(const struct xcore_curve *curve,
					    double size)
{
	for (size_t p = 0; curve && p < curve->n; p++)
		if (curve->size[p] == size)
			return curve->at[p];
	return NULL;
}

/* The baseline of @pair: the same CPU (its producer walking its own
 * block) or, @memory, the block from memory on its consumer. */
static const struct xcore_curve *baseline(const struct xcore_curves *curves,
					  const struct xcore_curve *pair,
					  bool memory)
{
	for (size_t i = 0; i < curves->n; i++) {
		const struct xcore_curve *c = &curves->curve[i];

		if (c->pair_class >= 0 || c->delay != pair->delay)
			continue;
		if (memory && c->producer < 0 && c->consumer == pair->consumer)
			return c;
		if (!memory && c->producer == pair->producer &&
		    c->consumer == pair->producer && c->modify == pair->modify)
			return c;
	}
	return NULL;
}

static void pair_rows(FILE *out, const struct xcore_curves *curves,
		      const struct xcore_curve *pair)
{
	const struct xcore_curve *same = baseline(curves, pair, false);
	const struct xcore_curve *memory = baseline(curves, pair, true);

	for (size_t p = 0; p < pair->n; p++) {
		const struct cp_measurement *m = pair->at[p];
		const struct cp_measurement *own = at_size(same, pair->size[p]);
		const struct cp_measurement *far = at_size(memory,
							   pair->size[p]);
		char size[32];

		report_row_open(out);
		report_cell(out, pair->name);
		report_cell(out, pair->modify ? "modify" : "read");
		report_cell(out, cp_format_size((uint64_t)pair->size[p], size,
						sizeof(size)));
		report_cell_ns(out, m->stats_ns.median);
		report_cell_interval_ns(out, m->stats_ns.median_ci_low,
					m->stats_ns.median_ci_high);
		report_cell_ns(out, own ? own->stats_ns.median : NAN);
		report_cell_ns(out, far ? far->stats_ns.median : NAN);
		report_cell_ratio(out, m, own);
		report_cell(out, m->note);
		report_row_close(out);
	}
}

void xcore_penalty_table(FILE *out, const char *mode,
			 const struct xcore_curves *curves)
{
	char caption[128];
	bool any = false;

	for (size_t i = 0; i < curves->n; i++)
		any |= curves->curve[i].pair_class >= 0;
	if (!any)
		return;
	snprintf(caption, sizeof(caption),
		 "xcore, %s mode: consumer's time per line, penalty against the same CPU (ratio of medians, 95 %% interval)",
		 mode);
	report_table_open(out, caption,
			  "pair|producer|block|per line|95 % interval|same CPU|from memory|penalty|producer's cache");
	for (size_t i = 0; i < curves->n; i++)
		if (curves->curve[i].pair_class >= 0)
			pair_rows(out, curves, &curves->curve[i]);
	report_table_close(out);
}
