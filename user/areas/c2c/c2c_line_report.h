/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-line spread of c2c pairs (areas/c2c/c2c_line_spread.h) in the results
 * and the outputs: kept in a user-mode measurement's params, so the
 * results file carries it and reads it back like any param; the object
 * of a pair in c2c_pairs; the summary of a matrix's pairs and its console
 * lines.  Kernel mode passes one line and has none.
 */
#ifndef CACHEPROBE_C2C_LINE_REPORT_H
#define CACHEPROBE_C2C_LINE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "areas/c2c/c2c_line_spread.h"
#include "results/results.h"

/* Into @m's params (user/doc/results-schema.md names them).  0, or
 * -ENOSPC when the params are full. */
int cp_c2c_line_spread_store(struct cp_measurement *m,
			     const struct cp_c2c_line_spread *spread);
/* Back from @m's params; false when it has none.  The typical noise is
 * not kept (NaN); the visits come from the samples and the lines. */
bool cp_c2c_line_spread_load(const struct cp_measurement *m,
			     struct cp_c2c_line_spread *spread);

struct json_object;

/* {"groups","lines","visits_per_line","fast_group","slow_group",
 * "slow_over_fast","range_percent"}; a group is {"lines","round_trip_ns",
 * "one_way_ns"}; null where undetermined. */
struct json_object *cp_c2c_line_spread_json(
	const struct cp_c2c_line_spread *spread);

/* The spreads of a matrix's pairs. */
struct cp_c2c_spread_summary {
	size_t pairs;			/* pairs with a spread; 0: none */
	size_t undetermined, one_group, split;	/* split: 2+ groups */
	unsigned int most_groups;
	size_t lines;			/* the most lines of a pair */
	unsigned int visits;		/* the fewest timings of a line */
	unsigned int rounds;		/* the most jobs a pair's lines had */
	/* Split pairs: the medians over them of the fastest and the
	 * slowest group's median (ns per round trip) and share of the
	 * lines; with one pair, its counts too. */
	double fast_ns, slow_ns, fast_share, slow_share;
	size_t fast_lines, slow_lines;
	/* One-group pairs: the median over them of their median; every
	 * pair judged: the widest range of its line medians. */
	double one_ns, widest_range;
};

/* The summary of @n spreads.  0 or -ENOMEM. */
int cp_c2c_spread_summarize(const struct cp_c2c_line_spread *spreads,
			    size_t n, struct cp_c2c_spread_summary *out);

/* A line or two under the matrix's pair classes: answers first, the
 * fast and slow groups or one group, or why undetermined. */
void cp_c2c_spread_print(FILE *out, const char *variant, const char *mode,
			 const struct cp_c2c_spread_summary *summary);

/* The samples that give every line of a full pool
 * CP_C2C_SPREAD_MIN_VISITS timings, spread over @rounds jobs. */
unsigned int cp_c2c_spread_samples_needed(unsigned int rounds);

#endif
