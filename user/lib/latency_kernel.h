/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency area's kernel mode, the parts that need no module: which
 * working sets the module can take, how many loads one CHASE sample may ask
 * for so that it stays inside the module's interrupt-off window (a
 * multiple of the chases it follows at once, as CHASE wants), and the
 * module's reply (TSC ticks of OPS loads per sample) turned into the same
 * samples as user mode (ticks per load, and ns per load at the clock's
 * rate).  With one chase a load is a hop.
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
/* Loads of the first, sizing request (rounded down to a multiple of the
 * chases: cp_latency_kernel_first_hops()). */
#define CP_LATENCY_KERNEL_FIRST_HOPS 1024u

/* Whether a @size-byte working set fits the module's largest buffer
 * @max_buffer_bytes (0: unknown, then everything is tried). */
bool cp_latency_kernel_fits(uint64_t size, uint64_t max_buffer_bytes);

/* @n rounded down to a multiple of @multiple (0 counts as 1), at least
 * @multiple: what CHASE takes for OPS with CHASES @multiple. */
uint32_t cp_latency_kernel_multiple(uint64_t n, uint32_t multiple);

/* CP_LATENCY_KERNEL_FIRST_HOPS as a multiple of @multiple. */
uint32_t cp_latency_kernel_first_hops(uint32_t multiple);

/*
 * Loads per sample for a target of @target_ns per sample, given that one
 * load took @ticks_per_hop (measured by the first request: ticks per OPS,
 * over all chases), the TSC at @tsc_hz and the module's window
 * @max_irqoff_ns (0: unknown, then only the target counts).  A multiple of
 * @multiple (the chases; 0 or 1 for any count, and for ACCESS), between
 * @multiple and CACHEPROBE_MAX_OPS; cp_latency_kernel_first_hops() when
 * nothing was measured.
 */
uint32_t cp_latency_kernel_hops(double ticks_per_hop, double tsc_hz,
				double target_ns, uint64_t max_irqoff_ns,
				uint32_t multiple);

/* The loads to ask for after @hops overflowed the window: half, rounded
 * down to a multiple of @multiple (0 or 1: any count) and at least that;
 * 0 when @hops was already no more than @multiple (give up). */
uint32_t cp_latency_kernel_fewer_hops(uint32_t hops, uint32_t multiple);

/* The slowest sample's ticks per load in @result (0 without values). */
double cp_latency_kernel_slowest(const struct cp_run_result *result);

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
