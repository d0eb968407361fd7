/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The planned garbage read's readers as persistent threads: one per CPU
 * that reads in an eviction plan (coldcache_plan.h), pinned to it, started
 * once and woken for each read, so that an eviction creates no thread and
 * allocates nothing (a benchmark evicting before every iteration must not
 * pay, nor be disturbed by, thread creation).
 *
 * The threads block every signal: a program's signals reach its own
 * threads, never a reader in the middle of its slice.
 *
 * After fork() the child has none of the threads: cp_readers_read() fails
 * there with -ECHILD, and cp_readers_stop() only frees the memory.
 */
#ifndef CACHEPROBE_GARBAGE_READERS_H
#define CACHEPROBE_GARBAGE_READERS_H

#include "evict/coldcache_plan.h"
#include "util/error.h"

struct cp_readers;

/*
 * One thread per distinct CPU among @plan's readers, each pinned there
 * before this returns.  0, or -errno with @error naming the CPU that could
 * not be had (and no thread left running).
 */
int cp_readers_start(const struct cp_eviction_plan *plan,
		     struct cp_readers **out, struct cp_error *error);

/*
 * Every reader of @plan reads its slice of @window, CP_PLAN_PASSES times
 * chunk by chunk, all at once; returns when all are done.  @plan must
 * read on no CPU the readers were not started for (-EINVAL).  0, -EINVAL
 * or -ECHILD (called in a child of the process that started them).
 */
int cp_readers_read(struct cp_readers *readers,
		    const struct cp_eviction_plan *plan, const char *window);

/* Stop and join the threads (in a forked child: only free).  NULL: no-op. */
void cp_readers_stop(struct cp_readers *readers);

#endif
