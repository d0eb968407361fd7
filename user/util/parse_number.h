/* SPDX-License-Identifier: GPL-2.0 */
/* Counts as people write them on the command line: the commands' own
 * options and the areas' (areas/<area>/). */
#ifndef CACHEPROBE_PARSE_NUMBER_H
#define CACHEPROBE_PARSE_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/*
 * A decimal integer in [@min, @max]: digits only, no sign, no spaces.
 * Returns 0, or -EINVAL with the reason in @why.
 */
int cp_parse_u64(const char *text, uint64_t min, uint64_t max,
		 uint64_t *out, char *why, size_t why_len);
/* The same into an unsigned int (@max at most UINT_MAX); @out is left
 * as it was on an error. */
int cp_parse_uint(const char *text, unsigned int min, unsigned int max,
		  unsigned int *out, char *why, size_t why_len);

#endif
