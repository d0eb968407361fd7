/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results as JSON, schema CP_RESULTS_SCHEMA (user/doc/results-schema.md):
 * writing for every run, reading back for compare.
 */
#ifndef CACHEPROBE_RESULTS_JSON_H
#define CACHEPROBE_RESULTS_JSON_H

#include <stdio.h>

#include "util/error.h"
#include "results/results.h"

/* 0, or -errno. */
int cp_results_write_json(const struct cp_results *results, FILE *out);

/*
 * Read @path into @results (initialised here).  -EINVAL with @error
 * explaining what is wrong for a file that is not JSON, not of this schema
 * or lacks a field; -errno when it cannot be read.
 */
int cp_results_read_json(const char *path, struct cp_results *results,
			 struct cp_error *error);

/* The same without the bootstrap intervals of the medians (NaN), which
 * take most of the time of reading a large file (compare). */
int cp_results_read_json_samples(const char *path, struct cp_results *results,
				 struct cp_error *error);

#endif
