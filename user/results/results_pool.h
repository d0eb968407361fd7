/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Several runs of one side of a comparison as one: each measurement that
 * every run has, with the samples of all of them.  One run's samples share
 * its buffers, page placement and moment of the machine; samples from
 * several runs carry the variation between runs into the interval, which
 * one run's cannot.
 */
#ifndef CACHEPROBE_RESULTS_POOL_H
#define CACHEPROBE_RESULTS_POOL_H

#include <stddef.h>

#include "results/results.h"
#include "results/results_index.h"

/*
 * Pool @runs (@nr_runs >= 1, each indexed in @indexes) into @out: the
 * first run's environment and order, "interrupted" when any run was, and
 * each measurement found in every run (by area, name and mode) with the
 * first run's parameters and their samples one after the other (when
 * every run measured the core clock, the ticks rescaled to the first
 * run's, so that ticks times the pooled core_cycles_per_tick are
 * cycles).  *@nr_partial counts the first run's
 * measurements missing from another run.  0 or -ENOMEM.
 */
int cp_results_pool(const struct cp_results *runs,
		    const struct cp_results_index *indexes, size_t nr_runs,
		    struct cp_results *out, size_t *nr_partial);

#endif
