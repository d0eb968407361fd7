/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two sides of a comparison read from their files: one run each, or
 * several pooled (results/results_pool.h).  The sides are read at once, one
 * on another thread: reading is most of compare's time on large runs.
 */
#ifndef CACHEPROBE_COMPARE_SIDES_H
#define CACHEPROBE_COMPARE_SIDES_H

#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"
#include "results/results_index.h"

struct compare_side {
	char **paths;		/* set by the caller */
	size_t nr_paths;
	struct cp_results *runs;
	struct cp_results_index *indexes;
	size_t nr_loaded;
	struct cp_results pooled;
	struct cp_results_index pooled_index;
	bool is_pooled;
	size_t nr_partial;	/* measurements not in every run */
	int status;		/* CLI_PROCEED, or the exit for @message */
	char message[1024];
};

/* Read both sides (their paths set).  CLI_PROCEED, or the exit status
 * after saying what is wrong with the first side that failed. */
int compare_load_sides(struct compare_side *sides);

const struct cp_results *compare_side_results(const struct compare_side *side);
const struct cp_results_index *
compare_side_index(const struct compare_side *side);

void compare_side_free(struct compare_side *side);

#endif
