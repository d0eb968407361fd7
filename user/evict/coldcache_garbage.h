/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Garbage-read eviction: reading a buffer so that what was cached before
 * is displaced.  The naive method reads a fixed buffer on every CPU in
 * turn, pinning to each; the planned method runs the readers of an
 * eviction plan (coldcache_plan.h) at once, each pinned to its CPU and
 * reading its own slice chunk by chunk, each chunk twice.  A plain
 * single-thread streaming read of as many bytes is the bandwidth
 * reference.
 *
 * Every read touches one word per 64-byte line, in address order, so
 * the hardware prefetchers stream at full bandwidth; the buffers are
 * written once when allocated so that no read meets an unpopulated page
 * (the zero page would make every line the same physical line).
 *
 * Garbage the last level still holds evicts nothing: reading it hits, and
 * only misses insert lines.  So the planned method and the stream read a
 * window that moves through a pool after each use: each window starts
 * where the last ended, or at the pool's start once the next might not
 * fit, and a byte is read again only after at least CP_GARBAGE_REUSE_LLCS
 * times the last level of other garbage.  Windows that large (the default
 * factor's) need a pool of one window; smaller ones, or a mix of sizes
 * (the factor sweep), a pool with that much room beside the largest
 * window; the naive method has a buffer of its own (it reads the
 * same 64 MiB every time, as the classic recipe does), so neither reads
 * lines the other has just brought in.
 */
#ifndef CACHEPROBE_COLDCACHE_GARBAGE_H
#define CACHEPROBE_COLDCACHE_GARBAGE_H

#include <stddef.h>
#include <stdint.h>

#include "evict/coldcache_plan.h"
#include "machine/cpuset.h"
#include "evict/garbage_readers.h"

#define CP_GARBAGE_REUSE_LLCS 2
/* Naive buffers kept mapped after they are replaced (see
 * cp_garbage_redraw_naive). */
#define CP_NAIVE_KEPT 3

struct cp_garbage {
	char *pool;		/* the planned method's and the stream's */
	size_t pool_bytes;
	size_t window_bytes;	/* the largest window a read may take */
	size_t cursor;		/* where the next window starts */
	char *naive;		/* CP_NAIVE_GARBAGE_BYTES, the naive method's */
	/* Earlier naive buffers still mapped (see cp_garbage_redraw_naive),
	 * oldest first; NULL where there is none. */
	char *naive_kept[CP_NAIVE_KEPT];
};

/*
 * Map and populate the naive buffer and a pool for windows of
 * @smallest_bytes to @largest_bytes, @llc_bytes being all last-level
 * caches together.  0, -EINVAL (no window) or -ENOMEM (nothing left
 * mapped).
 */
int cp_garbage_alloc(struct cp_garbage *garbage, size_t smallest_bytes,
		     size_t largest_bytes, uint64_t llc_bytes);
/* The same without the naive buffer (NULL there). */
int cp_garbage_alloc_pool(struct cp_garbage *garbage, size_t smallest_bytes,
			  size_t largest_bytes, uint64_t llc_bytes);
void cp_garbage_free(struct cp_garbage *garbage);
/*
 * A new naive buffer in place of the old one, on other physical pages:
 * 0, -ENOMEM or -EINTR (asked to stop while populating it), the old one
 * kept on error.  The kernel hands out the pages freed last first, so a
 * buffer unmapped at once would come back as the next one: the last
 * CP_NAIVE_KEPT buffers stay mapped, and a new one shares its pages with
 * none of them.
 */
int cp_garbage_redraw_naive(struct cp_garbage *garbage);

/* The start of the next window of @bytes (at most the window size) and
 * move on, back to the start of the pool when the window after it might
 * not fit. */
const char *cp_garbage_next_window(struct cp_garbage *garbage, size_t bytes);

/* Read every line of [@start, @start + @bytes); returns a value derived
 * from the data so the reads cannot be dropped. */
uint64_t cp_garbage_read(const char *start, size_t bytes);

/* Read [@start, @start + @bytes) chunk by chunk, each chunk of
 * @chunk_bytes CP_PLAN_PASSES times in a row (see coldcache_plan.h). */
uint64_t cp_garbage_read_twice(const char *start, size_t bytes,
			       size_t chunk_bytes);

/*
 * The naive method: pin the calling thread to each CPU of @cpus in turn
 * and read the naive buffer there; the calling thread's affinity is
 * restored.  0, -EINTR when asked to stop (harness/interrupt.h) before a
 * CPU's read, or -errno.
 */
int cp_garbage_naive(const struct cp_garbage *garbage,
		     const struct cp_cpuset *cpus);

/*
 * The planned method: @readers (started for @plan's CPUs) read their
 * slices of the next window of @garbage, all at once; returns when all
 * have.  0, -EINVAL (@plan larger than a window, or reading where no
 * reader was started) or -ECHILD (after fork(), garbage_readers.h).
 */
int cp_garbage_planned(struct cp_garbage *garbage, struct cp_readers *readers,
		       const struct cp_eviction_plan *plan);

#endif
