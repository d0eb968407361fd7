/* SPDX-License-Identifier: GPL-2.0 */
/* One updating line on stderr, "[ 37%] latency: chase 4 MiB, about 12 s
 * left", shown only when stderr is a terminal and --quiet is not given. */
#ifndef CACHEPROBE_PROGRESS_H
#define CACHEPROBE_PROGRESS_H

#include <stdbool.h>
#include <time.h>

struct cli_progress {
	bool enabled;
	const char *area;
	struct timespec started;	/* of the current area */
	bool line_shown;
};

void cli_progress_init(struct cli_progress *progress, bool quiet);
void cli_progress_area(struct cli_progress *progress, const char *area);
/* The area callback (struct cp_area_context.progress). */
void cli_progress_update(void *progress, const char *what, double done,
			 double total);
/* Erase the line before other output. */
void cli_progress_clear(struct cli_progress *progress);

#endif
