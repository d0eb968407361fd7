/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU selections as users write them: a comma-separated list of items,
 * each a CPU id ("3"), a range ("2-5"), or a topology-aware pick:
 *
 *   all           every usable CPU
 *   per-core      the first usable CPU of each core
 *   per-l2        the first usable CPU of each L2 domain
 *   per-l3        the first usable CPU of each L3 domain
 *   per-package   the first usable CPU of each package
 *   per-numa      the first usable CPU of each NUMA node
 *
 * e.g. "0,2-5", "per-l3", "per-core,64".  Every CPU must be usable
 * (usable_cpus.h: online, and allowed to this process); a CPU selected
 * twice is an error unless duplicates are allowed (then the selection is
 * the union).
 *
 * Pair selections (for experiments between two CPUs): "classes" (one
 * representative pair per pair class among the usable CPUs) or pairs "A:B"
 * separated by commas, of usable CPUs.
 */
#ifndef CACHEPROBE_CPU_SELECT_H
#define CACHEPROBE_CPU_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "machine/cpu_pairs.h"
#include "machine/cpuset.h"
#include "machine/topology.h"

/* 0, or -EINVAL with a reason in @why (-ENOMEM). */
int cp_cpu_select(const struct cp_topology *topology, const char *text,
		  bool allow_duplicates, struct cp_cpuset **out, char *why,
		  size_t why_len);

/* Up to @max pairs into @pairs, their number in *@nr_pairs.  0 or -EINVAL
 * with a reason in @why (a pair listed twice among them; A:B and B:A are
 * different pairs). */
int cp_pair_select(const struct cp_topology *topology, const char *text,
		   struct cp_cpu_pair *pairs, size_t max, size_t *nr_pairs,
		   char *why, size_t why_len);

#endif
