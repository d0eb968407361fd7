/* SPDX-License-Identifier: GPL-2.0 */
/* The align summary on the console: per mode, buffer, kind and width, the
 * aligned access against the line-split and the page-split one (medians
 * in ns and core cycles, ratios with 95 % intervals); the line size read
 * off each sweep against the system's; the classic pattern in one line
 * and what each of its shifts shows. */
#ifndef CACHEPROBE_ALIGN_TABLE_H
#define CACHEPROBE_ALIGN_TABLE_H

#include <stdio.h>

#include "results/results.h"

/* Nothing when the results hold no align measurement. */
void cli_print_align(FILE *out, const struct cp_results *results);

struct report_renderer;
/* The area's part of the report (report/report_area.h). */
extern const struct report_renderer report_align;

#endif
