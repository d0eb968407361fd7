/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the host placed the vCPUs, judged from the round trips of
 * struct cp_placement_probe.  A cache line's round trip between two vCPUs
 * is a few tens of ns when the host runs them on cores that share a
 * cache, several times that when it runs them apart, and the host may
 * move them at any moment: on a 2-vCPU KVM guest (AMD EPYC) c2c read
 * 53 to 60 ns in some runs and 209 to 216 ns in others, often for a
 * whole run, and every cross-CPU figure of those runs moved with it
 * (measuring.md, "Where the host put the vCPUs").  Readings that
 * differ by more than CP_PLACEMENT_FACTOR are two placements; less is the
 * probe's own noise.
 */
#ifndef CACHEPROBE_PLACEMENT_H
#define CACHEPROBE_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "machine/environment.h"

#define CP_PLACEMENT_FACTOR 1.5

/* Whether the probe measured at least the run's start. */
bool cp_placement_measured(const struct cp_placement_probe *probe);

/* Whether the round trip at the end differs from the one at the start by
 * more than CP_PLACEMENT_FACTOR: the vCPUs moved during the run (never
 * for a pool, which has no start and end). */
bool cp_placement_moved(const struct cp_placement_probe *probe);

/* Whether the readings of @probe, a run's or a pool's, are more than
 * CP_PLACEMENT_FACTOR apart: a run whose vCPUs moved during it, a pool
 * whose runs were not all on one placement.  Its rows across two CPUs
 * mix placements. */
bool cp_placement_mixed(const struct cp_placement_probe *probe);

/* Whether two runs, both measured, were on other placements: other CPUs,
 * or every round trip of one more than CP_PLACEMENT_FACTOR from every
 * round trip of the other. */
bool cp_placements_differ(const struct cp_placement_probe *a,
			  const struct cp_placement_probe *b);

/* Add @run's probe to @pool, a pool of runs (compare's sides) that starts
 * as its first run's: the quickest and slowest readings of them all, so
 * that a side holding two placements is judged by both; not measured
 * once a run was not, or was on other CPUs. */
void cp_placement_pool_add(struct cp_placement_probe *pool,
			   const struct cp_placement_probe *run);

/* "0:1 56 ns, then 57 ns" (start, end), "0:1 56 ns" without an end,
 * "0:1 56 to 214 ns over 3 runs" for a pool, "not measured"; returns as
 * snprintf. */
int cp_placement_format(const struct cp_placement_probe *probe, char *buf,
			size_t len);

#endif
