// SPDX-License-Identifier: GPL-2.0
#include "cli/run_default.h"

/* coldcache repeats every method on every working set; its own default
 * (20) is for a study of eviction, this one for a first look. */
#define DEFAULT_RUN_COLD_REPETITIONS 5

void run_default_apply(struct run_options *options)
{
	for (size_t i = 0; i < cp_nr_areas; i++)
		options->areas[i] = cp_areas[i];
	options->nr_areas = cp_nr_areas;
	if (!options->coldcache.repetitions)
		options->coldcache.repetitions = DEFAULT_RUN_COLD_REPETITIONS;
	if (options->json_path || options->csv_path || options->report_path)
		return;
	options->json_path = RUN_DEFAULT_JSON;
	options->report_path = RUN_DEFAULT_REPORT;
}
