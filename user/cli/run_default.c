// SPDX-License-Identifier: GPL-2.0
#include "cli/run_default.h"

#include "areas/bounce/bounce_choices.h"
#include "areas/coldcache/coldcache_choices.h"

/*
 * The default run measures all six areas and must end within a minute on
 * a 2-CPU machine in user mode, also when other work loads it.  On the
 * 2-CPU development guest under a load average of 3 to 9 the areas'
 * own defaults took 38 to 75 s, most of it in latency (its sweep past
 * 64 MiB only builds and walks huge chases; the memory plateau starts at
 * a few times the last-level cache, which hypervisors report as the
 * host's), bounce (52 measurements of two threads) and coldcache.
 */

/* coldcache repeats every method on every working set; its own default
 * (20) is for a study of eviction, this one for a first look: the median
 * and the worst of 5.  Not fewer: the interval of a median is drawn from
 * the repetitions, and of 3 values the widest one can give, their least
 * to their greatest, holds the median only 75 % of the time (1 - 2/2^3),
 * and the next run's median would fall outside it for 40 % of the
 * measurements even if every run drew from one distribution (10 runs
 * here: 56 %); of 5 values, 94 % and 17 %.  Each
 * repetition of garbage-planned reads 4 times the last-level cache
 * (1.9 GiB where a hypervisor reports a 480 MiB one): on an idle 2-vCPU
 * Xeon guest 5 instead of 3 added some 0.7 s to an 18 s run; under a
 * load average of 3 to 9 the area alone took 13 to 34 s. */
#define DEFAULT_RUN_COLD_REPETITIONS 5
/* latency's default ends at 4 times the last-level cache, at most
 * 256 MiB; 64 MiB still passes a 16 MiB cache by that margin and takes a
 * third of the time where the cap applies. */
#define DEFAULT_RUN_MAX_SIZE_CAP (64ull << 20)
/* bounce: 4-byte counters only; 8-byte ones bounce alike (a line is the
 * unit either way) and would double the area's time. */
#define DEFAULT_RUN_BOUNCE_WIDTH 4

void run_default_apply(struct run_options *options)
{
	struct cp_coldcache_choices *coldcache =
		run_options_choices(options, &cp_area_coldcache);
	struct cp_bounce_choices *bounce =
		run_options_choices(options, &cp_area_bounce);

	for (size_t i = 0; i < cp_nr_areas; i++)
		options->areas[i] = cp_areas[i];
	options->nr_areas = cp_nr_areas;
	if (coldcache && !coldcache->repetitions)
		coldcache->repetitions = DEFAULT_RUN_COLD_REPETITIONS;
	options->default_max_cap = DEFAULT_RUN_MAX_SIZE_CAP;
	/* Chosen distances must be multiples of every width: leave the
	 * widths to the area when distances or widths were chosen. */
	if (bounce && !bounce->nr_widths && !bounce->distances_chosen) {
		bounce->widths[0] = DEFAULT_RUN_BOUNCE_WIDTH;
		bounce->nr_widths = 1;
	}
	if (options->json_path || options->csv_path || options->report_path)
		return;
	options->json_path = RUN_DEFAULT_JSON;
	options->report_path = RUN_DEFAULT_REPORT;
}
