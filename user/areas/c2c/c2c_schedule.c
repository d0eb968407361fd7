// SPDX-License-Identifier: GPL-2.0
#include "areas/c2c/c2c_schedule.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "areas/c2c/c2c_choices.h"

/* The CPUs of @cpus (or of the topology) in ascending order. */
static unsigned int *list_cpus(const struct cp_topology *topology,
			       const struct cp_cpuset *cpus, size_t *n)
{
	const struct cp_cpuset *set = cpus ? cpus : topology->usable;
	unsigned int *list = malloc((cp_cpuset_count(set) + 1) * sizeof(*list));
	int cpu;

	*n = 0;
	if (!list)
		return NULL;
	for (cpu = cp_cpuset_first(set); cpu >= 0;
	     cpu = cp_cpuset_next(set, (unsigned int)cpu))
		list[(*n)++] = (unsigned int)cpu;
	return list;
}

static void snake(const struct cp_topology *topology,
		  const unsigned int *cpus, size_t n, struct cp_cpu_pair *out)
{
	size_t k = 0;

	for (size_t i = 0; i + 1 < n; i++) {
		for (size_t step = 0; step < n - i - 1; step++) {
			size_t j = i % 2 == 0 ? i + 1 + step : n - 1 - step;

			out[k].first = cpus[i];
			out[k].second = cpus[j];
			out[k].pair_class = cp_pair_class_of(topology, cpus[i],
							     cpus[j]);
			k++;
		}
	}
}

/*
 * The first pair of each class (in snake order) to the front, the rest
 * after them in snake order: a budget that cannot hold every pair still
 * measures every class.  The first row of the snake pairs the first CPU
 * with all others, so on a machine whose classes all involve it the
 * front pairs share that CPU and one thread still moves per step.
 */
static int classes_first(struct cp_c2c_schedule *s)
{
	struct cp_cpu_pair *ordered = malloc(s->nr_pairs * sizeof(*ordered));
	bool seen[CP_NR_PAIR_CLASSES] = { false };
	bool *front = calloc(s->nr_pairs, sizeof(*front));
	size_t k = 0;

	if (!ordered || !front) {
		free(ordered);
		free(front);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->nr_pairs; i++) {
		enum cp_pair_class cls = s->pairs[i].pair_class;

		if ((unsigned int)cls < CP_NR_PAIR_CLASSES && !seen[cls]) {
			seen[cls] = true;
			front[i] = true;
			ordered[k++] = s->pairs[i];
		}
	}
	s->nr_class_firsts = k;
	for (size_t i = 0; i < s->nr_pairs; i++)
		if (!front[i])
			ordered[k++] = s->pairs[i];
	memcpy(s->pairs, ordered, s->nr_pairs * sizeof(*ordered));
	free(ordered);
	free(front);
	return 0;
}

unsigned int cp_c2c_moves_before(const struct cp_c2c_schedule *schedule,
				 size_t i)
{
	const struct cp_cpu_pair *now = &schedule->pairs[i], *before;
	unsigned int moves = 0;

	if (i == 0)
		return 2;
	before = &schedule->pairs[i - 1];
	moves += now->first != before->first && now->first != before->second;
	moves += now->second != before->first && now->second != before->second;
	return moves;
}

double cp_c2c_share_next(const struct cp_c2c_schedule *schedule, size_t done,
			 size_t left, double elapsed_ns, double planned_ns)
{
	double over = done && elapsed_ns > planned_ns
			      ? (elapsed_ns - planned_ns) / (double)done
			      : 0;
	double runs_left = left ? (double)left : 1;
	double share = (schedule->budget_ns - elapsed_ns) / runs_left - over;

	if (share > schedule->share_ns)
		share = schedule->share_ns;
	return share < CP_C2C_MIN_SHARE_NS ? CP_C2C_MIN_SHARE_NS : share;
}

bool cp_c2c_pair_fits(double fit, size_t left, double *credit)
{
	if (!left || fit >= (double)left)
		return true;
	if (fit > 0)
		*credit += fit / (double)left;
	if (*credit < 1)
		return false;
	*credit -= 1;
	return true;
}

static int fit_budget(struct cp_c2c_schedule *s, double budget_ns, char *why,
		      size_t why_len)
{
	double runs = (double)s->nr_pairs * s->variants;
	double moving = (double)s->moves * CP_C2C_MOVE_NS;
	double least = runs * CP_C2C_MIN_SHARE_NS + moving;

	if (!budget_ns) {
		budget_ns = runs * CP_C2C_DEFAULT_SHARE_NS + moving;
		if (budget_ns < CP_C2C_DEFAULT_BUDGET_NS)
			budget_ns = CP_C2C_DEFAULT_BUDGET_NS;
	}
	if (budget_ns < least) {
		snprintf(why, why_len,
			 "--budget %.3g s is too short for %zu pairs x %u variants: at least %.3g s",
			 budget_ns / 1e9, s->nr_pairs, s->variants, least / 1e9);
		return -EINVAL;
	}
	s->budget_ns = budget_ns;
	s->share_ns = (budget_ns - moving) / runs;
	s->estimate_ns = s->share_ns * runs + moving;
	return 0;
}

int cp_c2c_schedule_build(const struct cp_topology *topology,
			  const struct cp_cpuset *cpus, unsigned int variants,
			  double budget_ns, struct cp_c2c_schedule *out,
			  char *why, size_t why_len)
{
	size_t n;
	unsigned int *list = list_cpus(topology, cpus, &n);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!list)
		return -ENOMEM;
	if (n < 2) {
		free(list);
		snprintf(why, why_len,
			 "one CPU selected; a ping-pong needs two");
		return -EINVAL;
	}
	out->variants = variants ? variants : 1;
	out->nr_pairs = n * (n - 1) / 2;
	out->pairs = calloc(out->nr_pairs, sizeof(*out->pairs));
	if (!out->pairs) {
		free(list);
		return -ENOMEM;
	}
	snake(topology, list, n, out->pairs);
	free(list);
	if (classes_first(out)) {
		cp_c2c_schedule_free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; i < out->nr_pairs; i++)
		out->moves += cp_c2c_moves_before(out, i);
	ret = fit_budget(out, budget_ns, why, why_len);
	if (ret)
		cp_c2c_schedule_free(out);
	return ret;
}

void cp_c2c_schedule_free(struct cp_c2c_schedule *schedule)
{
	free(schedule->pairs);
	memset(schedule, 0, sizeof(*schedule));
}
