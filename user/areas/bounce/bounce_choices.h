/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the bounce area measures, as the command line chooses it: thread
 * count, counter distances, counter widths and increment kinds, with the
 * parsers of their option texts ("0,4,64", "4,8", "plain,atomic").
 */
#ifndef CACHEPROBE_BOUNCE_CHOICES_H
#define CACHEPROBE_BOUNCE_CHOICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "areas/area.h"

#define CP_BOUNCE_DEFAULT_THREADS 2
#define CP_BOUNCE_MAX_THREADS 64
/* The largest distance between neighbouring counters (the module's limit
 * too): far beyond any coherence unit, small enough to allocate freely. */
#define CP_BOUNCE_MAX_DISTANCE 65536u
#define CP_BOUNCE_MAX_DISTANCES 32

enum cp_bounce_op {
	CP_BOUNCE_PLAIN,	/* add to memory, no lock prefix */
	CP_BOUNCE_ATOMIC,	/* lock add */
	CP_BOUNCE_NR_OPS,
};

struct cp_bounce_choices {
	/* 0: as many as --cpus names, else CP_BOUNCE_DEFAULT_THREADS (the
	 * CPU planner decides, areas/bounce/bounce_groups.h). */
	unsigned int threads;
	size_t nr_distances;		/* 0: the default list */
	bool distances_chosen;		/* on the command line */
	uint32_t distances[CP_BOUNCE_MAX_DISTANCES];
	size_t nr_widths;		/* 0: 4 and 8 */
	unsigned int widths[2];
	size_t nr_ops;			/* 0: plain and atomic */
	enum cp_bounce_op ops[CP_BOUNCE_NR_OPS];
};

/* "plain" or "atomic". */
const char *cp_bounce_op_name(enum cp_bounce_op op);

/*
 * Parsers of the option texts; each returns 0, or -EINVAL with the reason
 * in @why.  Lists are comma-separated, without spaces, each item once.
 * Distances: 0 (one shared counter) to CP_BOUNCE_MAX_DISTANCE bytes.
 * Widths: 4 and/or 8.  Ops: plain and/or atomic.
 */
int cp_bounce_parse_distances(const char *text,
			      struct cp_bounce_choices *choices, char *why,
			      size_t why_len);
int cp_bounce_parse_widths(const char *text,
			   struct cp_bounce_choices *choices, char *why,
			   size_t why_len);
int cp_bounce_parse_ops(const char *text, struct cp_bounce_choices *choices,
			char *why, size_t why_len);

/*
 * Fill in the defaults for what was not chosen and check the choices
 * together: an explicit distance must be a multiple of every chosen width
 * (the default list keeps, per width, only the distances that are).
 * 0, or -EINVAL with the reason in @why.
 */
int cp_bounce_choices_complete(struct cp_bounce_choices *choices, char *why,
			       size_t why_len);

/* Whether distance @distance applies to counters of @width bytes. */
bool cp_bounce_distance_fits(uint32_t distance, unsigned int width);

/* The area (bounce.c) and its options of the run command
 * (bounce_options.c). */
extern const struct cp_area cp_area_bounce;
extern const struct cp_area_option cp_bounce_options[];

/* Distances against widths (struct cp_area's check_choices). */
int cp_bounce_check_choices(const void *choices, char *why, size_t why_size);

#endif
