/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency area's kernel mode, the parts that need no module: which
 * working sets the module can take, how many hops one CHASE sample may ask
 * for so that it stays inside the module's interrupt-off window, and the
 * module's reply (TSC ticks of OPS hops per sample) turned into the same
 * samples as user mode (ticks per hop, and ns per hop at the clock's rate).
 */
#ifndef CACHEPROBE_LATENCY_KERNEL_H
#define CACHEPROBE_LATENCY_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client.h"
#include "results.h"

/* A sample uses at most this share of the module's interrupt-off window,
 * so a sample slowed down (an SMI, a slow memory access) still fits. */
#define CP_LATENCY_KERNEL_WINDOW_SHARE 0.5
/* Hops of the first, sizing request. */
#define CP_LATENCY_KERNEL_FIRST_HOPS 1024u

/* Whether a @size-byte working set fits the module's largest buffer
 * @max_buffer_bytes (0: unknown, then everything is tried). */
bool cp_latency_kernel_fits(uint64_t size, uint64_t max_buffer_bytes);

/*
 * Hops per sample for a target of @target_ns per sample, given that one
 * hop took @ticks_per_hop (measured by the first request), the TSC at
 * @tsc_hz and the module's window @max_irqoff_ns (0: unknown, then only
 * the target counts).  Between 1 and CACHEPROBE_MAX_OPS;
 * CP_LATENCY_KERNEL_FIRST_HOPS when nothing was measured.
 */
uint32_t cp_latency_kernel_hops(double ticks_per_hop, double tsc_hz,
				double target_ns, uint64_t max_irqoff_ns);

/* The hops to ask for after @hops overflowed the window: half, at least 1;
 * 0 when @hops was already 1 (give up). */
uint32_t cp_latency_kernel_fewer_hops(uint32_t hops);

/* The slowest sample's ticks per hop in @result (0 without values). */
double cp_latency_kernel_slowest(const struct cp_run_result *result);

/*
 * @result's single series as ticks per hop, in sample order; malloc'ed,
 * result->samples values (*@n), or NULL without memory, values or ops.
 */
double *cp_latency_kernel_samples(const struct cp_run_result *result,
				  size_t *n);

/*
 * Fill @m's count (hops per sample), scale (1) and samples from @result,
 * ns per hop at @tsc_hz.  0, -EINVAL for a reply without samples, or
 * -ENOMEM.
 */
int cp_latency_kernel_fill(struct cp_measurement *m,
			   const struct cp_run_result *result, double tsc_hz);

#endif
