/* SPDX-License-Identifier: GPL-2.0 */
/* The command line of the measuring command: `cacheprobe-run [run]
 * [AREA...] [OPTIONS]`. */
#ifndef CACHEPROBE_RUN_OPTIONS_H
#define CACHEPROBE_RUN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "areas/area.h"
#include "areas/align/align_choices.h"
#include "areas/bounce/bounce_choices.h"
#include "client/client.h"
#include "areas/coldcache/coldcache_choices.h"
#include "areas/latency/latency_choices.h"
#include "areas/c2c/c2c_choices.h"
#include "areas/xcore/xcore_choices.h"

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
	struct cp_bounce_choices bounce;	/* --threads, --distances... */
	struct cp_coldcache_choices coldcache;	/* --methods, --factor... */
	struct cp_xcore_choices xcore;		/* --pairs, --delay */
	struct cp_c2c_choices c2c;		/* --home, --budget, --matrix */
	struct cp_align_choices align;	/* --offsets, --access-widths... */
	struct cp_latency_choices latency;	/* --pages, --chases */
	size_t nr_areas;
	const struct cp_area *areas[16];
};

/* CLI_PROCEED, or the exit status (help printed, or a usage error);
 * @command names the command in messages. */
int run_parse_options(int argc, char **argv, const char *command,
		      struct run_options *options);

/* The output paths in the order of enum run_output_kind. */
#define RUN_OUTPUT_PATHS(options) \
	((const char *const[]){ (options)->json_path, (options)->csv_path, \
				(options)->report_path })

/* Whether @word is one of this command's options (other than --help), so
 * that `cacheprobe-run --json FILE` means a run of every area. */
bool run_is_option(const char *word);

extern const char run_usage[];

#endif
