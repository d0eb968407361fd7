// SPDX-License-Identifier: GPL-2.0
#include "areas/latency/latency_variants.h"

#include <stdbool.h>
#include <string.h>

/* Files from before the params: user mode asked for 2 MiB pages, the
 * module (before ABI 4) used 4 KiB ones. */
static int64_t old_page_bytes(const struct cp_measurement *measurement)
{
	return strcmp(measurement->mode, "kernel") == 0
		       ? CP_LATENCY_SMALL_PAGE_BYTES
		       : CP_LATENCY_CLASSIC_PAGE_BYTES;
}

struct cp_latency_variant
cp_latency_variant_of(const struct cp_measurement *measurement)
{
	return (struct cp_latency_variant){
		.page_bytes = cp_measurement_param(
			measurement, "page_bytes",
			old_page_bytes(measurement)),
		.page_bytes_backed = cp_measurement_param(
			measurement, "page_bytes_backed", 0),
		.chases = cp_measurement_param(measurement, "chases", 1),
	};
}

/* A point of some latency curve of @mode: a size and samples to read. */
static bool latency_point(const struct cp_measurement *m, const char *mode)
{
	return strcmp(m->area, "latency") == 0 && strcmp(m->mode, mode) == 0 &&
	       m->nr_samples && cp_measurement_param(m, "size_bytes", 0) > 0;
}

/* @value into the ascending @values (*@n of at most @max) unless there. */
static void insert_distinct(int64_t *values, size_t *n, size_t max,
			    int64_t value)
{
	size_t at = 0;

	while (at < *n && values[at] < value)
		at++;
	if ((at < *n && values[at] == value) || *n == max)
		return;
	memmove(&values[at + 1], &values[at], (*n - at) * sizeof(*values));
	values[at] = value;
	(*n)++;
}

/* @m at its size's place in @curve, unless the size is there already. */
static void insert_point(struct cp_latency_curve *curve,
			 const struct cp_measurement *m)
{
	uint64_t size = (uint64_t)cp_measurement_param(m, "size_bytes", 0);
	size_t at = 0;

	while (at < curve->n && curve->size_bytes[at] < size)
		at++;
	if ((at < curve->n && curve->size_bytes[at] == size) ||
	    curve->n == CP_LATENCY_MAX_POINTS)
		return;
	memmove(&curve->size_bytes[at + 1], &curve->size_bytes[at],
		(curve->n - at) * sizeof(curve->size_bytes[0]));
	memmove(&curve->points[at + 1], &curve->points[at],
		(curve->n - at) * sizeof(curve->points[0]));
	curve->size_bytes[at] = size;
	curve->points[at] = m;
	curve->n++;
}

size_t cp_latency_curve_collect(const struct cp_results *results,
				const char *mode, int64_t page_bytes,
				int64_t chases, struct cp_latency_curve *curve)
{
	curve->n = 0;
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		struct cp_latency_variant variant;

		if (!latency_point(m, mode))
			continue;
		variant = cp_latency_variant_of(m);
		if (variant.page_bytes == page_bytes &&
		    variant.chases == chases)
			insert_point(curve, m);
	}
	return curve->n;
}

size_t cp_latency_page_sizes(const struct cp_results *results,
			     const char *mode, int64_t *page_bytes,
			     size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (latency_point(m, mode))
			insert_distinct(page_bytes, &n, max,
					cp_latency_variant_of(m).page_bytes);
	}
	return n;
}

size_t cp_latency_chase_counts(const struct cp_results *results,
			       const char *mode, int64_t page_bytes,
			       int64_t *chases, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		struct cp_latency_variant variant;

		if (!latency_point(m, mode))
			continue;
		variant = cp_latency_variant_of(m);
		if (variant.page_bytes == page_bytes)
			insert_distinct(chases, &n, max, variant.chases);
	}
	return n;
}
