// SPDX-License-Identifier: GPL-2.0
#include "harness/rounds.h"

#include "harness/rng.h"
#include "stats/stats.h"

unsigned int cp_rounds_samples_per_round(unsigned int samples,
					 unsigned int rounds)
{
	if (!rounds || rounds >= samples)
		return 1;
	return (samples + rounds - 1) / rounds;
}

struct cp_rounds cp_rounds_plan(unsigned int samples, unsigned int rounds)
{
	struct cp_rounds plan = {
		.samples = samples,
		.per_round = cp_rounds_samples_per_round(samples, rounds),
	};

	plan.rounds = (unsigned int)cp_rounds_count(samples, plan.per_round);
	return plan;
}

unsigned int cp_rounds_samples_in(const struct cp_rounds *plan,
				  unsigned int round)
{
	unsigned int before = round * plan->per_round;

	if (before >= plan->samples)
		return 0;
	return plan->samples - before < plan->per_round
		       ? plan->samples - before : plan->per_round;
}

unsigned int cp_rounds_marked(const struct cp_rounds *plan)
{
	return plan->rounds > 1 ? plan->per_round : 0;
}

size_t cp_rounds_count(size_t nr_samples, unsigned int per_round)
{
	if (!per_round)
		return 0;
	return (nr_samples + per_round - 1) / per_round;
}

size_t cp_rounds_medians(const double *values, size_t nr_samples,
			 unsigned int per_round, double *medians)
{
	size_t rounds = cp_rounds_count(nr_samples, per_round);

	for (size_t r = 0; r < rounds; r++) {
		size_t first = r * per_round;
		size_t n = nr_samples - first < per_round ? nr_samples - first
							  : per_round;

		medians[r] = cp_stats_median(values + first, n);
	}
	return rounds;
}

void cp_rounds_order(size_t *order, size_t n, uint64_t seed)
{
	struct cp_rng rng;

	cp_rng_seed(&rng, seed);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)cp_rng_below(&rng, i);
		size_t kept = order[i - 1];

		order[i - 1] = order[j];
		order[j] = kept;
	}
}

void cp_rounds_order_in(size_t *order, size_t n, uint64_t seed,
			unsigned int round)
{
	/* The golden ratio's odd multiples keep the rounds' seeds apart. */
	cp_rounds_order(order, n, seed ^ (0x9e3779b97f4a7c15ull * (round + 1)));
}
