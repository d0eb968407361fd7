// SPDX-License-Identifier: GPL-2.0
/* coldcache's options of the run command, into struct
 * cp_coldcache_choices; its page size is latency's --pages. */
#include "areas/coldcache/coldcache_choices.h"

#include "util/parse_number.h"

static int parse_methods(const char *text, void *choices, char *why,
			 size_t why_size)
{
	struct cp_coldcache_choices *coldcache = choices;

	return cp_coldcache_parse_methods(text, &coldcache->methods, why,
					  why_size);
}

static int parse_factor(const char *text, void *choices, char *why,
			size_t why_size)
{
	struct cp_coldcache_choices *coldcache = choices;

	return cp_coldcache_parse_factor(text, &coldcache->factor, why,
					 why_size);
}

static int parse_sweep(const char *text, void *choices, char *why,
		       size_t why_size)
{
	struct cp_coldcache_choices *coldcache = choices;

	(void)text;
	(void)why;
	(void)why_size;
	coldcache->sweep = true;
	return 0;
}

static int parse_repeats(const char *text, void *choices, char *why,
			 size_t why_size)
{
	struct cp_coldcache_choices *coldcache = choices;

	return cp_parse_uint(text, 1, CP_COLD_MAX_REPETITIONS,
			     &coldcache->repetitions, why, why_size);
}

const struct cp_area_option cp_coldcache_options[] = {
	{ "methods", "LIST",
	  "coldcache: eviction methods among warm,\n"
	  "garbage-naive, garbage-planned, clflush, wbinvd,\n"
	  "wbnoinvd (default all)",
	  parse_methods, false },
	{ "factor", "X",
	  "coldcache: garbage-planned reads X times each\n"
	  "last-level cache (default 4, above 0, at most 64)",
	  parse_factor, false },
	{ "sweep-factor", NULL,
	  "coldcache: also garbage-planned at 0.25 to 4 times\n"
	  "the last-level cache",
	  parse_sweep, false },
	{ "repeats", "N",
	  "coldcache: repetitions per method and working set\n"
	  "(default 20)",
	  parse_repeats, false },
	{ 0 },
};
