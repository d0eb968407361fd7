/* SPDX-License-Identifier: GPL-2.0 */
/* The coldcache comparison on the console: per method and working set,
 * eviction cost, first-pass cost, residual warmth per level, verdict; then
 * the figures the area's targets are judged by. */
#ifndef CACHEPROBE_COLDCACHE_TABLE_H
#define CACHEPROBE_COLDCACHE_TABLE_H

#include <stdio.h>

#include "results/results.h"

/* Nothing when the results hold no coldcache measurement. */
void cli_print_coldcache(FILE *out, const struct cp_results *results);

struct report_renderer;
/* The area's part of the report (report/report_area.h). */
extern const struct report_renderer report_coldcache;

#endif
