/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency area's kernel mode, the parts that need no module: which
 * working sets the module can take, and the module's reply (TSC ticks of
 * OPS loads per sample) turned into the same samples as user mode (ticks
 * per load, and ns per load at the clock's rate).  With one chase a load
 * is a hop.  How many loads a sample asks for (a multiple of the chases,
 * inside the module's interrupt-off window) is client/kernel_call.h's.
 */
#ifndef CACHEPROBE_LATENCY_KERNEL_H
#define CACHEPROBE_LATENCY_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/client.h"
#include "results/results.h"

/* Whether a @size-byte working set fits the module's largest buffer
 * @max_buffer_bytes (0: unknown, then everything is tried). */
bool cp_latency_kernel_fits(uint64_t size, uint64_t max_buffer_bytes);

/*
 * @result's single series as ticks per load, in sample order; malloc'ed,
 * result->samples values (*@n), or NULL without memory, values or ops.
 */
double *cp_latency_kernel_samples(const struct cp_run_result *result,
				  size_t *n);

/*
 * Fill @m's count (loads per sample), scale (1) and samples from @result,
 * ns per load at @tsc_hz.  0, -EINVAL for a reply without samples, or
 * -ENOMEM.
 */
int cp_latency_kernel_fill(struct cp_measurement *m,
			   const struct cp_run_result *result, double tsc_hz);

#endif
