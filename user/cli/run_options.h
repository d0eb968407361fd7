/* SPDX-License-Identifier: GPL-2.0 */
/* The command line of the measuring command: `cacheprobe-run [run]
 * [AREA...] [OPTIONS]`. */
#ifndef CACHEPROBE_RUN_OPTIONS_H
#define CACHEPROBE_RUN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "areas/area.h"
#include "client/client.h"

struct run_options {
	bool list;
	bool quiet;
	bool verbose;		/* every table on a terminal too */
	bool tune;
	bool bench;		/* also measure and show the instrument */
	const char *json_path;		/* NULL: none; "-": stdout */
	const char *csv_path;
	const char *report_path;	/* the HTML report */
	const char *cpus_text;		/* validated once the topology is read */
	unsigned int samples;
	bool samples_chosen;		/* --samples given */
	double sample_time_ns;
	bool sample_time_chosen;	/* --sample-time given */
	uint64_t fixed_count;
	unsigned int rounds;		/* harness/rounds.h */
	uint64_t min_size, max_size;
	uint64_t default_max_cap;	/* the default run's; see run_default.c */
	uint64_t seed;
	enum cp_transport transport;
	enum cp_area_mode mode;		/* --mode; 0: auto */
	/* What each area's own options chose, by the area's place in
	 * cp_areas; NULL where it has no options. */
	void *choices[CP_MAX_AREAS];
	size_t nr_areas;
	const struct cp_area *areas[16];
};

/* CLI_PROCEED, or the exit status (help printed, or a usage error);
 * @command names the command in messages.  Whatever it returns, free
 * the areas' choices with run_options_free_choices(). */
int run_parse_options(int argc, char **argv, const char *command,
		      struct run_options *options);

/* Every area with options gets its choices, zeroed: its defaults.
 * 0, or -ENOMEM.  These three are with the areas' options, in
 * run_area_options.c. */
int run_options_alloc_choices(struct run_options *options);
void run_options_free_choices(struct run_options *options);

/* What @area's own options chose, as struct cp_area_options carries it;
 * NULL when the area has none. */
void *run_options_choices(const struct run_options *options,
			  const struct cp_area *area);

/* The output paths in the order of enum run_output_kind. */
#define RUN_OUTPUT_PATHS(options) \
	((const char *const[]){ (options)->json_path, (options)->csv_path, \
				(options)->report_path })

/* Whether @word is one of this command's options (other than --help), so
 * that `cacheprobe-run --json FILE` means a run of every area. */
bool run_is_option(const char *word);

#endif
