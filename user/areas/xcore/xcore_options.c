// SPDX-License-Identifier: GPL-2.0
/* xcore's options of the run command, into struct cp_xcore_choices. */
#include "areas/xcore/xcore_choices.h"

#include "util/error.h"

/* Checked against the topology when the area is planned. */
static int parse_pairs(const char *text, void *choices, char *why,
		       size_t why_size)
{
	struct cp_xcore_choices *xcore = choices;

	if (*text == '\0')
		return cp_why_invalid(why, why_size, "empty value");
	xcore->pairs = text;
	return 0;
}

static int parse_delay(const char *text, void *choices, char *why,
		       size_t why_size)
{
	struct cp_xcore_choices *xcore = choices;

	if (*text == '\0')
		return cp_why_invalid(why, why_size, "empty value");
	return cp_xcore_parse_delay(text, &xcore->delay, why, why_size);
}

const struct cp_area_option cp_xcore_options[] = {
	{ "pairs", "PAIRS",
	  "xcore: producer:consumer pairs A:B,... or\n"
	  "'classes' (default: one per pair class)",
	  parse_pairs, false },
	{ "delay", "N",
	  "xcore: N dependent adds after each load (default 0,\n"
	  "at most 4096; kernel mode: module ABI 3)",
	  parse_delay, false },
	{ 0 },
};
