/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files one command reads and writes, checked before anything is
 * measured: two of them that reach one file (however spelt: a symbolic or
 * hard link, "./x", /dev/stdout for '-') would have one destroy the other,
 * e.g. `report r.json -o r.json` replacing the results with HTML.
 */
#ifndef CACHEPROBE_PATH_USES_H
#define CACHEPROBE_PATH_USES_H

#include <stdbool.h>
#include <stddef.h>

struct cli_path_use {
	const char *option;	/* "--json", or "RESULTS.json" for an operand */
	const char *path;	/* NULL: not given; '-' for an output is
				 * standard output */
	bool input;
};

/* Whether output @path goes to standard output: '-', or a name of the
 * file standard output is (/dev/stdout, the file it was redirected to). */
bool cli_path_is_stdout(const char *path);

/* CLI_PROCEED, or the usage error naming both options of the first pair
 * of @uses, at least one an output, that reach one file. */
int cli_check_path_uses(const char *command, const struct cli_path_use *uses,
			size_t nr_uses);

#endif
