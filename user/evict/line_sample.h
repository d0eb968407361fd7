/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which cache served each line of someone else's buffer: a sample of its
 * lines, timed one load at a time in random order and classified with the
 * line classifier (coldcache_lines.h).  The buffer is only read: its
 * lines cannot carry a pointer chase, so the addresses come from an
 * array, and the timer's floor is taken with the same loop reading the
 * array without the loads.
 *
 * The sample keeps the prefetchers out of the count: they do not cross a
 * 4 KiB page, so a buffer of CP_SAMPLE_SPREAD_PAGES pages or more gives
 * one line per page, at offsets that step through the page so that every
 * cache set is sampled; a smaller buffer gives several lines per page,
 * four lines apart (the adjacent-line prefetcher completes 128-byte
 * pairs), and what a miss there prefetches may count as cached.
 *
 * Address translation is in the time, as in the classifier's own
 * calibration where its sets span more than the TLB reaches: a line of a
 * buffer on 4 KiB pages that a large read has just evicted pays a page
 * walk from memory too, in a virtual machine a two-dimensional one
 * (measured here: several microseconds, ten times memory's latency and
 * more).  Such a line counts as memory, which it is; only a step far
 * slower than the others is an interruption (see cp_sample_interruption).
 * Touching another line of the page first to fill the TLB was tried and
 * dropped: a spatial prefetcher learned the fixed offset between the two
 * loads and fetched the sampled line, and 70 % of a flushed buffer
 * looked cached.
 *
 * The array holds the addresses disguised (cp_sample_line): Intel cores
 * with a data-dependent prefetcher read values that look like pointers
 * in the lines a program loads and fetch what they point to.  Walked in
 * order, an array of plain pointers had its targets prefetched ahead of
 * the timed loads: on a Sapphire Rapids-class Xeon, lines just flushed
 * timed as L1 hits (46 ticks with a floor of 44; 398 ticks with the
 * addresses held as offsets), and verify saw every level as one.
 */
#ifndef CACHEPROBE_LINE_SAMPLE_H
#define CACHEPROBE_LINE_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "evict/coldcache_lines.h"

#define CP_SAMPLE_SPREAD_PAGES 64
/* Lines a small buffer gives at most. */
#define CP_SAMPLE_MIN_LINES 256

/* XORed into each address: the top bits set make it non-canonical, so
 * no prefetcher takes it for a pointer. */
#define CP_SAMPLE_DISGUISE 0xa5a5000000000000ull

/* The address a disguised sample entry holds. */
static inline const char *cp_sample_line(uintptr_t disguised)
{
	return (const char *)(disguised ^ (uintptr_t)CP_SAMPLE_DISGUISE);
}

/*
 * The sampled line addresses of [@start, @start + @bytes), disguised, in
 * random order (@seed), into a malloc'ed array (*@out, *@nr).  0, -EINVAL
 * (no whole line in the range) or -ENOMEM.
 */
int cp_sample_lines(const void *start, size_t bytes, uint64_t seed,
		    uintptr_t **out, size_t *nr);

/* Load each of @lines after its dithering wait (evict/coldcache_lines.h),
 * storing the ticks of each load in @ticks. */
void cp_sample_timed_loads(const uintptr_t *lines, size_t n, uint16_t *ticks);

/* The floor of that loop: the same steps without the loads. */
void cp_sample_floor(const uintptr_t *lines, size_t n, uint16_t *scratch,
		     struct cp_timer_floor *out);

/*
 * A step above this is an interruption (timer interrupt, exit to the
 * hypervisor), not a load: @interruption_factor times @memory_ticks (the
 * classifier's memory plateau) and @outlier_factor times the median of
 * the @n steps of @ticks, whichever is higher, so that a sample where
 * every line paid a page walk is not all "interrupted".
 */
double cp_sample_interruption(const uint16_t *ticks, size_t n,
			      double memory_ticks, double interruption_factor,
			      double outlier_factor);

#endif
