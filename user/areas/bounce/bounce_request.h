/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bounce area's kernel mode, the part that needs no module: the
 * module's reply turned into the same samples as user mode (every CPU's
 * ticks per increment of every sample, sample-major).  How many increments
 * one BOUNCE sample asks for is client/kernel_call.h's.
 */
#ifndef CACHEPROBE_BOUNCE_KERNEL_H
#define CACHEPROBE_BOUNCE_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "client/client.h"

/*
 * @result's values as ticks per increment, sample-major (sample 0 CPU 0,
 * sample 0 CPU 1, ...), @overhead_ticks subtracted from each value first;
 * malloc'ed, samples x series of them (*@n), or NULL without memory or
 * values.
 */
double *cp_bounce_kernel_samples(const struct cp_run_result *result,
				 double overhead_ticks, size_t *n);

#endif
