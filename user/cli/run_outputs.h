/* SPDX-License-Identifier: GPL-2.0 */
/* The result files of a run: opened (as temporaries) before measuring, so
 * a bad path fails at once, and committed or removed at the end. */
#ifndef CACHEPROBE_RUN_OUTPUTS_H
#define CACHEPROBE_RUN_OUTPUTS_H

#include <stdbool.h>

#include "lib/atomic_file.h"
#include "lib/results.h"

struct run_outputs {
	const char *json_path, *csv_path;
	struct cp_atomic_file json, csv;
	bool json_open, csv_open;
};

/* CLI_PROCEED, or CLI_EXIT_USAGE naming the path that cannot be written. */
int run_outputs_open(struct run_outputs *outputs, const char *command,
		     const char *json_path, const char *csv_path);
/* Write and commit each file; CLI_EXIT_OK or CLI_EXIT_FAILURE. */
int run_outputs_write(struct run_outputs *outputs, const char *command,
		      const struct cp_results *results);
/* Remove whatever was opened and not committed. */
void run_outputs_abort(struct run_outputs *outputs);

#endif
