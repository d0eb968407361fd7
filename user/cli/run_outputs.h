/* SPDX-License-Identifier: GPL-2.0 */
/* The result files of a run (JSON, CSV, HTML report): opened (as
 * temporaries) before measuring, so a bad path fails at once, and
 * committed or removed at the end.  "-" is standard output. */
#ifndef CACHEPROBE_RUN_OUTPUTS_H
#define CACHEPROBE_RUN_OUTPUTS_H

#include <stdbool.h>
#include <stdio.h>

#include "results/atomic_file.h"
#include "results/results.h"

enum run_output_kind { RUN_OUTPUT_JSON, RUN_OUTPUT_CSV, RUN_OUTPUT_REPORT,
		       RUN_NR_OUTPUTS };

struct run_outputs {
	const char *paths[RUN_NR_OUTPUTS];	/* NULL: not wanted */
	struct cp_atomic_file files[RUN_NR_OUTPUTS];
	bool open[RUN_NR_OUTPUTS];
	FILE *announce;		/* where to say which files were written,
				 * NULL: nowhere */
};

/* The option naming an output kind: "--json", "--csv", "--report". */
const char *run_output_option(enum run_output_kind kind);

/* CLI_PROCEED, or CLI_EXIT_USAGE naming the path that cannot be written.
 * @paths[kind] NULL for outputs not wanted. */
int run_outputs_open(struct run_outputs *outputs, const char *command,
		     const char *const paths[RUN_NR_OUTPUTS]);
/* Write and commit each file; CLI_EXIT_OK or CLI_EXIT_FAILURE. */
int run_outputs_write(struct run_outputs *outputs, const char *command,
		      const struct cp_results *results);
/* Remove whatever was opened and not committed. */
void run_outputs_abort(struct run_outputs *outputs);

/* Whether one of the outputs goes to standard output ('-', /dev/stdout,
 * the file standard output was redirected to). */
bool run_outputs_to_stdout(const char *const paths[RUN_NR_OUTPUTS]);

#endif
