/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency area's kernel mode, the part that talks to the module: the
 * module reached and asked for its limits, and one working set measured by
 * CHASE (random order, stride the line size; the pages, the number of
 * chases and the seed the tool chose) with the loads per sample sized from
 * a first small request and halved while a sample overflows the
 * interrupt-off window (EOVERFLOW, client/kernel_call.h), always a multiple of
 * the chases.
 */
#ifndef CACHEPROBE_LATENCY_KERNEL_RUN_H
#define CACHEPROBE_LATENCY_KERNEL_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "client/client.h"
#include "util/error.h"

struct cp_latency_kernel {
	struct cp_client *client;
	uint64_t max_irqoff_ns;		/* 0: unknown */
	uint64_t max_buffer_bytes;	/* 0: unknown */
	uint32_t abi_version;		/* the module's */
	/* ABI 4 or later: CHASE takes PAGES, CHASES and SEED.  Without them
	 * the module draws its own seed (another chain than user mode's for
	 * the same seed) and knows only 4 KiB pages and one chase. */
	bool has_chase_options;
};

/* Connect over @transport and read the module's limits; -EOPNOTSUPP for a
 * module without CHASE (ABI 1).  Nothing to close on failure. */
int cp_latency_kernel_open(enum cp_transport transport,
			   struct cp_latency_kernel *kernel,
			   struct cp_error *error);
void cp_latency_kernel_close(struct cp_latency_kernel *kernel);

struct cp_latency_kernel_request {
	uint32_t cpu;
	uint64_t size;			/* working-set bytes */
	uint32_t stride;		/* the line size */
	uint32_t samples;
	double tsc_hz;
	double target_ns;		/* of one sample */
	uint64_t fixed_hops;		/* loads per sample over all chases,
					 * rounded down to a multiple of
					 * chases; 0: size from a first
					 * request */
	uint32_t pages;			/* enum cacheprobe_pages, 0: 4K */
	uint32_t chases;		/* 1..CACHEPROBE_MAX_CHASES, 0: 1 */
	uint64_t seed;			/* the chain's seed, as user mode's:
					 * sent when has_chase_options (over
					 * ioctl 0 cannot be sent: -EINVAL) */
};

/*
 * Measure @request into @result (release with cp_run_result_free; its ops
 * are loads over all chases, its page_bytes what the module reported):
 * 0, -EINTR, or -errno with @error filled.  -EOPNOTSUPP, before anything
 * runs, for 2 MiB pages or more than one chase from a module without
 * has_chase_options.
 */
int cp_latency_kernel_chase(const struct cp_latency_kernel *kernel,
			    const struct cp_latency_kernel_request *request,
			    struct cp_run_result *result,
			    struct cp_error *error);

#endif
