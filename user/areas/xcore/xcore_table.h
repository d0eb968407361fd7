/* SPDX-License-Identifier: GPL-2.0 */
/* The xcore curves side by side: per block size and mode, ns per line of
 * each pair (read, modify) with its penalty against the same CPU, and the
 * baselines. */
#ifndef CACHEPROBE_XCORE_TABLE_H
#define CACHEPROBE_XCORE_TABLE_H

#include <stdio.h>

#include "results/results.h"

void cli_print_xcore(FILE *out, const struct cp_results *results);

struct report_renderer;
/* The area's part of the report (report/report_area.h). */
extern const struct report_renderer report_xcore;

#endif
