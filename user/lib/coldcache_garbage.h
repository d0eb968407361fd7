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
 * the hardware prefetchers stream at full bandwidth; the buffer is
 * written once when allocated so that no read meets an unpopulated page
 * (the zero page would make every line the same physical line).
 */
#ifndef CACHEPROBE_COLDCACHE_GARBAGE_H
#define CACHEPROBE_COLDCACHE_GARBAGE_H

#include <stddef.h>
#include <stdint.h>

#include "coldcache_plan.h"
#include "cpuset.h"

struct cp_garbage {
	char *buffer;
	size_t bytes;
};

/* Map and populate @bytes (rounded up to a page).  0 or -ENOMEM. */
int cp_garbage_alloc(struct cp_garbage *garbage, size_t bytes);
void cp_garbage_free(struct cp_garbage *garbage);

/* Read every line of [@start, @start + @bytes); returns a value derived
 * from the data so the reads cannot be dropped. */
uint64_t cp_garbage_read(const char *start, size_t bytes);

/* Read [@start, @start + @bytes) chunk by chunk, each chunk of
 * @chunk_bytes CP_PLAN_PASSES times in a row (see coldcache_plan.h). */
uint64_t cp_garbage_read_twice(const char *start, size_t bytes,
			       size_t chunk_bytes);

/*
 * The naive method: pin the calling thread to each CPU of @cpus in turn
 * and read the first CP_NAIVE_GARBAGE_BYTES of @garbage there; the
 * calling thread's affinity is restored.  0 or -errno.
 */
int cp_garbage_naive(const struct cp_garbage *garbage,
		     const struct cp_cpuset *cpus);

/*
 * The planned method: one thread per reader of @plan, pinned, all started
 * together; returns when all have read their slice.  @garbage holds at
 * least @plan->total_bytes.  0 or -errno.
 */
int cp_garbage_planned(const struct cp_garbage *garbage,
		       const struct cp_eviction_plan *plan);

#endif
