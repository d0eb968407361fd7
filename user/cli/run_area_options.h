/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The areas' own options on the run command's line, as each area's
 * struct cp_area_option table declares them: in the getopt table, the
 * help and the areas' choices (run_options.h keeps them).
 */
#ifndef CACHEPROBE_RUN_AREA_OPTIONS_H
#define CACHEPROBE_RUN_AREA_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/run_options.h"

/* getopt values from here on are the areas' options. */
#define RUN_AREA_OPTION_FIRST 1024

/* Appends the areas' options to @table, which holds @used of its @size
 * entries, and its terminating entry; returns the entries then used. */
size_t run_area_long_options(struct option *table, size_t used,
			     size_t size);

/* Whether --@name (@len characters, no '=') is an area's option. */
bool run_area_option_named(const char *name, size_t len);

/* CLI_PROCEED when @opt is not an area's option; else 0, or the usage
 * error's status, with @text (NULL: none) in @options' choices. */
int run_area_option(int opt, const char *text, struct run_options *options,
		    const char *command);

/* 0, or the usage error's status when an area's options disagree. */
int run_area_check_choices(const struct run_options *options,
			   const char *command);

/* The areas' options in the help, area by area in the registry's order. */
void run_area_options_usage(FILE *out);

#endif
