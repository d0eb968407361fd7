/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Paired comparison of two methods measured turn by turn: in how many
 * turns the first gave the lower value, the higher, or the same, and the
 * sign test's exact two-sided p-value (ties set aside) for "neither is
 * lower more often than chance".  The coldcache area pairs a garbage
 * factor's repetitions with naive's from the same turn of its rotation:
 * both met the same moment of a shared host, which a comparison of their
 * worst cases over all turns does not control.
 */
#ifndef CACHEPROBE_SIGN_TEST_H
#define CACHEPROBE_SIGN_TEST_H

#include <stddef.h>
#include <stdint.h>

struct cp_paired {
	size_t lower;		/* turns where the first is lower */
	size_t higher;
	size_t tied;
	double p_value;		/* two-sided; 1 when no turn differs */
};

/* Exact two-sided sign-test p-value for @lower against @higher. */
double cp_sign_test_p(size_t lower, size_t higher);

/*
 * Pair values by turn: @first_turns and @second_turns are increasing turn
 * numbers, one per value; turns only one side has are skipped.
 */
void cp_paired_compare(const uint32_t *first_turns, const int64_t *first,
		       size_t nr_first, const uint32_t *second_turns,
		       const int64_t *second, size_t nr_second,
		       struct cp_paired *out);

#endif
