/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Benjamini-Hochberg: many tests read at once (a comparison of hundreds
 * of measurements) find about alpha of them "significant" by chance; the
 * adjusted p-values keep the expected share of false discoveries among
 * those called significant at or below the level they are compared with.
 */
#ifndef CACHEPROBE_FDR_H
#define CACHEPROBE_FDR_H

#include <stddef.h>

/*
 * @adjusted[i] = min over the p-values p(j) >= @p[i] of p(j) * @n / rank(j),
 * at most 1 (@p and @adjusted may be one array).  0 or -ENOMEM.
 */
int cp_fdr_adjust(const double *p, size_t n, double *adjusted);

#endif
