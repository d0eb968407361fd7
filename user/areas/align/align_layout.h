/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the align area's accesses fall: which ones straddle a cache line
 * or a 4 KiB page, how many slots a buffer holds, and the strides and
 * offsets of the measurements.
 *
 * A buffer is page-aligned; slot k starts at k * stride, and its access
 * covers bytes [k * stride + offset, k * stride + offset + width).  The
 * stride of an offset sweep is a power of two of at least
 * CP_ALIGN_MIN_STRIDE, so every slot starts at the same place in any line
 * of up to half the stride and all slots of one measurement split, or do
 * not, alike.
 */
#ifndef CACHEPROBE_ALIGN_LAYOUT_H
#define CACHEPROBE_ALIGN_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CP_ALIGN_PAGE 4096u
/* Offsets stay inside one page (the module's ACCESS takes below 4096). */
#define CP_ALIGN_MAX_OFFSET (CP_ALIGN_PAGE - 1)
#define CP_ALIGN_MAX_WIDTH 64u
/* Twice the largest line size the detector considers (128 bytes). */
#define CP_ALIGN_MIN_STRIDE 256u

enum cp_align_split {
	CP_ALIGN_SPLIT_NONE,	/* inside one line */
	CP_ALIGN_SPLIT_LINE,	/* two lines of one page */
	CP_ALIGN_SPLIT_PAGE,	/* two pages (and so two lines) */
};

/* Whether @width bytes at @address touch two @line-byte lines. */
bool cp_align_splits_line(uint64_t address, unsigned int width,
			  unsigned int line);
/* Whether @width bytes at @address touch two 4 KiB pages. */
bool cp_align_splits_page(uint64_t address, unsigned int width);
enum cp_align_split cp_align_split_of(uint64_t address, unsigned int width,
				      unsigned int line);
/* "none", "line" or "page". */
const char *cp_align_split_name(enum cp_align_split split);

/* Slots of @stride bytes whose @width bytes at @offset fit in @size
 * bytes; 0 when not even one does (or @stride is 0). */
size_t cp_align_nr_slots(uint64_t size, uint32_t stride, uint32_t offset,
			 unsigned int width);

/* The stride of a sweep whose accesses end at most @max_end bytes into
 * their slot: the smallest power of two >= @max_end, at least
 * CP_ALIGN_MIN_STRIDE. */
uint32_t cp_align_sweep_stride(uint32_t max_end);

/* The offset where a @width-byte access straddles a line boundary by half
 * its width (@line - @width / 2); @line - 1 for 1 byte, which never
 * splits. */
uint32_t cp_align_line_split_offset(unsigned int line, unsigned int width);
/* The same at the end of a page (stride CP_ALIGN_PAGE); 0 for 1 byte. */
uint32_t cp_align_page_split_offset(unsigned int width);

#endif
