/* SPDX-License-Identifier: GPL-2.0 */
/* The bounce summary on the console: per group, increment kind and counter
 * width, the slowdown against padded counters at each distance and the
 * coherence granularity; then the classic case in one line per group. */
#ifndef CACHEPROBE_BOUNCE_TABLE_H
#define CACHEPROBE_BOUNCE_TABLE_H

#include <stdio.h>

#include "results/results.h"

/* Nothing when the results hold no bounce sweep. */
void cli_print_bounce(FILE *out, const struct cp_results *results);

struct report_renderer;
/* The area's part of the report (report/report_area.h). */
extern const struct report_renderer report_bounce;

#endif
