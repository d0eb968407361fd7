// SPDX-License-Identifier: GPL-2.0
#include "cli/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define DEFAULT_COLUMNS 80

static bool dumb_terminal(void)
{
	const char *term = getenv("TERM");

	return !term || !*term || strcmp(term, "dumb") == 0;
}

void cli_progress_init(struct cli_progress *progress, bool quiet)
{
	progress->enabled = !quiet && isatty(STDERR_FILENO);
	progress->area = "";
	progress->area_index = 0;
	progress->nr_areas = 1;
	progress->line_shown = false;
	progress->dumb = dumb_terminal();
	progress->columns = 0;
	progress->shown_len = 0;
}

/* The terminal's width now (it may have been resized), else $COLUMNS,
 * else 80. */
static size_t width_of(const struct cli_progress *progress)
{
	struct winsize size;
	const char *columns = getenv("COLUMNS");

	if (progress->columns)
		return progress->columns;
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &size) && size.ws_col)
		return size.ws_col;
	if (columns && atoi(columns) > 0)
		return (size_t)atoi(columns);
	return DEFAULT_COLUMNS;
}

/* @line over the one on screen, cut one short of the width so that the
 * cursor never wraps. */
static void show(struct cli_progress *progress, const char *line)
{
	size_t width = width_of(progress);
	size_t len = strlen(line);

	if (width > 1 && len > width - 1)
		len = width - 1;
	if (progress->dumb)
		fprintf(stderr, "\r%-*.*s", (int)progress->shown_len,
			(int)len, line);
	else
		fprintf(stderr, "\r\033[K%.*s", (int)len, line);
	progress->shown_len = len;
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

	char line[512], areas[48] = "", left[64] = "";

	if (!progress->enabled)
		return;
	if (progress->nr_areas > 1)
		snprintf(areas, sizeof(areas), " (area %zu of %zu)",
			 progress->area_index + 1, progress->nr_areas);
	/* The estimate needs some work done to extrapolate from. */
	if (share > 0.02)
		snprintf(left, sizeof(left), ", about %.0f s left%s",
			 elapsed / share * (1 - share),
			 more_areas(progress) ? " in this area" : "");
	snprintf(line, sizeof(line), "[%3.0f%%] %s%s: %s%s", 100 * share,
		 progress->area, areas, what, left);
	show(progress, line);
	fflush(stderr);
	progress->line_shown = true;
}

void cli_progress_clear(struct cli_progress *progress)
{
	if (progress->enabled && progress->line_shown) {
		if (progress->dumb)
			fprintf(stderr, "\r%*s\r", (int)progress->shown_len,
				"");
		else
			fputs("\r\033[K", stderr);
	}
	progress->line_shown = false;
	progress->shown_len = 0;
}

bool cli_terminal_escapes(FILE *out)
{
	return isatty(fileno(out)) && !dumb_terminal();
}
