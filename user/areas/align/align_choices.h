/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the align area measures, as the command line chooses it: offsets
 * (--offsets "0-128", "0-128:4", "56-64,4092"), access widths
 * (--access-widths "8,32"), kinds (--access-kinds "load-latency") and
 * buffers (--buffers "l1,l2,64K").  Nothing chosen means the area's short
 * default set (see areas/align/align.c).
 */
#ifndef CACHEPROBE_ALIGN_CHOICES_H
#define CACHEPROBE_ALIGN_CHOICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "areas/area.h"
#include "areas/align/align_layout.h"
#include "areas/align/align_run.h"
#include "areas/align/align_widths.h"

#define CP_ALIGN_MAX_OFFSETS (CP_ALIGN_MAX_OFFSET + 1)
#define CP_ALIGN_MAX_BUFFERS 4
/* Buffers named by cache level, resolved from the topology: half the
 * level's size, so the buffer stays in it beside everything else. */
#define CP_ALIGN_BUFFER_L1 1u
#define CP_ALIGN_BUFFER_L2 2u
#define CP_ALIGN_MIN_BUFFER 4096u
#define CP_ALIGN_MAX_BUFFER (1ull << 30)

struct cp_align_choices {
	size_t nr_offsets;		/* 0: the default set */
	uint16_t offsets[CP_ALIGN_MAX_OFFSETS];
	size_t nr_widths;		/* 0: every width the CPU can do */
	unsigned int widths[CP_ALIGN_NR_WIDTHS];
	size_t nr_kinds;		/* 0: all three */
	enum cp_align_kind kinds[CP_ALIGN_NR_KINDS];
	size_t nr_buffers;		/* 0: l1 and l2 */
	uint64_t buffers[CP_ALIGN_MAX_BUFFERS];	/* bytes, or BUFFER_L1/L2 */
};

/*
 * Parsers of the option texts; each returns 0, or -EINVAL with the reason
 * in @why.  Lists are comma-separated without spaces, each value once.
 * Offsets: 0 to CP_ALIGN_MAX_OFFSET, items N, A-B or A-B:STEP.  Widths:
 * 1, 2, 4, 8, 16, 32, 64.  Kinds: load-latency, load-throughput,
 * store-throughput.  Buffers: l1, l2, or a size (bytes, K, M, G) from
 * CP_ALIGN_MIN_BUFFER to CP_ALIGN_MAX_BUFFER.
 */
int cp_align_parse_offsets(const char *text, struct cp_align_choices *choices,
			   char *why, size_t why_len);
int cp_align_parse_widths(const char *text, struct cp_align_choices *choices,
			  char *why, size_t why_len);
int cp_align_parse_kinds(const char *text, struct cp_align_choices *choices,
			 char *why, size_t why_len);
int cp_align_parse_buffers(const char *text, struct cp_align_choices *choices,
			   char *why, size_t why_len);

/* The area (align.c) and its options of the run command
 * (align_options.c). */
extern const struct cp_area cp_area_align;
extern const struct cp_area_option cp_align_options[];

#endif
