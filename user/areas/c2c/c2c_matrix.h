/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The c2c latency matrices, drawn from a run's results: one per mode and
 * variant, the CPUs in ascending order, each measured pair's median,
 * 95 % interval and fastest sample in both cells (a round trip has no
 * direction), and the
 * formats they are shown in: an aligned table, the same as a heatmap
 * (ANSI 256-colour backgrounds from the fastest to the slowest pair), CSV
 * and JSON; and the summary per pair class (min/median/max of the pair
 * medians).
 */
#ifndef CACHEPROBE_C2C_MATRIX_H
#define CACHEPROBE_C2C_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "areas/c2c/c2c_line_report.h"
#include "results/results.h"

struct cp_c2c_matrix {
	char mode[16];			/* "user", "kernel" */
	char variant[8];		/* "cas", "flag" */
	size_t n;
	unsigned int *cpus;		/* n, ascending */
	/* n x n, row-major, ns per round trip; NAN where not measured (the
	 * diagonal).  One-way latency, what c2clat and multichase's pingpong
	 * print, is half of a round trip. */
	double *median_ns, *low_ns, *high_ns, *min_ns;
	int *pair_class;		/* n x n; -1 where not measured */
	/* How the lines of its pairs differ (user mode; pairs 0 in kernel
	 * mode and in files from before it was kept). */
	struct cp_c2c_spread_summary spread;
};

/* The matrices of @results' c2c measurements into *@out (*@nr of them;
 * none: NULL, 0).  0 or -ENOMEM.  Free with cp_c2c_matrices_free. */
int cp_c2c_matrices(const struct cp_results *results,
		    struct cp_c2c_matrix **out, size_t *nr);
void cp_c2c_matrices_free(struct cp_c2c_matrix *matrices, size_t nr);

/* The medians of the pairs of class @cls (enum cp_pair_class), each pair
 * once, ascending, in @medians (room for n * n); the fastest sample of
 * any of them in *@fastest (+inf for none).  How many. */
size_t cp_c2c_class_values(const struct cp_c2c_matrix *matrix, int cls,
			   double *medians, double *fastest);

/* The matrix as a table of medians in ns; @heatmap colours the cells. */
void cp_c2c_matrix_print(FILE *out, const struct cp_c2c_matrix *matrix,
			 bool heatmap);
/* Per pair class present: pairs, min, median, max of the medians; the
 * one-way median and the fastest sample, round trip and one-way; then
 * how the lines of the pairs differ (areas/c2c/c2c_line_report.h). */
void cp_c2c_summary_print(FILE *out, const struct cp_c2c_matrix *matrix);

/* CSV: a header, then one row per measured pair of every matrix:
 * mode,variant,first,second,pair_class,median_ns,ci95_low_ns,ci95_high_ns,
 * min_ns,one_way_median_ns,one_way_min_ns */
void cp_c2c_matrices_csv(FILE *out, const struct cp_c2c_matrix *matrices,
			 size_t nr);
/* JSON: {"schema":"cacheprobe-c2c-matrix/1","matrices":[{"mode",
 * "variant","cpus":[...],"median_ns":[[...]...],"ci95_low_ns",
 * "ci95_high_ns","min_ns","one_way_median_ns","one_way_min_ns"}]} with
 * null on the diagonal.  0 or -ENOMEM/-EIO. */
int cp_c2c_matrices_json(FILE *out, const struct cp_c2c_matrix *matrices,
			 size_t nr);

struct json_object;

/* The pairs of @results' c2c measurements for the results file: each
 * pair once, round trip and one-way, median and fastest sample, and in
 * user mode the per-line spread ("line_spread"); NULL when there is
 * none. */
struct json_object *cp_c2c_pairs_json(const struct cp_results *results);

#endif
