/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One updating line on stderr, shown only when stderr is a terminal and
 * --quiet is not given:
 *   "[ 37%] latency (area 1 of 3): chase 4 MiB, about 12 s left in this area"
 * The estimate extrapolates the current area from its own progress.  Areas
 * still to come are counted but not timed: their durations depend on the
 * machine and the options in ways nothing here measures, and a guess would
 * pass for an estimate.  In the last (or only) area it is the run's.
 * The line is cut to the terminal's width (a wrapped line cannot be
 * redrawn), and a terminal without escape sequences (TERM unset or dumb)
 * gets the old line overwritten with spaces instead of "erase to end".
 */
#ifndef CACHEPROBE_PROGRESS_H
#define CACHEPROBE_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <time.h>

struct cli_progress {
	bool enabled;
	const char *area;
	size_t area_index;		/* from 0 */
	size_t nr_areas;
	struct timespec started;	/* of the current area */
	bool line_shown;
	bool dumb;			/* no escape sequences */
	unsigned int columns;		/* 0: the terminal's, read each time */
	size_t shown_len;		/* of the line on screen */
};

void cli_progress_init(struct cli_progress *progress, bool quiet);
/* Area @index (from 0) of @nr_areas, called @area, starts now. */
void cli_progress_area(struct cli_progress *progress, const char *area,
		       size_t index, size_t nr_areas);
/* The area callback (struct cp_area_context.progress). */
void cli_progress_update(void *progress, const char *what, double done,
			 double total);
/* Erase the line before other output. */
void cli_progress_clear(struct cli_progress *progress);

/* Whether escape sequences may go to @out: a terminal whose $TERM is set
 * and not "dumb". */
bool cli_terminal_escapes(FILE *out);

#endif
