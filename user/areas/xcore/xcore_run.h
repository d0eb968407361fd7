/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running xcore rounds in user mode.  A consumer thread pinned to the
 * consumer CPU and, when the producer is another CPU, a producer thread
 * pinned there.  Each round: the consumer flushes the block, asks the
 * producer to touch it and waits until it has, then times one walk over
 * the block (areas/xcore/xcore_block.h).  With producer == consumer the consumer
 * touches the block itself (the same-CPU baseline); with TOUCH_NONE nobody
 * does (the from-memory baseline).  A round during which the consumer was
 * preempted is taken again, within a bound.  The core clock is measured
 * on the consumer before and after the rounds.
 */
#ifndef CACHEPROBE_XCORE_RUN_H
#define CACHEPROBE_XCORE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/chase.h"
#include "areas/xcore/xcore_block.h"

struct cp_xcore_job {
	unsigned int producer, consumer;
	enum cp_xcore_touch touch;
	const struct cp_chase *block;
	unsigned int delay;
	unsigned int rounds;		/* rounds wanted */
	unsigned int max_retakes;
};

struct cp_xcore_timing {
	unsigned int rounds;		/* kept (fewer when interrupted) */
	unsigned int retaken;
	bool interrupted;
	uint64_t *ticks;		/* raw ticks of each kept walk */
	/* The consumer's core cycles per tick before and after the rounds. */
	double core_ratio_before, core_ratio_after;
};

/*
 * Run @job.  0; -EINTR when interrupted before one round was kept;
 * -EINVAL with @failed_cpu when a thread cannot be pinned; -ENOMEM,
 * -EAGAIN.  Free @out with cp_xcore_timing_free.
 */
int cp_xcore_run(const struct cp_xcore_job *job, struct cp_xcore_timing *out,
		 unsigned int *failed_cpu);
void cp_xcore_timing_free(struct cp_xcore_timing *timing);

#endif
