// SPDX-License-Identifier: GPL-2.0
#include "cli/flush_report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

/* The flushed CPUs as a list, from the results (the module's answer, which
 * is the only source when every online CPU was asked for). */
static char *flushed_cpu_list(const struct cp_cpu_time *results,
			      size_t nr_results)
{
	struct cp_cpuset *flushed = cp_cpuset_new(CACHEPROBE_MAX_CPUS);
	char *list;

	if (!flushed)
		return NULL;
	for (size_t i = 0; i < nr_results; i++)
		cp_cpuset_set(flushed, results[i].cpu);
	list = cp_cpuset_format_alloc(flushed);
	cp_cpuset_free(flushed);
	return list;
}

int cli_print_flush_results(FILE *out, const char *method,
			    const char *transport,
			    const struct cp_cpu_time *results,
			    size_t nr_results)
{
	char *list = flushed_cpu_list(results, nr_results);

	if (!list)
		return -ENOMEM;
	fprintf(out, "flush: %s via %s on %zu CPU%s (%s)\n", method, transport,
		nr_results, nr_results == 1 ? "" : "s", list);
	free(list);
	for (size_t i = 0; i < nr_results; i++)
		fprintf(out, "cpu %" PRIu32 ": %" PRIu64 " ticks, %" PRIu64
			" ns\n", results[i].cpu, results[i].cycles,
			results[i].nsec);
	return 0;
}
