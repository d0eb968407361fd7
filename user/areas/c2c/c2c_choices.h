/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the c2c area measures, as the command line chooses it, with the
 * parsers of the option texts: the side whose memory node holds the line
 * (--home), the total time (--budget) and the matrix file (--matrix).
 */
#ifndef CACHEPROBE_C2C_CHOICES_H
#define CACHEPROBE_C2C_CHOICES_H

#include <stddef.h>

#include "areas/area.h"

enum cp_c2c_home {
	CP_C2C_HOME_FIRST,		/* the lower CPU of the pair (default) */
	CP_C2C_HOME_SECOND,
};

/* At least this much per pair and variant: a few samples of a few round
 * trips, and moving the threads. */
#define CP_C2C_MIN_SHARE_NS 1e6
#define CP_C2C_MAX_BUDGET_S 86400.0

struct cp_c2c_choices {
	enum cp_c2c_home home;
	double budget_ns;		/* 0: the default, from the pairs */
	const char *matrix_path;	/* NULL: none */
};

/* Parsers: 0, or -EINVAL with the reason in @why.  "first" or
 * "second". */
int cp_c2c_parse_home(const char *text, enum cp_c2c_home *out, char *why,
		      size_t why_len);
/* Seconds, "2.5", "30s", "2m" (above 0, at most CP_C2C_MAX_BUDGET_S). */
int cp_c2c_parse_budget(const char *text, double *out_ns, char *why,
			size_t why_len);
/* A file name ending in .csv or .json. */
int cp_c2c_parse_matrix_path(const char *text, char *why, size_t why_len);

const char *cp_c2c_home_name(enum cp_c2c_home home);

/* The area (c2c.c) and its options of the run command
 * (c2c_options.c). */
extern const struct cp_area cp_area_c2c;
extern const struct cp_area_option cp_c2c_options[];

#endif
