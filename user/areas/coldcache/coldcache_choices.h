/* SPDX-License-Identifier: GPL-2.0 */
/* The coldcache area's command-line choices: methods, garbage factor,
 * factor sweep, repetitions. */
#ifndef CACHEPROBE_COLDCACHE_CHOICES_H
#define CACHEPROBE_COLDCACHE_CHOICES_H

#include <stdbool.h>
#include <stddef.h>

#include "areas/area.h"

enum cp_coldcache_method {
	CP_COLD_WARM,
	CP_COLD_GARBAGE_NAIVE,
	CP_COLD_GARBAGE_PLANNED,
	CP_COLD_CLFLUSH,
	CP_COLD_WBINVD,
	CP_COLD_WBNOINVD,
	CP_COLD_NR_METHODS,
};

/* Chosen from the --sweep-factor measurements on the development machine
 * (see user/doc/measuring.md). */
#define CP_COLD_DEFAULT_FACTOR 4.0
#define CP_COLD_MAX_FACTOR 64.0
#define CP_COLD_DEFAULT_REPETITIONS 20
#define CP_COLD_MAX_REPETITIONS 10000

struct cp_coldcache_choices {
	unsigned int methods;		/* bit per method; 0: every one */
	double factor;			/* 0: CP_COLD_DEFAULT_FACTOR */
	bool sweep;			/* --sweep-factor */
	unsigned int repetitions;	/* 0: CP_COLD_DEFAULT_REPETITIONS */
};

/* "warm", "garbage-naive", "garbage-planned", "clflush", "wbinvd",
 * "wbnoinvd". */
const char *cp_coldcache_method_name(enum cp_coldcache_method method);

/* "wbinvd,garbage-planned" into a bit set.  0, or -EINVAL with why. */
int cp_coldcache_parse_methods(const char *text, unsigned int *methods,
			       char *why, size_t why_len);

/* A factor above 0 and at most CP_COLD_MAX_FACTOR ("0.25", "2").  0, or
 * -EINVAL with why. */
int cp_coldcache_parse_factor(const char *text, double *factor, char *why,
			      size_t why_len);

/* The area (coldcache.c) and its options of the run command
 * (coldcache_options.c). */
extern const struct cp_area cp_area_coldcache;
extern const struct cp_area_option cp_coldcache_options[];

#endif
