/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The forms a comparison is written in: the console table, JSON for CI
 * systems (schema "cacheprobe-compare/1", user/doc/results-schema.md) and
 * Markdown for a pull-request comment.  Each starts with the answer (how
 * many of each verdict) and what differs between the two environments.
 */
#ifndef CACHEPROBE_COMPARE_OUTPUT_H
#define CACHEPROBE_COMPARE_OUTPUT_H

#include <stdio.h>

#include "stats/comparison.h"

struct compare_context {
	const char *const *paths[2];	/* the files of the baseline, new */
	size_t nr_paths[2];
	size_t nr_partial[2];		/* measurements not in every run */
	const struct cp_results *runs[2];	/* pooled when several */
	const struct cp_comparison *comparison;
};

/* 0, or -EIO when @out failed. */
int compare_write_console(const struct compare_context *context, FILE *out);
int compare_write_json(const struct compare_context *context, FILE *out);
int compare_write_markdown(const struct compare_context *context, FILE *out);

#endif
