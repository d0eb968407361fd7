// SPDX-License-Identifier: GPL-2.0
#include "results/results_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int compare_names(const struct cp_measurement *a,
			 const struct cp_measurement *b)
{
	int order = strcmp(a->area, b->area);

	return order ? order : strcmp(a->name, b->name);
}

static int compare_identities(const struct cp_measurement *a,
			      const struct cp_measurement *b)
{
	int order = compare_names(a, b);

	return order ? order : strcmp(a->mode, b->mode);
}

/* Ties in file order, so that a duplicate is reported as the file has it. */
static int compare_entries(const void *left, const void *right)
{
	const struct cp_measurement *a =
		*(const struct cp_measurement *const *)left;
	const struct cp_measurement *b =
		*(const struct cp_measurement *const *)right;
	int order = compare_identities(a, b);

	if (order)
		return order;
	return (a > b) - (a < b);
}

static void first_duplicate(const struct cp_results_index *index,
			    const struct cp_measurement **first,
			    const struct cp_measurement **second)
{
	*first = NULL;
	*second = NULL;
	for (size_t i = 1; i < index->nr; i++) {
		const struct cp_measurement *a = index->sorted[i - 1];
		const struct cp_measurement *b = index->sorted[i];

		if (compare_identities(a, b) || (*second && b >= *second))
			continue;
		*first = a;
		*second = b;
	}
}

int cp_results_index_build(struct cp_results_index *index,
			   const struct cp_results *results,
			   const struct cp_measurement **first,
			   const struct cp_measurement **second)
{
	size_t nr = results->nr_measurements;

	index->nr = 0;
	index->sorted = malloc((nr ? nr : 1) * sizeof(*index->sorted));
	if (!index->sorted)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		index->sorted[i] = &results->measurements[i];
	qsort(index->sorted, nr, sizeof(*index->sorted), compare_entries);
	index->nr = nr;
	first_duplicate(index, first, second);
	return *first ? -EEXIST : 0;
}

void cp_results_index_free(struct cp_results_index *index)
{
	free(index->sorted);
	index->sorted = NULL;
	index->nr = 0;
}

/* The position of the first entry not ordered before @m's area and name
 * (with @by_mode, before its identity). */
static size_t lower_bound(const struct cp_results_index *index,
			  const struct cp_measurement *m, bool by_mode)
{
	size_t low = 0, high = index->nr;

	while (low < high) {
		size_t middle = low + (high - low) / 2;
		const struct cp_measurement *entry = index->sorted[middle];
		int order = by_mode ? compare_identities(entry, m)
				    : compare_names(entry, m);

		if (order < 0)
			low = middle + 1;
		else
			high = middle;
	}
	return low;
}

const struct cp_measurement *
cp_results_index_find(const struct cp_results_index *index,
		      const struct cp_measurement *m)
{
	size_t at = lower_bound(index, m, true);

	if (at < index->nr && !compare_identities(index->sorted[at], m))
		return index->sorted[at];
	return NULL;
}

bool cp_results_index_name_repeats(const struct cp_results_index *index,
				   const struct cp_measurement *m)
{
	for (size_t at = lower_bound(index, m, false);
	     at < index->nr && !compare_names(index->sorted[at], m); at++)
		if (strcmp(index->sorted[at]->mode, m->mode))
			return true;
	return false;
}
