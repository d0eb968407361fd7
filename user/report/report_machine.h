/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CACHEPROBE_REPORT_MACHINE_H
#define CACHEPROBE_REPORT_MACHINE_H

#include <stdio.h>

#include "results/results.h"

/* The top of the report: machine, kernel, module or "user mode only", the
 * clock and harness, and the environment's warnings. */
void report_machine(FILE *out, const struct cp_results *results);

#endif
