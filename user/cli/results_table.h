/* SPDX-License-Identifier: GPL-2.0 */
/* The console form of results: the run's clock and floor, one aligned
 * table per area, the latency levels, and every warning. */
#ifndef CACHEPROBE_RESULTS_TABLE_H
#define CACHEPROBE_RESULTS_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "results/results.h"

void cli_print_results(FILE *out, const struct cp_results *results);

/* @ns with a unit that keeps 3-4 significant digits: "1.72 ns",
 * "12.4 us", "3.05 ms", "1.20 s". */
const char *cli_format_ns(double ns, char *buf, size_t len);

#endif
