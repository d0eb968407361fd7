/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two runs judged measurement by measurement, the table from which every
 * output of `compare` is written.
 *
 * Each measurement in both runs gets the ratio new / base (the median of
 * the pairwise ratios of samples; the ratio of medians is kept beside it),
 * the two-sided Mann-Whitney p-value of its samples and that p-value
 * adjusted across the whole table (Benjamini-Hochberg), and an interval
 * of the ratio at 1 - alpha (cp_ratio_interval).  The verdict needs both:
 * a REGRESSION (IMPROVEMENT) is a change found significant after the
 * adjustment, so that among hundreds of measurements the share of false
 * findings stays near alpha, whose interval lies wholly above
 * 1 + threshold (below 1 - threshold), so that it is also large enough to
 * count; "same" is an interval wholly within 1 +- threshold; anything
 * else is "unclear": the samples cannot tell.
 */
#ifndef CACHEPROBE_COMPARISON_H
#define CACHEPROBE_COMPARISON_H

#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"
#include "results/results_index.h"

enum cp_verdict {
	CP_VERDICT_REGRESSION,
	CP_VERDICT_IMPROVEMENT,
	CP_VERDICT_SAME,
	CP_VERDICT_UNCLEAR,
	/* A sample at or below zero (the harness's residue): no ratio. */
	CP_VERDICT_NO_RATIO,
	CP_NR_VERDICTS,
};

/* "REGRESSION", "improvement", "same", "unclear", "no ratio". */
const char *cp_verdict_name(enum cp_verdict verdict);
/* The same as a JSON value: "regression", ..., "no_ratio". */
const char *cp_verdict_key(enum cp_verdict verdict);

struct cp_comparison_row {
	const struct cp_measurement *base, *next;
	bool show_mode;		/* the name recurs in another mode */
	/* new / base: the median of the ratios of every new sample to every
	 * baseline sample (Hodges-Lehmann), which the interval surrounds;
	 * with CP_VERDICT_NO_RATIO, the ratio of medians.  When both sides
	 * took their samples in rounds (harness/rounds.h), @by_rounds: the
	 * ratio of the rounds' geometric means, its interval and p-value
	 * from Welch's test on the rounds' medians (stats/welch.h). */
	double ratio;
	bool by_rounds;
	size_t base_rounds, next_rounds;
	/* The values compared: the samples in ns, or with in_cycles in
	 * core cycles (ticks x each side's core_cycles_per_tick). */
	bool in_cycles;
	const double *base_values, *next_values;
	double *cycles[2];	/* with in_cycles, the values; malloc'ed */
	double ratio_of_medians;
	double low, high;	/* interval of the ratio; high may be +inf */
	double confidence;	/* of that interval: 1 - alpha */
	double p_value, p_adjusted;
	enum cp_verdict verdict;
};

struct cp_comparison {
	double threshold;	/* share: 0.05 for 5 % */
	double alpha;		/* false discovery rate */
	/* Judge in core cycles where both sides measured the core clock,
	 * so that the clock's own moves between runs stay out. */
	bool cycles;
	size_t in_cycles;	/* rows judged so */
	size_t nr_rows;
	struct cp_comparison_row *rows;	/* in the new run's order */
	size_t only_base, only_next;
	size_t totals[CP_NR_VERDICTS];
};

/*
 * Judge the measurements @base and @next (indexed) have in common, into
 * @out (free with cp_comparison_free), in core cycles where @cycles and
 * both sides measured the core clock, else in ns.  0 or -ENOMEM.
 */
int cp_comparison_build(const struct cp_results *base,
			const struct cp_results_index *base_index,
			const struct cp_results *next,
			const struct cp_results_index *next_index,
			double threshold, double alpha, bool cycles,
			struct cp_comparison *out);
void cp_comparison_free(struct cp_comparison *comparison);

/* One environment field that differs between the runs. */
struct cp_environment_difference {
	/* "CPU", "kernel", ..., "CPU placement (round trip)" */
	const char *what;
	char base[CP_ENV_TEXT * 4], next[CP_ENV_TEXT * 4];
};

#define CP_MAX_ENVIRONMENT_DIFFERENCES 13

/* The fields of the runs' environments that differ, in @out; how many. */
size_t cp_environment_differences(const struct cp_results *base,
				  const struct cp_results *next,
				  struct cp_environment_difference *out);

#endif
