// SPDX-License-Identifier: GPL-2.0
#include "stats/ratio_interval.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

double cp_normal_quantile_two_sided(double confidence)
{
	double low = 0, high = 40;

	/* erfc is monotone; bisection to double precision is cheap and
	 * needs no table of coefficients. */
	for (int i = 0; i < 200 && high - low > 1e-12; i++) {
		double middle = (low + high) / 2;

		if (erfc(middle / sqrt(2)) > 1 - confidence)
			low = middle;
		else
			high = middle;
	}
	return (low + high) / 2;
}

static void swap(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

/* The @k-th smallest (from 0) of @values (@n), reordering them: Hoare's
 * selection, linear on average, where sorting every ratio of 200,000
 * measurements would dominate compare's time. */
static double select_kth(double *values, size_t n, size_t k)
{
	size_t left = 0, right = n - 1;

	while (left < right) {
		double pivot = values[left + (right - left) / 2];
		size_t i = left, j = right;

		while (i <= j) {
			while (values[i] < pivot)
				i++;
			while (values[j] > pivot)
				j--;
			if (i <= j) {
				swap(&values[i], &values[j]);
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			right = j;
		else if (k >= i)
			left = i;
		else
			return values[k];
	}
	return values[k];
}

/* The median of @values (@n), reordering them. */
static double median_of(double *values, size_t n)
{
	double upper = select_kth(values, n, n / 2);
	double lower = upper;

	if (n % 2 == 0) {
		lower = values[0];
		for (size_t i = 1; i < n / 2; i++)
			if (values[i] > lower)
				lower = values[i];
	}
	return (lower + upper) / 2;
}

int cp_ratio_interval(const double *base, size_t n, const double *next,
		      size_t m, double z, struct cp_ratio_interval *out)
{
	size_t pairs = n * m;
	double *ratios, rank;

	if (!n || !m)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!(base[i] > 0))
			return -EDOM;
	for (size_t j = 0; j < m; j++)
		if (!(next[j] > 0))
			return -EDOM;
	ratios = malloc(pairs * sizeof(*ratios));
	if (!ratios)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++)
			ratios[i * m + j] = next[j] / base[i];
	out->estimate = median_of(ratios, pairs);
	/* Bounds: the C-th smallest and largest ratio, C the lower critical
	 * value of U (Hollander and Wolfe, Nonparametric Statistical
	 * Methods, 4.3). */
	rank = floor((double)pairs / 2 -
		     z * sqrt((double)pairs * (double)(n + m + 1) / 12));
	if (rank < 1) {
		out->low = 0;
		out->high = INFINITY;
	} else {
		out->low = select_kth(ratios, pairs, (size_t)rank - 1);
		out->high = select_kth(ratios, pairs, pairs - (size_t)rank);
	}
	free(ratios);
	return 0;
}
