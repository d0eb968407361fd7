// SPDX-License-Identifier: GPL-2.0
#include "stats/sign_test.h"

#include <math.h>

double cp_sign_test_p(size_t lower, size_t higher)
{
	size_t n = lower + higher;
	size_t k = lower < higher ? lower : higher;
	double tail = 0;

	if (!n)
		return 1;
	/* P(X <= k) for X ~ Binomial(n, 1/2), each term in logarithms so
	 * that large n neither overflows nor underflows before summing. */
	for (size_t i = 0; i <= k; i++)
		tail += exp(lgamma((double)n + 1) - lgamma((double)i + 1) -
			    lgamma((double)(n - i) + 1) - (double)n * M_LN2);
	return 2 * tail < 1 ? 2 * tail : 1;
}

void cp_paired_compare(const uint32_t *first_turns, const int64_t *first,
		       size_t nr_first, const uint32_t *second_turns,
		       const int64_t *second, size_t nr_second,
		       struct cp_paired *out)
{
	size_t i = 0, j = 0;

	*out = (struct cp_paired){ 0 };
	while (i < nr_first && j < nr_second) {
		if (first_turns[i] < second_turns[j]) {
			i++;
		} else if (first_turns[i] > second_turns[j]) {
			j++;
		} else {
			out->lower += first[i] < second[j];
			out->higher += first[i] > second[j];
			out->tied += first[i] == second[j];
			i++;
			j++;
		}
	}
	out->p_value = cp_sign_test_p(out->lower, out->higher);
}
