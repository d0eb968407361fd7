/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An area is one experiment ("latency", later "coldcache", "bounce"...).
 * Adding one is one file defining a struct cp_area and one entry in
 * registry.c.  Areas put their measurements into the run's results and
 * report progress; they stop early, keeping what they measured, when an
 * interrupt is requested.
 */
#ifndef CACHEPROBE_AREA_H
#define CACHEPROBE_AREA_H

#include <stddef.h>
#include <stdint.h>

#include "lib/clock.h"
#include "lib/cpuset.h"
#include "lib/error.h"
#include "lib/harness.h"
#include "lib/results.h"
#include "lib/topology.h"

/* Choices from the command line that areas share. */
struct cp_area_options {
	uint64_t min_size_bytes;	/* 0: the area's default */
	uint64_t max_size_bytes;	/* 0: the area's default */
	const struct cp_cpuset *cpus;	/* NULL: the area's default */
	uint64_t seed;			/* of random orders */
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
};

extern const struct cp_area cp_area_latency;

/* Every area, in the order "all" runs them. */
extern const struct cp_area *const cp_areas[];
extern const size_t cp_nr_areas;

/* The area called @name, or NULL. */
const struct cp_area *cp_area_find(const char *name);

#endif
