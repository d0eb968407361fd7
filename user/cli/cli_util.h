/* SPDX-License-Identifier: GPL-2.0 */
/* What every subcommand needs: exit codes, option values, error reports. */
#ifndef CACHEPROBE_CLI_UTIL_H
#define CACHEPROBE_CLI_UTIL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "util/error.h"

#define CLI_PROGRAM "cacheprobe-run"

enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILURE = 1,	/* an operation failed at run time */
	CLI_EXIT_USAGE = 2,	/* the command line (or the CPU choice) is wrong */
};

/* Returned by option parsers when the command should go on. */
#define CLI_PROCEED (-1)

/* One accepted word of an enumerated option and what it stands for. */
struct cli_choice {
	const char *name;
	int value;
};

/*
 * One of @choices by exact name.  Returns 0, or -EINVAL with a reason
 * naming @text and the valid names in @why.
 */
int cli_parse_choice(const char *text, const struct cli_choice *choices,
		     size_t nr_choices, int *out, char *why, size_t why_len);

/* The name of @value among @choices, or NULL. */
const char *cli_choice_name(const struct cli_choice *choices,
			    size_t nr_choices, int value);

/* "a, b, c": the names of @choices, snprintf-style. */
size_t cli_choice_list(const struct cli_choice *choices, size_t nr_choices,
		       char *buf, size_t len);

/*
 * Print "cacheprobe-run: <command>: <message>" and a pointer to --help on
 * stderr; returns CLI_EXIT_USAGE.  @command may be NULL.
 */
int cli_usage_error(const char *command, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The usage error for getopt_long returning @getopt_result ('?' or ':')
 * with optopt @bad_option on the word @bad_argument (argv[optind - 1]).
 */
int cli_option_error(const char *command, int getopt_result, int bad_option,
		     const char *bad_argument);

/* Print "cacheprobe-run: <command>: <msg> (<ENAME>: <strerror>)". */
void cli_report_error(const char *command, const struct cp_error *error);

/*
 * The exit status for an operation that failed with @err: the module's
 * EINVAL means the user's selection was wrong (CLI_EXIT_USAGE), anything
 * else is a run-time failure.
 */
int cli_exit_status_for(int err);

struct cp_environment;
/* "cacheprobe-run: warning: ..." on stderr for each condition of @env
 * that distorts measurements; wrapped to 80 columns on a terminal. */
void cli_print_environment_warnings(const struct cp_environment *env);

/* @text, the cursor at @column, wrapped at word boundaries to @width
 * columns, continuation lines indented by @indent; with @width 0 whole,
 * for a file or a pipe.  Ends with a newline. */
void cli_print_wrapped(FILE *out, const char *text, size_t column,
		       size_t width, size_t indent);

/* A line of @fmt: on a terminal wrapped to 80 columns, continuation
 * lines indented by @indent; elsewhere (a file, a pipe) whole, for grep
 * and scripts.  Cut at 1023 bytes. */
void cli_print_line(FILE *out, size_t indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
