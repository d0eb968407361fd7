// SPDX-License-Identifier: GPL-2.0
#include "stats/welch.h"

#include <errno.h>
#include <math.h>

#define BETA_ITERATIONS 300
#define BETA_EPSILON 1e-15
#define BETA_TINY 1e-300
#define QUANTILE_STEPS 200

/* The continued fraction of the incomplete beta function (modified
 * Lentz), converging for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double x, double a, double b)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < BETA_TINY ? BETA_TINY : d);
	h = d;
	for (int k = 1; k <= BETA_ITERATIONS; k++) {
		double step[2] = {
			k * (b - k) * x / ((a + 2 * k - 1) * (a + 2 * k)),
			-(a + k) * (a + b + k) * x /
				((a + 2 * k) * (a + 2 * k + 1)),
		};

		for (int half = 0; half < 2; half++) {
			d = 1 + step[half] * d;
			d = 1 / (fabs(d) < BETA_TINY ? BETA_TINY : d);
			c = 1 + step[half] / c;
			c = fabs(c) < BETA_TINY ? BETA_TINY : c;
			h *= d * c;
		}
		if (fabs(d * c - 1) < BETA_EPSILON)
			break;
	}
	return h;
}

/* The regularised incomplete beta function I_x(a, b). */
static double incomplete_beta(double x, double a, double b)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(x, a, b) / a;
	return 1 - front * beta_fraction(1 - x, b, a) / b;
}

double cp_student_t_two_sided(double t, double df)
{
	if (isinf(df))
		return erfc(fabs(t) / sqrt(2));
	return incomplete_beta(df / (df + t * t), df / 2, 0.5);
}

double cp_student_t_quantile_two_sided(double alpha, double df)
{
	double low = 0, high = 1;

	while (cp_student_t_two_sided(high, df) > alpha && high < 1e12)
		high *= 2;
	for (int i = 0; i < QUANTILE_STEPS && high - low > 1e-12 * high; i++) {
		double middle = (low + high) / 2;

		if (cp_student_t_two_sided(middle, df) > alpha)
			low = middle;
		else
			high = middle;
	}
	return (low + high) / 2;
}

/* Mean and sample variance of the logs of @values; -EDOM for a value
 * not above zero. */
static int log_moments(const double *values, size_t n, double *mean,
		       double *variance)
{
	double sum = 0, squares = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(values[i] > 0))
			return -EDOM;
		sum += log(values[i]);
	}
	*mean = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = log(values[i]) - *mean;

		squares += d * d;
	}
	*variance = squares / (double)(n - 1);
	return 0;
}

int cp_welch_log_ratio(const double *base, size_t n, const double *next,
		       size_t m, double confidence, struct cp_welch *out)
{
	double mean_base, var_base, mean_next, var_next, se_base, se_next;
	double difference, se, half;
	int ret;

	if (n < 2 || m < 2)
		return -EINVAL;
	ret = log_moments(base, n, &mean_base, &var_base);
	if (!ret)
		ret = log_moments(next, m, &mean_next, &var_next);
	if (ret)
		return ret;
	se_base = var_base / (double)n;
	se_next = var_next / (double)m;
	se = sqrt(se_base + se_next);
	difference = mean_next - mean_base;
	out->ratio = exp(difference);
	if (se == 0) {
		out->df = INFINITY;
		out->p_value = difference == 0 ? 1 : 0;
		out->low = out->high = out->ratio;
		return 0;
	}
	out->df = (se_base + se_next) * (se_base + se_next) /
		  (se_base * se_base / (double)(n - 1) +
		   se_next * se_next / (double)(m - 1));
	out->p_value = cp_student_t_two_sided(difference / se, out->df);
	half = cp_student_t_quantile_two_sided(1 - confidence, out->df) * se;
	out->low = exp(difference - half);
	out->high = exp(difference + half);
	return 0;
}
