// SPDX-License-Identifier: GPL-2.0
/* align's options of the run command, into struct cp_align_choices. */
#include "areas/align/align_choices.h"

static int parse_offsets(const char *text, void *choices, char *why,
			 size_t why_size)
{
	return cp_align_parse_offsets(text, choices, why, why_size);
}

static int parse_widths(const char *text, void *choices, char *why,
			size_t why_size)
{
	return cp_align_parse_widths(text, choices, why, why_size);
}

static int parse_kinds(const char *text, void *choices, char *why,
		       size_t why_size)
{
	return cp_align_parse_kinds(text, choices, why, why_size);
}

static int parse_buffers(const char *text, void *choices, char *why,
			 size_t why_size)
{
	return cp_align_parse_buffers(text, choices, why, why_size);
}

const struct cp_area_option cp_align_options[] = {
	{ "offsets", "LIST",
	  "align: offsets into each slot, 0 to 4095: N, A-B\n"
	  "or A-B:STEP (default: 0 and a line split per\n"
	  "width, 8-byte latency swept over 0 to two lines)",
	  parse_offsets, true },
	{ "access-widths", "LIST",
	  "align: access bytes among 1,2,4,8,16,32,64\n"
	  "(default: every width this CPU can do)",
	  parse_widths, true },
	{ "access-kinds", "LIST",
	  "align: load-latency, load-throughput,\n"
	  "store-throughput (default all)",
	  parse_kinds, true },
	{ "buffers", "LIST",
	  "align: l1, l2 (half of that cache) or sizes\n"
	  "(default l1,l2)",
	  parse_buffers, true },
	{ 0 },
};
