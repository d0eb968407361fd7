/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency area's kernel mode, the part that talks to the module: the
 * module reached and asked for its limits, and one working set measured by
 * CHASE (random order, stride the line size) with the hops per sample
 * sized from a first small request (lib/latency_kernel.h) and halved while
 * a sample overflows the interrupt-off window (EOVERFLOW).
 */
#ifndef CACHEPROBE_LATENCY_KERNEL_RUN_H
#define CACHEPROBE_LATENCY_KERNEL_RUN_H

#include <stdint.h>

#include "client.h"
#include "error.h"

/* Halvings tried when a sample does not fit in a window (EOVERFLOW). */
#define CP_LATENCY_KERNEL_OVERFLOW_RETRIES 4

struct cp_latency_kernel {
	struct cp_client *client;
	uint64_t max_irqoff_ns;		/* 0: unknown */
	uint64_t max_buffer_bytes;	/* 0: unknown */
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
	uint64_t fixed_hops;		/* 0: size from a first request */
};

/* Measure @request into @result (release with cp_run_result_free):
 * 0, -EINTR, or -errno with @error filled. */
int cp_latency_kernel_chase(const struct cp_latency_kernel *kernel,
			    const struct cp_latency_kernel_request *request,
			    struct cp_run_result *result,
			    struct cp_error *error);

#endif
