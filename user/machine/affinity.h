/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The affinity this process was started with (taskset, numactl, a parent's
 * sched_setaffinity).  The tool pins its threads with sched_setaffinity,
 * which may widen a thread's affinity to any CPU its cgroup cpuset allows:
 * the mask it started with is the only record of where the user put it.
 */
#ifndef CACHEPROBE_AFFINITY_H
#define CACHEPROBE_AFFINITY_H

#include "machine/cpuset.h"

/*
 * Record the calling thread's affinity as the one the process started
 * with.  Call it first thing in main, before anything pins a thread; a
 * second call keeps the first record.  0 or -errno.
 */
int cp_affinity_record(void);

/*
 * A copy of the recorded affinity, or when none was recorded (a program
 * that never called cp_affinity_record), of the calling thread's affinity
 * now.  0, or -errno (-ENOMEM).
 */
int cp_affinity_start(struct cp_cpuset **out);

#endif
