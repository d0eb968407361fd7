// SPDX-License-Identifier: GPL-2.0
/* c2c's options of the run command, into struct cp_c2c_choices. */
#include "areas/c2c/c2c_choices.h"

#include "util/error.h"

static int parse_home(const char *text, void *choices, char *why,
		      size_t why_size)
{
	struct cp_c2c_choices *c2c = choices;

	if (*text == '\0')
		return cp_why_invalid(why, why_size, "empty value");
	return cp_c2c_parse_home(text, &c2c->home, why, why_size);
}

static int parse_budget(const char *text, void *choices, char *why,
			size_t why_size)
{
	struct cp_c2c_choices *c2c = choices;

	if (*text == '\0')
		return cp_why_invalid(why, why_size, "empty value");
	return cp_c2c_parse_budget(text, &c2c->budget_ns, why, why_size);
}

/* Written by the run command after the run (cli_write_c2c_matrix). */
static int parse_matrix(const char *text, void *choices, char *why,
			size_t why_size)
{
	struct cp_c2c_choices *c2c = choices;

	if (*text == '\0')
		return cp_why_invalid(why, why_size, "empty value");
	c2c->matrix_path = text;
	return cp_c2c_parse_matrix_path(text, why, why_size);
}

const struct cp_area_option cp_c2c_options[] = {
	{ "home", "first|second",
	  "c2c: the pair's CPU whose memory node holds the\n"
	  "line (default first)",
	  parse_home, false },
	{ "budget", "TIME",
	  "c2c: total time, e.g. 30s, 2m (default: 3 s, or\n"
	  "5 ms per pair and variant when more)",
	  parse_budget, false },
	{ "matrix", "FILE",
	  "c2c: the latency matrix as FILE.csv or FILE.json",
	  parse_matrix, false },
	{ 0 },
};
