/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An area is one experiment ("latency", "coldcache", "bounce"...), all of
 * it in areas/<area>/: what it measures, its options of the run command,
 * its console tables and its part of the report, named by its struct
 * cp_area.  Adding one is that folder and its entry in registry.c (the
 * include of the header declaring it, its place in cp_areas); only its
 * options' lines in the man page and the bash completion are elsewhere
 * (tests/docs/options_docs.sh checks them).  Areas put their measurements
 * into the run's results and report progress; they stop early, keeping
 * what they measured, when an interrupt is requested.
 */
#ifndef CACHEPROBE_AREA_H
#define CACHEPROBE_AREA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/clock.h"
#include "client/client.h"
#include "machine/cpuset.h"
#include "util/error.h"
#include "harness/harness.h"
#include "results/results.h"
#include "machine/topology.h"

struct report_renderer;

/* At most this many areas in the registry (registry.c). */
#define CP_MAX_AREAS 16

/* Where an area measures (--mode). */
enum cp_area_mode {
	CP_AREA_MODE_AUTO,	/* both when the module answers, else user */
	CP_AREA_MODE_USER,
	CP_AREA_MODE_KERNEL,
	CP_AREA_MODE_BOTH,
};

/* Choices from the command line that areas share. */
struct cp_area_options {
	uint64_t min_size_bytes;	/* 0: the area's default */
	uint64_t max_size_bytes;	/* 0: the area's default */
	/* When max_size_bytes is 0, a cap on the area's default largest
	 * size (latency; 0: none): the default run's, to stay short. */
	uint64_t default_max_cap_bytes;
	const struct cp_cpuset *cpus;	/* NULL: the area's default */
	uint64_t seed;			/* of random orders */
	/* --samples as given (0: not given; c2c's user mode then spends
	 * its budget on more samples) */
	unsigned int samples_asked;
	/* --sample-time given (align otherwise shortens the harness's) */
	bool sample_time_chosen;
	enum cp_area_mode mode;
	enum cp_transport transport;	/* to reach the module */
	/* What each area's own options chose, by the area's place in
	 * cp_areas (cp_area_choices); NULL: every area's defaults. */
	const void *const *choices;
};

/*
 * One of an area's own options of the run command, --NAME or --NAME=ARG.
 * The run command lists it in its help and getopt table and hands its
 * value to @parse with the area's choices: a struct of the area's own,
 * which starts zeroed (the area's defaults) and reaches the area through
 * cp_area_choices().
 */
struct cp_area_option {
	const char *name;		/* "distances" for --distances */
	const char *arg_name;		/* "LIST"; NULL: takes no value */
	/* Its help, lines of at most 54 characters with '\n' between: the
	 * help's right column. */
	const char *help;
	/* 0, or -EINVAL with @why; the usage error then says "--NAME: why",
	 * or with @why_names_value "--NAME 'TEXT': why".  @text is NULL
	 * for an option that takes no value. */
	int (*parse)(const char *text, void *choices, char *why,
		     size_t why_size);
	bool why_names_value;
};

struct cp_area_context {
	const struct cp_clock *clock;
	const struct cp_harness *harness;
	const struct cp_topology *topology;
	const struct cp_area_options *options;
	struct cp_results *results;
	/* @done of @total units of work are finished; @what is under way. */
	void (*progress)(void *data, const char *what, double done,
			 double total);
	void *progress_data;
};

struct cp_area {
	const char *name;
	const char *description;	/* one line, for --list */
	/* 0, -EINTR when interrupted (results kept), or -errno + @error. */
	int (*run)(struct cp_area_context *context, struct cp_error *error);
	/* Optional: refuse the options before anything runs.  0, or -EINVAL
	 * with @error saying what is wrong (a usage error). */
	int (*check)(const struct cp_area_options *options,
		     const struct cp_topology *topology, struct cp_error *error);
	/* The CPUs it needs at least (0: one).  With fewer usable ones
	 * (machine/usable_cpus.h), naming it is a usage error and the run made
	 * with no area named leaves it out, saying so. */
	unsigned int min_cpus;
	/* Optional: the area's own console tables, printed after the table
	 * of its measurements (--verbose, or output not to a terminal). */
	void (*print)(FILE *out, const struct cp_results *results);
	/* Optional: its charts in the report (report/report_area.h). */
	const struct report_renderer *report;
	/* Optional: its own options, up to an entry with a NULL name, and
	 * the size of the choices they fill. */
	const struct cp_area_option *options;
	size_t choices_size;
	/* Optional: what the options say only together, once all are read
	 * (bounce: distances against widths).  0, or -EINVAL with @why,
	 * the whole message of the usage error. */
	int (*check_choices)(const void *choices, char *why, size_t why_size);
};

/* What an area's kernel mode needs of the module. */
struct area_module_need {
	const char *area;	/* "bounce", for messages */
	uint32_t min_abi;
	const char *what;	/* "BOUNCE command": what older modules lack */
};

/*
 * Under AUTO, whether the module, though it answers, will refuse this
 * process's measurements (EPERM: no CAP_SYS_ADMIN where it checks).  An
 * unprivileged user would otherwise get EPERM from every command of a
 * loaded module, which answers its GET_INFO all the same.
 */
bool area_module_refuses_auto(const struct cp_area_options *options,
			      struct cp_client *client);

/*
 * The module for an area's kernel mode, as --mode asks.  USER: none
 * (*@client NULL).  AUTO: the module when it answers with ABI
 * @need->min_abi or later and would run this process's measurements, else
 * none, and user mode goes on.  KERNEL and
 * BOTH: the module, or -errno with "AREA: --mode kernel: why".  With a
 * client, @info holds the module's answer (free it with
 * cp_module_info_free).
 */
int area_open_module(const struct cp_area_options *options,
		     const struct area_module_need *need,
		     struct cp_client **client, struct cp_module_info *info,
		     struct cp_error *error);

/* After the module could not be used (@ret, @error saying why): 0 under
 * AUTO and USER, else -@ret with "AREA: --mode kernel: why". */
int area_module_refused(const struct cp_area_options *options,
			const char *area, int ret, struct cp_error *error);

/* Every area, in the order "all" runs them. */
extern const struct cp_area *const cp_areas[];
extern const size_t cp_nr_areas;

/* The area called @name, or NULL. */
const struct cp_area *cp_area_find(const char *name);

/* @area's place in cp_areas. */
size_t cp_area_index(const struct cp_area *area);

/* What @area's own options chose (its own struct, e.g. struct
 * cp_bounce_choices), or NULL: its defaults. */
const void *cp_area_choices(const struct cp_area_options *options,
			    const struct cp_area *area);

#endif
