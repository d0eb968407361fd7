// SPDX-License-Identifier: GPL-2.0
#include "cli/progress.h"

#include <stdio.h>
#include <unistd.h>

void cli_progress_init(struct cli_progress *progress, bool quiet)
{
	progress->enabled = !quiet && isatty(STDERR_FILENO);
	progress->area = "";
	progress->area_index = 0;
	progress->nr_areas = 1;
	progress->line_shown = false;
}

void cli_progress_area(struct cli_progress *progress, const char *area,
		       size_t index, size_t nr_areas)
{
	progress->area = area;
	progress->area_index = index;
	progress->nr_areas = nr_areas;
	clock_gettime(CLOCK_MONOTONIC, &progress->started);
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Whether areas follow the current one: then its time left is not the
 * run's. */
static bool more_areas(const struct cli_progress *progress)
{
	return progress->area_index + 1 < progress->nr_areas;
}

void cli_progress_update(void *data, const char *what, double done,
			 double total)
{
	struct cli_progress *progress = data;
	double elapsed = seconds_since(&progress->started);
	double share = total > 0 ? done / total : 0;

	if (!progress->enabled)
		return;
	fprintf(stderr, "\r\033[K[%3.0f%%] %s", 100 * share, progress->area);
	if (progress->nr_areas > 1)
		fprintf(stderr, " (area %zu of %zu)", progress->area_index + 1,
			progress->nr_areas);
	fprintf(stderr, ": %s", what);
	/* The estimate needs some work done to extrapolate from. */
	if (share > 0.02)
		fprintf(stderr, ", about %.0f s left%s",
			elapsed / share * (1 - share),
			more_areas(progress) ? " in this area" : "");
	fflush(stderr);
	progress->line_shown = true;
}

void cli_progress_clear(struct cli_progress *progress)
{
	if (progress->enabled && progress->line_shown)
		fputs("\r\033[K", stderr);
	progress->line_shown = false;
}
