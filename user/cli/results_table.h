/* SPDX-License-Identifier: GPL-2.0 */
/* The console form of results: the run's clock and floor, one aligned
 * table per area, the latency levels, and every warning. */
#ifndef CACHEPROBE_RESULTS_TABLE_H
#define CACHEPROBE_RESULTS_TABLE_H

#include <stdio.h>

#include "results/results.h"

void cli_print_results(FILE *out, const struct cp_results *results);

#endif
