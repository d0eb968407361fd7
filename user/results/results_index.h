/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measurements of a run ordered by identity (area, name, mode), so
 * that compare pairs two runs of hundreds of thousands of measurements in
 * n log n instead of n squared, and a file that names one measurement
 * twice is caught instead of half of it being ignored.
 */
#ifndef CACHEPROBE_RESULTS_INDEX_H
#define CACHEPROBE_RESULTS_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"

struct cp_results_index {
	const struct cp_measurement **sorted;
	size_t nr;
};

/*
 * Order @results' measurements into @index.  0; -ENOMEM; or -EEXIST when
 * two measurements share an identity, the first two such in *@first and
 * *@second (in the order of the file).
 */
int cp_results_index_build(struct cp_results_index *index,
			   const struct cp_results *results,
			   const struct cp_measurement **first,
			   const struct cp_measurement **second);
void cp_results_index_free(struct cp_results_index *index);

/* The measurement of @index with @m's identity, or NULL. */
const struct cp_measurement *
cp_results_index_find(const struct cp_results_index *index,
		      const struct cp_measurement *m);

/* Whether another measurement of @index has @m's area and name (in
 * another mode): then a row must say which mode it is. */
bool cp_results_index_name_repeats(const struct cp_results_index *index,
				   const struct cp_measurement *m);

#endif
