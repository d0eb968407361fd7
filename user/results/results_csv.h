/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results as CSV (RFC 4180): a header, then one row per measurement with
 * its statistics; the samples themselves are in the JSON.
 */
#ifndef CACHEPROBE_RESULTS_CSV_H
#define CACHEPROBE_RESULTS_CSV_H

#include <stdio.h>

#include "results/results.h"

/* 0, or -EIO. */
int cp_results_write_csv(const struct cp_results *results, FILE *out);

#endif
