// SPDX-License-Identifier: GPL-2.0
/*
 * The c2c area in the report: per variant (CAS, flag) the round-trip
 * latency of every CPU pair as a heatmap with its colour scale, and per
 * pair class the min / median / max of the pair medians, as bars and as a
 * table with the one-way figures (half a round trip, what c2clat and
 * multichase print) and the fastest sample; in user mode, how the lines
 * of a pair differ (areas/c2c/c2c_line_report.h): the fastest and the slowest
 * group of lines, which a one-line tool lands in, or one group.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "areas/c2c/c2c_matrix.h"
#include "areas/c2c/c2c_pingpong.h"
#include "machine/cpu_pairs.h"
#include "stats/stats.h"
#include "report/report_area.h"
#include "report/svg_chart.h"

#define MAX_VARIANTS 4

static const char *variant_title(const char *variant)
{
	return strcmp(variant, "cas") == 0 ? "CAS (LOCK CMPXCHG)"
	       : strcmp(variant, "flag") == 0 ? "flag (load, then store)"
	       : variant;
}

static void heatmap(FILE *out, const struct cp_c2c_matrix *matrix)
{
	char (*text)[16] = calloc(matrix->n ? matrix->n : 1, sizeof(*text));
	const char **names = calloc(matrix->n ? matrix->n : 1, sizeof(*names));
	char title[128];

	if (text && names) {
		for (size_t i = 0; i < matrix->n; i++) {
			snprintf(text[i], sizeof(text[i]), "%u",
				 matrix->cpus[i]);
			names[i] = text[i];
		}
		snprintf(title, sizeof(title),
			 "%s round trip between CPUs (%s mode)",
			 variant_title(matrix->variant), matrix->mode);
		svg_heatmap_write(out, &(struct svg_heatmap){
			.title = title,
			.row_label = "CPU", .col_label = "CPU",
			.nr_rows = matrix->n, .nr_cols = matrix->n,
			.row_names = names, .col_names = names,
			.values = matrix->median_ns,
			.value_axis = { .label = "round trip (ns, median)",
					.format = SVG_FORMAT_NS },
		});
	}
	free(text);
	free(names);
}

struct summary {
	size_t nr_classes;
	int classes[CP_NR_PAIR_CLASSES];
	const char *class_names[CP_NR_PAIR_CLASSES];
	/* [variant][class] */
	size_t pairs[MAX_VARIANTS][CP_NR_PAIR_CLASSES];
	double min[MAX_VARIANTS][CP_NR_PAIR_CLASSES];
	double median[MAX_VARIANTS][CP_NR_PAIR_CLASSES];
	double max[MAX_VARIANTS][CP_NR_PAIR_CLASSES];
	double fastest[MAX_VARIANTS][CP_NR_PAIR_CLASSES];
};

static void summarise(const struct cp_c2c_matrix *const *matrices, size_t nr,
		      struct summary *summary, double *values)
{
	memset(summary, 0, sizeof(*summary));
	for (int cls = 0; cls < CP_NR_PAIR_CLASSES; cls++) {
		bool present = false;

		for (size_t v = 0; v < nr; v++) {
			size_t c = summary->nr_classes;
			size_t k = cp_c2c_class_values(
				matrices[v], cls, values,
				&summary->fastest[v][c]);

			summary->pairs[v][c] = k;
			summary->min[v][c] = k ? values[0] : NAN;
			summary->median[v][c] =
				k ? cp_stats_median(values, k) : NAN;
			summary->max[v][c] = k ? values[k - 1] : NAN;
			present |= k > 0;
		}
		if (!present)
			continue;
		summary->classes[summary->nr_classes] = cls;
		summary->class_names[summary->nr_classes++] =
			cp_pair_class_name((enum cp_pair_class)cls);
	}
}

static void summary_chart(FILE *out, const char *mode,
			  const struct cp_c2c_matrix *const *matrices,
			  size_t nr, const struct summary *summary)
{
	struct svg_series series[MAX_VARIANTS];
	char title[96];

	for (size_t v = 0; v < nr; v++)
		series[v] = (struct svg_series){
			.name = strcmp(matrices[v]->variant, "cas") == 0
					? "CAS" : matrices[v]->variant,
			.n = summary->nr_classes, .y = summary->median[v],
			.y_low = summary->min[v], .y_high = summary->max[v],
		};
	snprintf(title, sizeof(title), "Round trip by pair class (%s mode)",
		 mode);
	svg_bar_chart_write(out, &(struct svg_bar_chart){
		.title = title, .category_label = "pair class",
		.nr_categories = summary->nr_classes,
		.categories = summary->class_names,
		.y = { .label = "round trip (ns, pairs: min – median – max)",
		       .format = SVG_FORMAT_NS, .from_zero = true },
		.nr_series = nr, .series = series,
	});
}

static void summary_table(FILE *out, const char *mode,
			  const struct cp_c2c_matrix *const *matrices,
			  size_t nr, const struct summary *summary)
{
	char caption[128];

	snprintf(caption, sizeof(caption),
		 "c2c, %s mode: round trip per pair class (pair medians); one-way is half a round trip",
		 mode);
	report_table_open(out, caption,
			  "variant|pair class|pairs|round trip: min|median|max|one-way median|fastest sample: round trip|one-way");
	for (size_t v = 0; v < nr; v++) {
		for (size_t c = 0; c < summary->nr_classes; c++) {
			char pairs[24];

			if (!summary->pairs[v][c])
				continue;
			snprintf(pairs, sizeof(pairs), "%zu",
				 summary->pairs[v][c]);
			report_row_open(out);
			report_cell(out, variant_title(matrices[v]->variant));
			report_cell(out, summary->class_names[c]);
			report_cell(out, pairs);
			report_cell_ns(out, summary->min[v][c]);
			report_cell_ns(out, summary->median[v][c]);
			report_cell_ns(out, summary->max[v][c]);
			report_cell_ns(out, summary->median[v][c] / 2);
			report_cell_ns(out, summary->fastest[v][c]);
			report_cell_ns(out, summary->fastest[v][c] / 2);
			report_row_close(out);
		}
	}
	report_table_close(out);
}

/* The verdict of @s in a few words. */
static void spread_verdict(const struct cp_c2c_spread_summary *s, char *text,
			   size_t len)
{
	if (s->pairs == 1 && s->split)
		snprintf(text, len, "%u groups", s->most_groups);
	else if (s->pairs == 1 && s->one_group)
		snprintf(text, len, "one group");
	else if (s->pairs == 1)
		snprintf(text, len,
			 "undetermined: each line timed %u times, %d needed",
			 s->visits, CP_C2C_SPREAD_MIN_VISITS);
	else
		snprintf(text, len,
			 "%zu pairs in 2 to %u groups, %zu one group, %zu undetermined",
			 s->split, s->most_groups, s->one_group,
			 s->undetermined);
}

/* A group's lines: a count for one pair, a share over many. */
static void group_lines(const struct cp_c2c_spread_summary *s, size_t lines,
			double share, char *text, size_t len)
{
	if (s->pairs == 1)
		snprintf(text, len, "%zu of %zu", lines, s->lines);
	else
		snprintf(text, len, "%.0f %%", 100 * share);
}

static void spread_row(FILE *out, const struct cp_c2c_matrix *matrix)
{
	const struct cp_c2c_spread_summary *s = &matrix->spread;
	bool split = s->split > 0;
	double fast = split ? s->fast_ns : s->one_ns;
	double slow = split ? s->slow_ns : NAN;
	char verdict[128], fast_lines[32] = "-", slow_lines[32] = "-";
	char ratio[16] = "-";

	spread_verdict(s, verdict, sizeof(verdict));
	if (split || s->one_group)
		group_lines(s, split ? s->fast_lines : s->lines,
			    split ? s->fast_share : 1, fast_lines,
			    sizeof(fast_lines));
	if (split) {
		group_lines(s, s->slow_lines, s->slow_share, slow_lines,
			    sizeof(slow_lines));
		snprintf(ratio, sizeof(ratio), "x%.2f", slow / fast);
	}
	report_row_open(out);
	report_cell(out, variant_title(matrix->variant));
	report_cell(out, verdict);
	report_cell(out, fast_lines);
	report_cell_ns(out, fast);
	report_cell_ns(out, fast / 2);
	report_cell(out, slow_lines);
	report_cell_ns(out, slow);
	report_cell_ns(out, slow / 2);
	report_cell(out, ratio);
	report_cell_percent(out, 100 * s->widest_range);
	report_row_close(out);
}

/* How the lines differ, for the matrices that measured it (user mode). */
static void spread_table(FILE *out, const char *mode,
			 const struct cp_c2c_matrix *const *matrices, size_t nr)
{
	char caption[256];
	bool any = false;

	for (size_t v = 0; v < nr; v++)
		any |= matrices[v]->spread.pairs > 0;
	if (!any)
		return;
	snprintf(caption, sizeof(caption),
		 "c2c, %s mode: the lines of a pair (a page each, %d to a sample), grouped where their medians differ beyond their noise; a one-line tool sees the group its line falls in",
		 mode, CP_C2C_LINES_PER_SAMPLE);
	report_table_open(out, caption,
			  "variant|groups|fastest group: lines|round trip|one-way|slowest group: lines|round trip|one-way|slowest over fastest|central 90 % of lines within");
	for (size_t v = 0; v < nr; v++)
		if (matrices[v]->spread.pairs)
			spread_row(out, matrices[v]);
	report_table_close(out);
}

/* The matrices of @mode, and the summary of their pair classes. */
static void render_matrices(FILE *out, const char *mode,
			    const struct cp_c2c_matrix *all, size_t nr_all)
{
	const struct cp_c2c_matrix *mine[MAX_VARIANTS];
	struct summary summary;
	size_t nr = 0, cells = 1;
	double *values;

	for (size_t i = 0; i < nr_all && nr < MAX_VARIANTS; i++) {
		if (strcmp(all[i].mode, mode) != 0)
			continue;
		mine[nr++] = &all[i];
		cells = all[i].n * all[i].n > cells ? all[i].n * all[i].n
						     : cells;
	}
	for (size_t v = 0; v < nr; v++)
		heatmap(out, mine[v]);
	values = malloc(cells * sizeof(*values));
	if (!nr || !values) {
		free(values);
		return;
	}
	summarise(mine, nr, &summary, values);
	summary_chart(out, mode, mine, nr, &summary);
	summary_table(out, mode, mine, nr, &summary);
	spread_table(out, mode, mine, nr);
	free(values);
}

static void render(FILE *out, const struct cp_results *results,
		   const char *mode)
{
	struct cp_c2c_matrix *matrices;
	size_t nr;

	if (cp_c2c_matrices(results, &matrices, &nr))
		return;
	render_matrices(out, mode, matrices, nr);
	cp_c2c_matrices_free(matrices, nr);
}

const struct report_renderer report_c2c = {
	.area = "c2c",
	.question = "How long does one cache line take to go from one CPU to another and back? Every pair of CPUs passes it back and forth.",
	.render = render,
};
