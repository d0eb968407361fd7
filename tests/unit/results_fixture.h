/* SPDX-License-Identifier: GPL-2.0 */
/* Results built in tests, with samples chosen by the test. */
#ifndef CACHEPROBE_TEST_RESULTS_FIXTURE_H
#define CACHEPROBE_TEST_RESULTS_FIXTURE_H

#include <stddef.h>

#include "results/results.h"

#define FIXTURE_TSC_HZ 2e9	/* 2 ticks per ns: easy to check by hand */

/* Start @results with a recognisable environment. */
void fixture_results(struct cp_results *results);

/* Add a latency measurement @name with @n samples @ns[i] (in ns). */
void fixture_measurement(struct cp_results *results, const char *name,
			 const double *ns, size_t n);

/* Add a measurement of @area in @mode called @name, without params, with
 * @n samples @ns[i] (in ns); returns it. */
struct cp_measurement *fixture_area_measurement(struct cp_results *results,
						const char *area,
						const char *mode,
						const char *name,
						const double *ns, size_t n);

/* Measurements of the align area in @mode, as the area names them: an
 * 8-byte load-latency sweep of a 24 KiB buffer over offsets 0, 32, 60
 * (a line split, 2.5 times offset 0) and 64, its line size detected
 * (64 B); a 1-byte sweep (0, 63); the 8-byte page pair (0, 4092: a page
 * split, 4 times); in user mode the classic pattern (shifts 0, 31, 32). */
void fixture_align(struct cp_results *results, const char *mode);

/* One more load-latency sweep of the 24 KiB buffer in @mode: @width bytes
 * at offsets 0, 32 and the line split 64 - width/2 (2.5 times). */
void fixture_align_sweep(struct cp_results *results, const char *mode,
			 unsigned int width);

/* Measurements of the xcore area in @mode: blocks of 8 and 64 KiB read
 * and modified by CPU 0 for CPU 1 (shared-l3, about 60 ns per line), the
 * same-CPU baselines (2 ns) and the memory baseline on CPU 1 (100 ns);
 * notes naming the producer's L1d (48 KiB) and L2 (2 MiB). */
void fixture_xcore(struct cp_results *results, const char *mode);

/* Measurements of the c2c area in @mode: CAS and flag round trips of
 * CPUs 0, 1 (smt, 40 ns) and 0, 2 and 1, 2 (shared-l3, 100 and 120 ns). */
void fixture_c2c(struct cp_results *results, const char *mode);

/* Make a fresh temporary directory (under $TMPDIR), its path in @out. */
void fixture_temporary_directory(char *out, size_t len);

/* Write @results as JSON to a new file in a fresh temporary directory;
 * returns the malloc'ed path. */
char *fixture_write_json(const struct cp_results *results, const char *name);

/* Remove the file and its directory. */
void fixture_remove(char *path);

#endif
