/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The c2c area's plan: every pair of the selected CPUs once, in an order
 * that moves one thread per step (the two measuring threads stay where
 * they are and only the one whose CPU leaves the pair moves), and the time
 * each pair and variant gets from the total budget.
 *
 * Order ("snake"): for the i-th CPU c_i, its pairs with the later CPUs,
 * ascending for even i and descending for odd i, so (c_i, c_last) is
 * followed by (c_i+1, c_last) and (c_i+1, c_i+2) by (c_i+2, c_i+3): every
 * step shares one CPU with the step before.  The first pair of each pair
 * class is then moved to the front (they all pair the first CPU on a
 * symmetric machine), so that a run whose budget cannot hold every pair
 * (cp_c2c_pair_fits) still measures every class.
 */
#ifndef CACHEPROBE_C2C_SCHEDULE_H
#define CACHEPROBE_C2C_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>

#include "machine/cpu_pairs.h"
#include "machine/cpuset.h"
#include "machine/topology.h"

/* What moving a thread to another CPU is taken to cost, in ns. */
#define CP_C2C_MOVE_NS 50e3
/* The default budget: this, or CP_C2C_DEFAULT_SHARE_NS per pair and
 * variant when that is more. */
#define CP_C2C_DEFAULT_BUDGET_NS 3e9
#define CP_C2C_DEFAULT_SHARE_NS 5e6

struct cp_c2c_schedule {
	size_t nr_pairs;
	struct cp_cpu_pair *pairs;	/* in measuring order */
	unsigned int variants;		/* measurements per pair */
	size_t nr_class_firsts;		/* pairs[0..]: one of each class */
	size_t moves;			/* thread moves, the first two pins too */
	double budget_ns;
	double share_ns;		/* per pair and variant */
	double estimate_ns;		/* shares and moves */
};

/*
 * Plan the pairs of @cpus (NULL: every usable CPU, usable_cpus.h) for
 * @variants variants within @budget_ns (0: the default).  0, or -EINVAL
 * with the reason in @why (fewer than two CPUs; a budget below
 * CP_C2C_MIN_SHARE_NS per pair and variant); -ENOMEM.  Free with
 * cp_c2c_schedule_free.
 */
int cp_c2c_schedule_build(const struct cp_topology *topology,
			  const struct cp_cpuset *cpus, unsigned int variants,
			  double budget_ns, struct cp_c2c_schedule *out,
			  char *why, size_t why_len);
void cp_c2c_schedule_free(struct cp_c2c_schedule *schedule);

/*
 * The budget kept while the pairs run: the share of the next pair and
 * variant, when @done of them have run, @left are still to run, and the
 * run so far took @elapsed_ns of which @planned_ns were shares and moves.
 * What each took beyond its plan (starting threads, the module's sizing
 * request: small on a real machine, most of the time under emulation) is
 * taken off the shares still to give, so that the run ends within the
 * budget when it can; never more than the planned share (later pairs get
 * no more samples than earlier ones), never less than
 * CP_C2C_MIN_SHARE_NS.
 */
double cp_c2c_share_next(const struct cp_c2c_schedule *schedule, size_t done,
			 size_t left, double elapsed_ns, double planned_ns);

/*
 * Whether the next pair is measured when the budget cannot hold every
 * pair left: @left pairs remain (the next one included) and @fit of them
 * fit the time left.  All are measured when @fit >= @left; otherwise
 * *@credit (0 at the start, kept between calls) spreads the @fit pairs
 * evenly over the @left, so that the pairs measured are not only the
 * first CPUs'.
 */
bool cp_c2c_pair_fits(double fit, size_t left, double *credit);

/* Threads that move between pair @i - 1 and pair @i (2 for the first). */
unsigned int cp_c2c_moves_before(const struct cp_c2c_schedule *schedule,
				 size_t i);

#endif
