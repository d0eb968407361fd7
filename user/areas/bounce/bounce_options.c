// SPDX-License-Identifier: GPL-2.0
/* bounce's options of the run command, into struct cp_bounce_choices. */
#include "areas/bounce/bounce_choices.h"

#include "util/error.h"
#include "util/parse_number.h"

static int parse_threads(const char *text, void *choices, char *why,
			 size_t why_size)
{
	struct cp_bounce_choices *bounce = choices;

	return cp_parse_uint(text, 2, CP_BOUNCE_MAX_THREADS, &bounce->threads,
			     why, why_size);
}

static int parse_distances(const char *text, void *choices, char *why,
			   size_t why_size)
{
	return cp_bounce_parse_distances(text, choices, why, why_size);
}

static int parse_widths(const char *text, void *choices, char *why,
			size_t why_size)
{
	return cp_bounce_parse_widths(text, choices, why, why_size);
}

static int parse_ops(const char *text, void *choices, char *why,
		     size_t why_size)
{
	return cp_bounce_parse_ops(text, choices, why, why_size);
}

/* On a copy: completing fills in the defaults, which stay the area's. */
int cp_bounce_check_choices(const void *choices, char *why, size_t why_size)
{
	const struct cp_bounce_choices *chosen = choices;
	struct cp_bounce_choices bounce = *chosen;
	char reason[160];

	if (!cp_bounce_choices_complete(&bounce, reason, sizeof(reason)))
		return 0;
	return cp_why_invalid(why, why_size, "--distances: %s", reason);
}

const struct cp_area_option cp_bounce_options[] = {
	{ "threads", "N",
	  "bounce: threads, one per CPU (default 2, or as\n"
	  "many as --cpus names)",
	  parse_threads, false },
	{ "distances", "LIST",
	  "bounce: bytes between neighbouring counters, 0 for\n"
	  "one shared counter (default 0,4,8,16,32,48,56,60,\n"
	  "64,96,128,192,256; at most 65536)",
	  parse_distances, true },
	{ "width", "LIST",
	  "bounce: counter bytes, 4 and/or 8 (default 4,8)",
	  parse_widths, true },
	{ "ops", "LIST",
	  "bounce: plain and/or atomic increments (default\n"
	  "plain,atomic)",
	  parse_ops, true },
	{ 0 },
};
