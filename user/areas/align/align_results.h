/* SPDX-License-Identifier: GPL-2.0 */
/* Finding align measurements in a run's results by what they measured:
 * mode, kind, width, stride, buffer and offset (their parameters). */
#ifndef CACHEPROBE_ALIGN_RESULTS_H
#define CACHEPROBE_ALIGN_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"

/* Whether @a and @b are one access kind, width, stride and buffer (an
 * offset sweep), in one mode. */
bool cp_align_same_group(const struct cp_measurement *a,
			 const struct cp_measurement *b);

/* The measurement of @group's sweep at @offset, or NULL. */
struct cp_measurement *cp_align_find_offset(const struct cp_results *results,
					    const struct cp_measurement *group,
					    int64_t offset);

/* The same access at @offset with @stride instead of @group's stride. */
struct cp_measurement *cp_align_find_stride(const struct cp_results *results,
					    const struct cp_measurement *group,
					    int64_t stride, int64_t offset);

#endif
