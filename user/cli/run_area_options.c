// SPDX-License-Identifier: GPL-2.0
#include "cli/run_area_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"

/* An area's options take getopt values FIRST + its place * STRIDE + the
 * option's place: at most STRIDE options per area. */
#define AREA_OPTION_STRIDE 64
/* The help's right column starts here; a longer left one has it alone. */
#define HELP_COLUMN 24

static size_t nr_area_options(const struct cp_area *area)
{
	size_t n = 0;

	while (area->options && area->options[n].name)
		n++;
	return n;
}

int run_options_alloc_choices(struct run_options *options)
{
	for (size_t i = 0; i < cp_nr_areas; i++) {
		if (!cp_areas[i]->choices_size || options->choices[i])
			continue;
		options->choices[i] = calloc(1, cp_areas[i]->choices_size);
		if (!options->choices[i])
			return -ENOMEM;
	}
	return 0;
}

void run_options_free_choices(struct run_options *options)
{
	for (size_t i = 0; i < cp_nr_areas; i++) {
		free(options->choices[i]);
		options->choices[i] = NULL;
	}
}

void *run_options_choices(const struct run_options *options,
			  const struct cp_area *area)
{
	size_t i = cp_area_index(area);

	return i < cp_nr_areas ? options->choices[i] : NULL;
}

size_t run_area_long_options(struct option *table, size_t used,
			     size_t size)
{
	for (size_t i = 0; i < cp_nr_areas; i++) {
		const struct cp_area_option *own = cp_areas[i]->options;
		size_t n = nr_area_options(cp_areas[i]);

		if (n > AREA_OPTION_STRIDE || used + n >= size) {
			fprintf(stderr, "%s: too many options of area %s\n",
				CLI_PROGRAM, cp_areas[i]->name);
			abort();
		}
		for (size_t j = 0; j < n; j++)
			table[used++] = (struct option){
				.name = own[j].name,
				.has_arg = own[j].arg_name
						   ? required_argument
						   : no_argument,
				.val = (int)(RUN_AREA_OPTION_FIRST +
					     i * AREA_OPTION_STRIDE + j),
			};
	}
	table[used] = (struct option){ 0 };
	return used;
}

bool run_area_option_named(const char *name, size_t len)
{
	for (size_t i = 0; i < cp_nr_areas; i++)
		for (size_t j = 0; j < nr_area_options(cp_areas[i]); j++) {
			const char *option = cp_areas[i]->options[j].name;

			if (strlen(option) == len &&
			    !strncmp(option, name, len))
				return true;
		}
	return false;
}

int run_area_option(int opt, const char *text, struct run_options *options,
		    const char *command)
{
	size_t i = (size_t)(opt - RUN_AREA_OPTION_FIRST) / AREA_OPTION_STRIDE;
	size_t j = (size_t)(opt - RUN_AREA_OPTION_FIRST) % AREA_OPTION_STRIDE;
	const struct cp_area_option *option;
	char why[256];

	if (opt < RUN_AREA_OPTION_FIRST || i >= cp_nr_areas ||
	    j >= nr_area_options(cp_areas[i]))
		return CLI_PROCEED;
	option = &cp_areas[i]->options[j];
	if (!option->parse(text, options->choices[i], why, sizeof(why)))
		return 0;
	if (option->why_names_value)
		return cli_usage_error(command, "--%s '%s': %s", option->name,
				       text, why);
	return cli_usage_error(command, "--%s: %s", option->name, why);
}

int run_area_check_choices(const struct run_options *options,
			   const char *command)
{
	char why[256];

	for (size_t i = 0; i < cp_nr_areas; i++)
		if (cp_areas[i]->check_choices &&
		    cp_areas[i]->check_choices(options->choices[i], why,
					       sizeof(why)))
			return cli_usage_error(command, "%s", why);
	return 0;
}

/* "      --NAME=ARG  " up to the help's column, or alone on its line. */
static void print_option_name(FILE *out, const struct cp_area_option *option)
{
	int len = fprintf(out, "      --%s%s%s", option->name,
			  option->arg_name ? "=" : "",
			  option->arg_name ? option->arg_name : "");

	if (len > HELP_COLUMN - 2)
		fprintf(out, "\n%*s", HELP_COLUMN, "");
	else
		fprintf(out, "%*s", HELP_COLUMN - len, "");
}

static void print_option(FILE *out, const struct cp_area_option *option)
{
	const char *line = option->help;

	print_option_name(out, option);
	for (;;) {
		size_t len = strcspn(line, "\n");

		fprintf(out, "%.*s\n", (int)len, line);
		if (!line[len])
			return;
		line += len + 1;
		fprintf(out, "%*s", HELP_COLUMN, "");
	}
}

void run_area_options_usage(FILE *out)
{
	for (size_t i = 0; i < cp_nr_areas; i++)
		for (size_t j = 0; j < nr_area_options(cp_areas[i]); j++)
			print_option(out, &cp_areas[i]->options[j]);
}
