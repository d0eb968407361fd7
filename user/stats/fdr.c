// SPDX-License-Identifier: GPL-2.0
#include "stats/fdr.h"

#include <errno.h>
#include <stdlib.h>

struct ranked {
	double p;
	size_t index;
};

static int by_p(const void *left, const void *right)
{
	const struct ranked *a = left, *b = right;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

int cp_fdr_adjust(const double *p, size_t n, double *adjusted)
{
	struct ranked *order = malloc((n ? n : 1) * sizeof(*order));
	double running = 1;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		order[i] = (struct ranked){ .p = p[i], .index = i };
	qsort(order, n, sizeof(*order), by_p);
	/* From the largest p down, so each takes the least of those above. */
	for (size_t rank = n; rank > 0; rank--) {
		double scaled = order[rank - 1].p * (double)n / (double)rank;

		if (scaled < running)
			running = scaled;
		adjusted[order[rank - 1].index] = running;
	}
	free(order);
	return 0;
}
