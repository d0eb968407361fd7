/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The forms a comparison is written in: the console table, JSON for CI
 * systems (schema "cacheprobe-compare/1", user/doc/results-schema.md) and
 * Markdown for a pull-request comment.  Each starts with the answer (how
 * many of each verdict) and what differs between the two environments.
 */
#ifndef CACHEPROBE_COMPARE_OUTPUT_H
#define CACHEPROBE_COMPARE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "stats/comparison.h"

struct compare_context {
	const char *const *paths[2];	/* the files of the baseline, new */
	size_t nr_paths[2];
	size_t nr_partial[2];		/* measurements not in every run */
	const struct cp_results *runs[2];	/* pooled when several */
	const struct cp_comparison *comparison;
};

/*
 * How the console table is laid out.  On a @terminal, for a person: 80
 * columns (notes wrapped, a label too long for its column on a line of
 * its own) and only the regressions and improvements, unless
 * @every_row.  Otherwise, for grep and scripts: a line per note and per
 * row, every row.
 */
struct compare_console {
	bool terminal;
	bool every_row;
};

/* 0, or -EIO when @out failed. */
int compare_write_console(const struct compare_context *context,
			  const struct compare_console *form, FILE *out);
int compare_write_json(const struct compare_context *context, FILE *out);
int compare_write_markdown(const struct compare_context *context, FILE *out);

#endif
