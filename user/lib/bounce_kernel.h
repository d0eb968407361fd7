/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bounce area's kernel mode, the parts that need no module: how many
 * increments one BOUNCE sample may ask for, and the module's reply turned
 * into the same samples as user mode (every CPU's ticks per increment of
 * every sample, sample-major).
 */
#ifndef CACHEPROBE_BOUNCE_KERNEL_H
#define CACHEPROBE_BOUNCE_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "client.h"

/* A sample uses at most this share of the module's interrupt-off window,
 * so a slow sample (a late partner) still fits and is not retried. */
#define CP_BOUNCE_KERNEL_WINDOW_SHARE 0.5
#define CP_BOUNCE_KERNEL_FIRST_INCREMENTS 1024u

/*
 * Increments per sample for a target of @target_ns per sample, given that
 * the slowest CPU took @ticks_per_increment (measured at a first, small
 * count), the TSC at @tsc_hz and the module's window @max_irqoff_ns (0:
 * unknown, then only the target counts).  Between 1 and
 * CACHEPROBE_MAX_OPS.
 */
uint32_t cp_bounce_kernel_increments(double ticks_per_increment,
				     double tsc_hz, double target_ns,
				     uint64_t max_irqoff_ns);

/* The slowest CPU's ticks per increment over all of @result's samples. */
double cp_bounce_kernel_slowest(const struct cp_run_result *result);

/*
 * @result's values as ticks per increment, sample-major (sample 0 CPU 0,
 * sample 0 CPU 1, ...), @overhead_ticks subtracted from each value first;
 * malloc'ed, samples x series of them (*@n), or NULL without memory or
 * values.
 */
double *cp_bounce_kernel_samples(const struct cp_run_result *result,
				 double overhead_ticks, size_t *n);

#endif
