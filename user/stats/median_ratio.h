/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How much larger one set of timings is than another, as the ratio of
 * their medians with a bootstrap interval: bounce's slowdowns, align's
 * penalties, the report's ratios.
 */
#ifndef CACHEPROBE_MEDIAN_RATIO_H
#define CACHEPROBE_MEDIAN_RATIO_H

#include <stddef.h>

struct cp_ratio {
	double value;		/* median(a) / median(b) */
	double low, high;	/* bootstrap 95 % interval */
};

/*
 * The ratio of the medians of @a (@na values) and @b (@nb), both > 0, with
 * a percentile-bootstrap interval: both sides resampled independently
 * (CP_BOOTSTRAP_RESAMPLES times, seeded with CP_BOOTSTRAP_SEED).
 * 0, -EINVAL (no values, a median not above 0) or -ENOMEM.
 */
int cp_ratio_of_medians(const double *a, size_t na, const double *b,
			size_t nb, struct cp_ratio *out);
/* The ratio alone, for callers that show no interval: the bootstrap is
 * nearly all of the cost.  0 or -EINVAL as above. */
int cp_ratio_of_medians_value(const double *a, size_t na, const double *b,
			      size_t nb, double *value);

#endif
