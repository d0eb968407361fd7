/* SPDX-License-Identifier: GPL-2.0 */
/* The command line of `cacheprobe-run exec [OPTIONS] -- COMMAND [ARG...]`. */
#ifndef CACHEPROBE_EXEC_OPTIONS_H
#define CACHEPROBE_EXEC_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#define EXEC_DEFAULT_RUNS 10

struct exec_options {
	unsigned int kinds;		/* EXEC_COLD...; 0: none named */
	size_t runs;			/* of each kind */
	int method;			/* enum cacheprobe_method */
	bool method_given;
	double factor;			/* of the garbage; 0: default */
	const char *cpus_text;		/* --cpus; NULL: default */
	char *cpus_list;		/* it resolved, "0-3" (malloc'ed) */
	const char *json_path;		/* NULL: none; "-": stdout */
	const char *report_path;
	bool quiet;
	char **argv;			/* the command, NULL-terminated */
};

/*
 * Parse @argv (argv[0] "exec") into @options (defaults set here): no
 * command is misuse, as are --cold with --warm, a count out of range, an
 * unknown method, a garbage factor with a method that reads none,
 * --method, --cpus or --factor with --warm, and an output that
 * names the command, one of its arguments or the other output.  --cpus is
 * resolved against the topology into @options->cpus_list.
 *
 * Return: CLI_PROCEED, CLI_EXIT_OK (--help), CLI_EXIT_USAGE (said) or
 * CLI_EXIT_FAILURE (said).
 */
int exec_parse_options(int argc, char **argv, struct exec_options *options);
void exec_options_free(struct exec_options *options);

#endif
