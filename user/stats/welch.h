/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Welch's t test on the logarithms of two sets of values, for ratios of
 * timings that each come from a few independent units (the medians of a
 * measurement's rounds, harness/rounds.h): the mean log ratio, its interval
 * from the t distribution with the Welch-Satterthwaite degrees of
 * freedom, and the two-sided p-value.  Few units and a spread between
 * them make a wide interval, which is the point: the samples inside one
 * round cannot speak for the next run.
 */
#ifndef CACHEPROBE_WELCH_H
#define CACHEPROBE_WELCH_H

#include <stddef.h>

struct cp_welch {
	double ratio;		/* exp(mean log next - mean log base) */
	double low, high;	/* interval of the ratio at the confidence */
	double p_value;		/* two-sided; 1 when nothing differs */
	double df;		/* Welch-Satterthwaite; +inf with no spread */
};

/*
 * Compare @next (@m values) with @base (@n values), both at least two,
 * every value above zero, at @confidence (0.95).  0; -EINVAL for fewer
 * than two values on a side; -EDOM for a value not above zero.
 */
int cp_welch_log_ratio(const double *base, size_t n, const double *next,
		       size_t m, double confidence, struct cp_welch *out);

/* The two-sided p-value of @t with @df degrees of freedom (df > 0). */
double cp_student_t_two_sided(double t, double df);

/* The t above which the two-sided p-value is below @alpha (0 < alpha < 1)
 * with @df degrees of freedom. */
double cp_student_t_quantile_two_sided(double alpha, double df);

#endif
