/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evict --verify: a probe buffer warmed, verified, warmed again, evicted
 * and verified, so the eviction's residual warmth is shown beside what
 * "warm" looks like to the same timer.
 */
#ifndef CACHEPROBE_EVICT_PROBE_H
#define CACHEPROBE_EVICT_PROBE_H

#include <stdint.h>

#include "cacheprobe.h"

struct evict_outcome {
	double evict_ns;		/* the eviction call alone */
	uint64_t probe_bytes;		/* 0: no probe */
	int probe_cpu;			/* where the probe was used */
	struct cacheprobe_warmth warm;
	struct cacheprobe_warmth evicted;
};

/*
 * One eviction by @ctx, with a probe of @probe_bytes when non-zero.  0, or
 * -errno with cacheprobe_last_error() (or, for the probe's memory, errno)
 * saying why.
 */
int evict_once(struct cacheprobe_ctx *ctx, uint64_t probe_bytes,
	       struct evict_outcome *out);

#endif
