/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the lines of one c2c pair differ.  A user-mode sample plays on
 * CP_C2C_LINES_PER_SAMPLE lines, a page each (areas/c2c/c2c_pingpong.c), so its
 * round trip is a mean over the last-level-cache slices that track them;
 * a tool that passes one line sees one slice.  Each line's segments are
 * timed, and here each line gets the median of its visits with the noise
 * of that median, and the lines are split into groups where their sorted
 * medians jump by clearly more than that noise:
 *
 *  - a line's noise is half the width of the distribution-free 95 %
 *    interval of its median (order statistics n/2 -+ 0.98 sqrt(n)), at
 *    least the typical line's (the median of the lines' noise), so a line
 *    that happened to vary little cannot make a gap by itself;
 *  - a gap between neighbours in the sorted medians separates groups when
 *    it is more than CP_C2C_SPREAD_CLEAR times the sum of their noise:
 *    their intervals do not meet, and are apart by their width again.  No
 *    fixed ratio decides: 2 % is a group boundary when the lines are that
 *    precise, and 20 % is none when they are not;
 *  - a line whose noise is more than CP_C2C_SPREAD_NOISY times the
 *    typical cannot bridge a gap: the precise lines are also compared
 *    each with the next precise one, past the noisy lines between them.
 *    A noisy line far out still stands alone when it clears even its
 *    own noise;
 *  - fewer than CP_C2C_SPREAD_MIN_VISITS timings of each line: the noise
 *    is unknown and the spread undetermined (groups 0).
 *
 * Every gap that clears the noise is a boundary, not only the largest:
 * slices at three distances are three groups (a mesh of slices often
 * gives a staircase of four to six here).  Reported: how many groups,
 * the fastest and the slowest, and how widely the central 90 % of the
 * lines spread.
 */
#ifndef CACHEPROBE_C2C_LINE_SPREAD_H
#define CACHEPROBE_C2C_LINE_SPREAD_H

#include <stddef.h>
#include <stdint.h>

#define CP_C2C_SPREAD_MIN_VISITS 5
#define CP_C2C_SPREAD_CLEAR 2.0
#define CP_C2C_SPREAD_NOISY 3.0

struct cp_c2c_line_spread {
	unsigned int groups;		/* 0: undetermined */
	size_t lines;			/* lines of the pair */
	unsigned int visits;		/* the least timed line's timings */
	unsigned int rounds;		/* jobs the lines came from */
	/* The fastest and the slowest group (none, NaN, for one group):
	 * lines, and the median of their medians, ns per round trip. */
	size_t fast_lines, slow_lines;
	double fast_ns, slow_ns;
	/* The 95th percentile of the line medians over the 5th, less 1. */
	double range;
	double noise_ns;		/* the typical line's noise */
};

/* The median of @n > 0 timings of one line, and its noise (above);
 * @values is sorted in place. */
void cp_c2c_line_value(double *values, size_t n, double *median,
		       double *noise);

/* Judge @n lines, their medians and noise in ns, each timed at least
 * @visits times.  0 or -ENOMEM. */
int cp_c2c_line_spread_judge(const double *medians, const double *noise,
			     size_t n, unsigned int visits,
			     struct cp_c2c_line_spread *out);

/*
 * The lines of one or more user-mode jobs (a measurement's rounds, each
 * on lines placed anew): each line's median and noise, and the fewest
 * timings any line of any job had.  Zero-initialise; release with
 * cp_c2c_line_values_free().
 */
struct cp_c2c_line_values {
	double *medians, *noise;	/* nr_lines, when visits allow */
	size_t nr_lines, capacity;
	unsigned int visits;
	unsigned int jobs;
};

/*
 * Add a job's lines from its segments: @segment_ticks as
 * cp_c2c_pinger_run fills it for @samples samples of @round_trips, at
 * @tsc_hz; a line's noise is at least @resolution_ticks (the timer's
 * step) spread over its segment's round trips.  0 or -ENOMEM.
 */
int cp_c2c_line_values_add(struct cp_c2c_line_values *lines,
			   const uint64_t *segment_ticks, unsigned int samples,
			   uint32_t round_trips, double tsc_hz,
			   double resolution_ticks);
/* Judge every line added.  0 or -ENOMEM. */
int cp_c2c_line_values_judge(const struct cp_c2c_line_values *lines,
			     struct cp_c2c_line_spread *out);
void cp_c2c_line_values_free(struct cp_c2c_line_values *lines);

#endif
