// SPDX-License-Identifier: GPL-2.0
#include "cli/compare_output.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <json-c/json.h>

#include "cli/cli_util.h"
#include "machine/placement.h"
#include "results/json_print.h"
#include "util/format.h"

#define CONSOLE_LABEL_WIDTH 28
#define CONSOLE_WIDTH 80

static void row_label(const struct cp_comparison_row *row, char *out,
		      size_t len)
{
	const struct cp_measurement *m = row->next;

	if (row->show_mode)
		snprintf(out, len, "%s: %s [%s]", m->area, m->name, m->mode);
	else
		snprintf(out, len, "%s: %s", m->area, m->name);
}

static void interval_text(const struct cp_comparison_row *row, char *out,
			  size_t len)
{
	if (row->verdict == CP_VERDICT_NO_RATIO)
		snprintf(out, len, "-");
	else if (isinf(row->high))
		snprintf(out, len, "%.3f-inf", row->low);
	else
		snprintf(out, len, "%.3f-%.3f", row->low, row->high);
}

/* "2 regressions, 1 improvement, 40 same, 3 unclear". */
static void totals_text(const struct cp_comparison *comparison, char *out,
			size_t len)
{
	const size_t *totals = comparison->totals;
	int used = snprintf(out, len,
			    "%zu regressions, %zu improvements, %zu same, %zu unclear",
			    totals[CP_VERDICT_REGRESSION],
			    totals[CP_VERDICT_IMPROVEMENT],
			    totals[CP_VERDICT_SAME],
			    totals[CP_VERDICT_UNCLEAR]);

	if (totals[CP_VERDICT_NO_RATIO] && used > 0 && (size_t)used < len)
		snprintf(out + used, len - (size_t)used,
			 ", %zu without a ratio", totals[CP_VERDICT_NO_RATIO]);
}

static bool across_cpus(const struct cp_comparison_row *row)
{
	return cp_measurement_spans_cpus(row->base) ||
	       cp_measurement_spans_cpus(row->next);
}

static bool flagged(const struct cp_comparison_row *row)
{
	return row->verdict == CP_VERDICT_REGRESSION ||
	       row->verdict == CP_VERDICT_IMPROVEMENT;
}

/* One note of @text after @prefix: a line, or on a terminal (@width
 * not 0) wrapped under its own start. */
static void emit_note(FILE *out, const char *prefix, const char *text,
		      size_t width)
{
	fputs(prefix, out);
	cli_print_wrapped(out, text, strlen(prefix), width, strlen(prefix));
}

static bool side_mixed(const struct compare_context *context, int side)
{
	return cp_placement_mixed(&context->runs[side]->environment.placement);
}

/* A side whose readings of the placement are two placements: its run
 * moved during it, or its pooled runs were not all on one.  How many
 * notes. */
static size_t mixed_note(const struct compare_context *context, int side,
			 FILE *out, const char *prefix, size_t width)
{
	static const char *const which[] = { "the baseline", "the new" };
	const struct cp_placement_probe *probe =
		&context->runs[side]->environment.placement;
	char readings[96], text[256];

	if (!side_mixed(context, side))
		return 0;
	cp_placement_format(probe, readings, sizeof(readings));
	if (probe->pooled_runs)
		snprintf(text, sizeof(text),
			 "%s side's runs were not all on one CPU placement (round trip %s)",
			 which[side], readings);
	else
		snprintf(text, sizeof(text),
			 "%s run's CPU placement moved during it (round trip %s)",
			 which[side], readings);
	emit_note(out, prefix, text, width);
	return 1;
}

/* Beside the difference of placement, what it means for the rows below,
 * with how many of the changes found are of rows that follow it: a
 * reader would otherwise take their moves for the software's.  How many
 * notes. */
static size_t placement_note(const struct compare_context *context,
			     FILE *out, const char *prefix, size_t width)
{
	const struct cp_comparison *comparison = context->comparison;
	size_t rows = 0, changes = 0, changes_across = 0;
	char text[512];
	int used;

	if (!cp_placements_differ(&context->runs[0]->environment.placement,
				  &context->runs[1]->environment.placement) &&
	    !side_mixed(context, 0) && !side_mixed(context, 1))
		return 0;
	for (size_t i = 0; i < comparison->nr_rows; i++) {
		const struct cp_comparison_row *row = &comparison->rows[i];

		rows += across_cpus(row);
		changes += flagged(row);
		changes_across += flagged(row) && across_cpus(row);
	}
	if (!rows)
		return 0;
	used = snprintf(text, sizeof(text), "%s",
			"rows across two CPUs (bounce, xcore, c2c) follow that placement (on a virtual machine, where the host runs the vCPUs): their changes between these runs may be the machine's, not the software's");
	if (changes && used > 0 && (size_t)used < sizeof(text))
		snprintf(text + used, sizeof(text) - (size_t)used,
			 "; %zu of the %zu regressions and improvements are such rows",
			 changes_across, changes);
	emit_note(out, prefix, text, width);
	return 1;
}

/* Notes a reader needs before the figures: why the runs may differ,
 * each wrapped to @width columns unless it is 0.  How many notes. */
static size_t write_notes(const struct compare_context *context, FILE *out,
			  const char *prefix, size_t width)
{
	struct cp_environment_difference
		differences[CP_MAX_ENVIRONMENT_DIFFERENCES];
	size_t n = cp_environment_differences(context->runs[0],
					      context->runs[1], differences);
	static const char *const which[] = { "the baseline", "the new" };
	size_t notes = n;
	/* Room for a difference's two texts whole. */
	char text[sizeof(differences[0].base) + sizeof(differences[0].next) +
		  128];

	for (int r = 0; r < 2; r++) {
		int used;

		if (context->nr_paths[r] < 2)
			continue;
		used = snprintf(text, sizeof(text), "%s side pools %zu runs",
				which[r], context->nr_paths[r]);
		if (context->nr_partial[r] && used > 0 &&
		    (size_t)used < sizeof(text))
			snprintf(text + used, sizeof(text) - (size_t)used,
				 "; %zu measurements not in every run left out",
				 context->nr_partial[r]);
		emit_note(out, prefix, text, width);
		notes++;
	}

	for (size_t i = 0; i < n; i++) {
		snprintf(text, sizeof(text), "different %s: %s / %s",
			 differences[i].what, differences[i].base,
			 differences[i].next);
		emit_note(out, prefix, text, width);
	}
	for (int r = 0; r < 2; r++)
		notes += mixed_note(context, r, out, prefix, width);
	notes += placement_note(context, out, prefix, width);
	for (int r = 0; r < 2; r++) {
		const struct cp_results *run = context->runs[r];

		if (run->interrupted) {
			snprintf(text, sizeof(text), "%s %s interrupted",
				 which[r],
				 context->nr_paths[r] > 1 ? "side has a run"
							  : "run was");
			emit_note(out, prefix, text, width);
		}
		for (size_t i = 0; i < run->nr_skipped_areas; i++) {
			snprintf(text, sizeof(text), "%s run left out %s: %s",
				 which[r], run->skipped_areas[i].name,
				 run->skipped_areas[i].reason);
			emit_note(out, prefix, text, width);
		}
		notes += run->interrupted + run->nr_skipped_areas;
	}
	return notes;
}

/* A row of the table: one line; on a terminal, a label too long for its
 * column on a line of its own (wrapped), the figures under it, and
 * figures too wide for their columns on a line of their own. */
static void console_row(FILE *out, const struct cp_comparison_row *row,
			bool terminal)
{
	char label[160], base[32], next[32], interval[48], figures[160];
	size_t figures_at = 2 + CONSOLE_LABEL_WIDTH + 1;

	row_label(row, label, sizeof(label));
	interval_text(row, interval, sizeof(interval));
	snprintf(figures, sizeof(figures), "%8s %8s %6.3f %-11s  %s",
		 cp_format_ns(row->base->stats_ns.median, base, sizeof(base)),
		 cp_format_ns(row->next->stats_ns.median, next, sizeof(next)),
		 row->ratio, interval, cp_verdict_name(row->verdict));
	if (!terminal || (strlen(label) <= CONSOLE_LABEL_WIDTH &&
			  figures_at + strlen(figures) <= CONSOLE_WIDTH)) {
		fprintf(out, "  %-*s %s\n", CONSOLE_LABEL_WIDTH, label,
			figures);
		return;
	}
	fputs("  ", out);
	cli_print_wrapped(out, label, 2, CONSOLE_WIDTH, 4);
	if (figures_at + strlen(figures) <= CONSOLE_WIDTH)
		fprintf(out, "%*s%s\n", (int)figures_at, "", figures);
	else
		fprintf(out, "    %s\n", figures);
}

/* The rows a terminal shows unless every row is asked for. */
static bool shown(const struct cp_comparison_row *row,
		  const struct compare_console *form)
{
	return !form->terminal || form->every_row || flagged(row);
}

static void console_table(FILE *out, const struct cp_comparison *comparison,
			  const struct compare_console *form)
{
	size_t hidden = 0;
	bool header = false;

	for (size_t i = 0; i < comparison->nr_rows; i++) {
		const struct cp_comparison_row *row = &comparison->rows[i];

		if (!shown(row, form)) {
			hidden++;
			continue;
		}
		if (!header)
			fprintf(out, "  %-*s %8s %8s %6s %-11s  %s\n",
				CONSOLE_LABEL_WIDTH, "measurement",
				"baseline", "new", "ratio", "interval",
				"verdict");
		header = true;
		console_row(out, row, form->terminal);
	}
	if (hidden)
		fprintf(out, "%zu rows same, unclear or without a ratio not shown (--verbose: every row)\n",
			hidden);
}

int compare_write_console(const struct compare_context *context,
			  const struct compare_console *form, FILE *out)
{
	const struct cp_comparison *comparison = context->comparison;
	size_t width = form->terminal ? CONSOLE_WIDTH : 0;
	char text[256], totals[160];

	totals_text(comparison, totals, sizeof(totals));
	snprintf(text, sizeof(text), "%zu measurements: %s",
		 comparison->nr_rows, totals);
	cli_print_wrapped(out, text, 0, width, 2);
	if (comparison->only_base || comparison->only_next)
		fprintf(out,
			"not compared: %zu only in the baseline, %zu only in the new run\n",
			comparison->only_base, comparison->only_next);
	snprintf(text, sizeof(text),
		 "threshold %g %%, false discovery rate %g; intervals of the ratio",
		 100 * comparison->threshold, comparison->alpha);
	emit_note(out, "", text, width);
	if (comparison->cycles) {
		snprintf(text, sizeof(text),
			 "ratios in core cycles for %zu of %zu measurements (both runs measured the core clock), in ns for the rest",
			 comparison->in_cycles, comparison->nr_rows);
		emit_note(out, "", text, width);
	}
	write_notes(context, out, "note: ", width);
	console_table(out, comparison, form);
	return ferror(out) ? -EIO : 0;
}

static void add(json_object *object, const char *key, json_object *value)
{
	json_object_object_add(object, key, value);
}

/* JSON has no infinity: an unbounded end is null. */
static json_object *row_json(const struct cp_comparison_row *row)
{
	json_object *object = json_object_new_object();
	json_object *interval = NULL;

	add(object, "area", json_object_new_string(row->next->area));
	add(object, "name", json_object_new_string(row->next->name));
	add(object, "mode", json_object_new_string(row->next->mode));
	add(object, "baseline_median_ns",
	    cp_json_number(row->base->stats_ns.median));
	add(object, "new_median_ns", cp_json_number(row->next->stats_ns.median));
	add(object, "ratio", cp_json_number(row->ratio));
	add(object, "ratio_of_medians", cp_json_number(row->ratio_of_medians));
	if (row->verdict != CP_VERDICT_NO_RATIO) {
		interval = json_object_new_array();
		json_object_array_add(interval, cp_json_number(row->low));
		json_object_array_add(interval, cp_json_number(row->high));
	}
	add(object, "interval", interval);
	add(object, "interval_confidence", cp_json_number(row->confidence));
	add(object, "p_value", cp_json_number(row->p_value));
	add(object, "p_adjusted", cp_json_number(row->p_adjusted));
	add(object, "units", json_object_new_string(row->by_rounds ? "rounds"
								   : "samples"));
	add(object, "in", json_object_new_string(row->in_cycles ? "cycles"
								 : "ns"));
	add(object, "baseline_units",
	    json_object_new_int64((int64_t)(row->by_rounds
			? row->base_rounds : row->base->nr_samples)));
	add(object, "new_units",
	    json_object_new_int64((int64_t)(row->by_rounds
			? row->next_rounds : row->next->nr_samples)));
	add(object, "verdict",
	    json_object_new_string(cp_verdict_key(row->verdict)));
	return object;
}

static json_object *totals_json(const struct cp_comparison *comparison)
{
	json_object *object = json_object_new_object();

	add(object, "compared", json_object_new_int64(
			(int64_t)comparison->nr_rows));
	for (int v = 0; v < CP_NR_VERDICTS; v++)
		add(object, cp_verdict_key(v), json_object_new_int64(
				(int64_t)comparison->totals[v]));
	add(object, "only_baseline",
	    json_object_new_int64((int64_t)comparison->only_base));
	add(object, "only_new",
	    json_object_new_int64((int64_t)comparison->only_next));
	return object;
}

static json_object *run_json(const struct compare_context *context, int side)
{
	const struct cp_results *run = context->runs[side];
	json_object *object = json_object_new_object();
	json_object *files = json_object_new_array();
	json_object *skipped = json_object_new_array();

	for (size_t i = 0; i < context->nr_paths[side]; i++)
		json_object_array_add(files, json_object_new_string(
				context->paths[side][i]));
	add(object, "files", files);
	add(object, "measurements_not_in_every_run", json_object_new_int64(
			(int64_t)context->nr_partial[side]));
	add(object, "date", json_object_new_string(run->environment.date));
	add(object, "interrupted", json_object_new_boolean(run->interrupted));
	add(object, "placement_moved",
	    json_object_new_boolean(side_mixed(context, side)));
	for (size_t i = 0; i < run->nr_skipped_areas; i++)
		json_object_array_add(skipped, json_object_new_string(
				run->skipped_areas[i].name));
	add(object, "skipped_areas", skipped);
	return object;
}

static json_object *differences_json(const struct compare_context *context)
{
	struct cp_environment_difference
		differences[CP_MAX_ENVIRONMENT_DIFFERENCES];
	size_t n = cp_environment_differences(context->runs[0],
					      context->runs[1], differences);
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *item = json_object_new_object();

		add(item, "what", json_object_new_string(differences[i].what));
		add(item, "baseline",
		    json_object_new_string(differences[i].base));
		add(item, "new", json_object_new_string(differences[i].next));
		json_object_array_add(array, item);
	}
	return array;
}

int compare_write_json(const struct compare_context *context, FILE *out)
{
	const struct cp_comparison *comparison = context->comparison;
	json_object *root = json_object_new_object();
	json_object *rows = json_object_new_array();

	add(root, "schema", json_object_new_string("cacheprobe-compare/1"));
	add(root, "baseline", run_json(context, 0));
	add(root, "new", run_json(context, 1));
	add(root, "threshold_percent", cp_json_number(100 * comparison->threshold));
	add(root, "false_discovery_rate", cp_json_number(comparison->alpha));
	add(root, "environment_differences", differences_json(context));
	add(root, "totals", totals_json(comparison));
	for (size_t i = 0; i < comparison->nr_rows; i++)
		json_object_array_add(rows, row_json(&comparison->rows[i]));
	add(root, "measurements", rows);
	return cp_json_print(root, out);
}

/* @text in a Markdown table cell: what would end the cell or start
 * markup is escaped. */
static void markdown_text(FILE *out, const char *text)
{
	for (; *text; text++) {
		if (strchr("|\\`*_[]<>#", *text))
			fputc('\\', out);
		fputc(*text, out);
	}
}

static void markdown_files(FILE *out, const struct compare_context *context,
			   int side)
{
	for (size_t i = 0; i < context->nr_paths[side]; i++) {
		fputs(i ? " + " : "", out);
		markdown_text(out, context->paths[side][i]);
	}
}

static void markdown_row(FILE *out, const struct cp_comparison_row *row)
{
	char label[160], base[32], next[32], interval[48];

	row_label(row, label, sizeof(label));
	interval_text(row, interval, sizeof(interval));
	fputs("| ", out);
	markdown_text(out, label);
	fprintf(out, " | %s | %s | %.3f | %s | %s |\n",
		cp_format_ns(row->base->stats_ns.median, base, sizeof(base)),
		cp_format_ns(row->next->stats_ns.median, next, sizeof(next)),
		row->ratio, interval,
		row->verdict == CP_VERDICT_REGRESSION ? "**REGRESSION**"
						      : cp_verdict_name(row->verdict));
}

static void markdown_table(FILE *out, const struct cp_comparison *comparison,
			   bool changes_only)
{
	fputs("| measurement | baseline | new | ratio | interval | verdict |\n"
	      "|---|---:|---:|---:|---|---|\n", out);
	for (size_t i = 0; i < comparison->nr_rows; i++)
		if (!changes_only || flagged(&comparison->rows[i]))
			markdown_row(out, &comparison->rows[i]);
}

int compare_write_markdown(const struct compare_context *context, FILE *out)
{
	const struct cp_comparison *comparison = context->comparison;
	size_t changes = comparison->totals[CP_VERDICT_REGRESSION] +
			 comparison->totals[CP_VERDICT_IMPROVEMENT];
	char totals[160];

	totals_text(comparison, totals, sizeof(totals));
	fprintf(out, "### cacheprobe compare: %s\n\n", totals);
	fputs("Baseline ", out);
	markdown_files(out, context, 0);
	fputs(", new ", out);
	markdown_files(out, context, 1);
	fprintf(out,
		": %zu measurements compared (threshold %g %%, false discovery rate %g).\n\n",
		comparison->nr_rows, 100 * comparison->threshold,
		comparison->alpha);
	if (write_notes(context, out, "- ", 0))
		fputs("\n", out);
	if (changes) {
		markdown_table(out, comparison, true);
		fputs("\n", out);
	}
	fprintf(out, "<details><summary>All %zu measurements</summary>\n\n",
		comparison->nr_rows);
	markdown_table(out, comparison, false);
	fputs("\n</details>\n", out);
	return ferror(out) ? -EIO : 0;
}
