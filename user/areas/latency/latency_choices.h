/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the latency area measures beyond the working-set sizes, as the
 * command line chooses it: the pages of the chased buffer (--pages) and
 * how many independent chases one thread follows at once (--chases).
 * Each pair of the two lists is one curve.
 */
#ifndef CACHEPROBE_LATENCY_CHOICES_H
#define CACHEPROBE_LATENCY_CHOICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "areas/area.h"
#include "harness/chase.h"

#define CP_LATENCY_MAX_PAGE_SIZES 3

struct cp_latency_choices {
	/* In the order given (2m first when added); none: 2m alone. */
	unsigned int nr_pages;
	enum cp_page_size pages[CP_LATENCY_MAX_PAGE_SIZES];
	/* Where the sizes the user named start (1 when 2m was added). */
	unsigned int first_asked;
	/* Ascending, 1 always first (the overlap is against one chase);
	 * none: 1 alone. */
	unsigned int nr_chases;
	unsigned int chases[CP_CHASE_MAX_CHASES];
};

/* "4k,2m,1g" in any order, each once; 4k alone gets 2m added in front,
 * the reference its TLB reach is measured against.  0, or -EINVAL with
 * @why. */
int cp_latency_parse_pages(const char *text, struct cp_latency_choices *out,
			   char *why, size_t why_len);
/* "1,2,4,8,16": 1 to CP_CHASE_MAX_CHASES each, each once; 1 is added
 * when missing.  0, or -EINVAL with @why. */
int cp_latency_parse_chases(const char *text, struct cp_latency_choices *out,
			    char *why, size_t why_len);

/* The defaults filled in where @in (may be NULL) chose nothing. */
struct cp_latency_choices cp_latency_choices_resolve(
	const struct cp_latency_choices *in);

/* The pages of areas that take one page size (coldcache): the first the
 * user named, 2m when none.  @in may be NULL. */
enum cp_page_size cp_latency_choices_first_pages(
	const struct cp_latency_choices *in);

/* "4k", "2m", "1g", and the bytes of each. */
const char *cp_page_size_name(enum cp_page_size pages);
uint64_t cp_page_size_bytes(enum cp_page_size pages);

/* The area (latency.c) and its options of the run command
 * (latency_options.c). */
extern const struct cp_area cp_area_latency;
extern const struct cp_area_option cp_latency_options[];

#endif
