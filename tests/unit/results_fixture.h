/* SPDX-License-Identifier: GPL-2.0 */
/* Results built in tests, with samples chosen by the test. */
#ifndef CACHEPROBE_TEST_RESULTS_FIXTURE_H
#define CACHEPROBE_TEST_RESULTS_FIXTURE_H

#include <stddef.h>

#include "lib/results.h"

#define FIXTURE_TSC_HZ 2e9	/* 2 ticks per ns: easy to check by hand */

/* Start @results with a recognisable environment. */
void fixture_results(struct cp_results *results);

/* Add a latency measurement @name with @n samples @ns[i] (in ns). */
void fixture_measurement(struct cp_results *results, const char *name,
			 const double *ns, size_t n);

/* Make a fresh temporary directory (under $TMPDIR), its path in @out. */
void fixture_temporary_directory(char *out, size_t len);

/* Write @results as JSON to a new file in a fresh temporary directory;
 * returns the malloc'ed path. */
char *fixture_write_json(const struct cp_results *results, const char *name);

/* Remove the file and its directory. */
void fixture_remove(char *path);

#endif
