// SPDX-License-Identifier: GPL-2.0
/* latency's options of the run command, into struct cp_latency_choices;
 * coldcache takes its page size from --pages too. */
#include "areas/latency/latency_choices.h"

#include "util/error.h"

static int parse_pages(const char *text, void *choices, char *why,
		       size_t why_size)
{
	if (*text == '\0')
		return cp_why_invalid(why, why_size, "empty value");
	return cp_latency_parse_pages(text, choices, why, why_size);
}

static int parse_chases(const char *text, void *choices, char *why,
			size_t why_size)
{
	if (*text == '\0')
		return cp_why_invalid(why, why_size, "empty value");
	return cp_latency_parse_chases(text, choices, why, why_size);
}

const struct cp_area_option cp_latency_options[] = {
	{ "pages", "LIST",
	  "latency: pages of the chased buffer among 4k, 2m\n"
	  "(transparent huge pages) and 1g (reserved\n"
	  "hugetlb pages); default 2m, whose curve shows\n"
	  "the cache levels without TLB misses; 4k (2m is\n"
	  "then measured too) shows where the TLB stops\n"
	  "covering the set; coldcache: its working sets\n"
	  "and calibration on the first named (4k or 2m)",
	  parse_pages, false },
	{ "chases", "LIST",
	  "latency: independent chases one thread follows\n"
	  "at once, 1 to 16 (default 1; 1 is always\n"
	  "measured): ns per load and the overlap factor",
	  parse_chases, false },
	{ 0 },
};
