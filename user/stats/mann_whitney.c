// SPDX-License-Identifier: GPL-2.0
#include "stats/mann_whitney.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

struct ranked {
	double value;
	bool from_first;
};

static int compare_ranked(const void *a, const void *b)
{
	double left = ((const struct ranked *)a)->value;
	double right = ((const struct ranked *)b)->value;

	return (left > right) - (left < right);
}

/* Rank sum of the first set (ties get their average rank) and the tie
 * term sum(t^3 - t) over groups of t equal values. */
static void rank_sum(struct ranked *all, size_t n, double *first_sum,
		     double *tie_term)
{
	*first_sum = 0;
	*tie_term = 0;
	qsort(all, n, sizeof(*all), compare_ranked);
	for (size_t start = 0; start < n;) {
		size_t end = start + 1;
		double rank, ties;

		while (end < n && all[end].value == all[start].value)
			end++;
		rank = (double)(start + 1 + end) / 2;	/* ranks start+1..end */
		ties = (double)(end - start);
		*tie_term += ties * ties * ties - ties;
		for (size_t i = start; i < end; i++)
			if (all[i].from_first)
				*first_sum += rank;
		start = end;
	}
}

/*
 * P(U <= @u) for sets of @m and @n without ties: the number of
 * arrangements with U = k satisfies c(m, n, k) = c(m-1, n, k-n) +
 * c(m, n-1, k), over all C(m+n, m) arrangements.
 */
static int exact_cdf(size_t m, size_t n, size_t u, double *out)
{
	size_t width = m * n + 1;
	/* counts[j][k]: arrangements of i firsts and j seconds with U = k,
	 * for the current i; doubles, as the counts grow past 64 bits. */
	double *counts = calloc((n + 1) * width, sizeof(*counts));
	double total = 0, below = 0;

	if (!counts)
		return -ENOMEM;
	for (size_t j = 0; j <= n; j++)
		counts[j * width] = 1;			/* i = 0: U = 0 */
	for (size_t i = 1; i <= m; i++)
		for (size_t j = 0; j <= n; j++)
			for (size_t k = i * j + 1; k-- > 0;) {
				/* The largest value is a first (adds j to
				 * U) or a second (adds nothing). */
				double from_first =
					k >= j ? counts[j * width + k - j] : 0;
				double from_second =
					j ? counts[(j - 1) * width + k] : 0;

				counts[j * width + k] = from_first + from_second;
			}
	for (size_t k = 0; k < width; k++) {
		total += counts[n * width + k];
		if (k <= u)
			below += counts[n * width + k];
	}
	*out = below / total;
	free(counts);
	return 0;
}

static int exact_p(size_t m, size_t n, double u_first, double *p)
{
	double low, high;
	size_t u = (size_t)u_first;
	int ret = exact_cdf(m, n, u, &low);

	/* P(U >= u) = P(U <= mn - u) by symmetry. */
	if (!ret)
		ret = exact_cdf(m, n, m * n - u, &high);
	if (!ret)
		*p = fmin(1, 2 * fmin(low, high));
	return ret;
}

static void normal_p(size_t m, size_t n, double tie_term,
		     struct cp_mann_whitney *out)
{
	double total = (double)(m + n);
	double mean = (double)m * (double)n / 2;
	double variance = (double)m * (double)n / 12 *
			  ((total + 1) - tie_term / (total * (total - 1)));
	double distance = fabs(out->u_first - mean) - 0.5;

	if (variance <= 0) {		/* every value equal */
		out->z = 0;
		out->p_value = 1;
		return;
	}
	out->z = (distance > 0 ? distance : 0) / sqrt(variance);
	out->p_value = erfc(out->z / sqrt(2));
}

int cp_mann_whitney(const double *first, size_t n_first, const double *second,
		    size_t n_second, struct cp_mann_whitney *out)
{
	size_t n = n_first + n_second;
	struct ranked *all;
	double first_sum, tie_term;

	if (!n_first || !n_second)
		return -EINVAL;
	all = malloc(n * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < n_first; i++)
		all[i] = (struct ranked){ first[i], true };
	for (size_t i = 0; i < n_second; i++)
		all[n_first + i] = (struct ranked){ second[i], false };
	rank_sum(all, n, &first_sum, &tie_term);
	free(all);
	out->u_first = first_sum - (double)n_first * (double)(n_first + 1) / 2;
	out->u_second = (double)n_first * (double)n_second - out->u_first;
	out->z = 0;
	out->exact = tie_term == 0 && n_first <= CP_MW_EXACT_MAX &&
		     n_second <= CP_MW_EXACT_MAX;
	if (out->exact)
		return exact_p(n_first, n_second, out->u_first, &out->p_value);
	normal_p(n_first, n_second, tie_term, out);
	return 0;
}
