/* SPDX-License-Identifier: GPL-2.0 */
/* The c2c matrices on the console (a heatmap when @out is a terminal) with
 * the per-class summary, and the --matrix file. */
#ifndef CACHEPROBE_C2C_TABLE_H
#define CACHEPROBE_C2C_TABLE_H

#include <stdio.h>

#include "results/results.h"

void cli_print_c2c(FILE *out, const struct cp_results *results);

/* Write the matrices to @path (.json: JSON, else CSV), whole or not at
 * all; NULL @path: nothing.  CLI exit status. */
int cli_write_c2c_matrix(const char *command, const char *path,
			 const struct cp_results *results);

struct report_renderer;
/* The area's part of the report (report/report_area.h). */
extern const struct report_renderer report_c2c;

#endif
