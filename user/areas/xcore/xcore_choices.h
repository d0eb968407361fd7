/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the xcore area measures, as the command line chooses it, with the
 * parser of the option text: the pairs (--pairs) and the dependent delay
 * between loads (--delay).
 */
#ifndef CACHEPROBE_XCORE_CHOICES_H
#define CACHEPROBE_XCORE_CHOICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "areas/area.h"

/* More dependent adds than this between two loads only measure the adds. */
#define CP_XCORE_MAX_DELAY 4096u

struct cp_xcore_choices {
	const char *pairs;		/* NULL: "classes" */
	unsigned int delay;		/* dependent adds between loads */
};

/* Parsers: 0, or -EINVAL with the reason in @why. */
int cp_xcore_parse_delay(const char *text, unsigned int *out, char *why,
			 size_t why_len);

/* The area (xcore.c) and its options of the run command
 * (xcore_options.c). */
extern const struct cp_area cp_area_xcore;
extern const struct cp_area_option cp_xcore_options[];

#endif
