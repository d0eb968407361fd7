/* SPDX-License-Identifier: GPL-2.0 */
/* The c2c area's parts: the area (c2c.c) and one pair and variant
 * measured in user mode or by the module (c2c_measure.c). */
#ifndef CACHEPROBE_C2C_AREA_H
#define CACHEPROBE_C2C_AREA_H

#include "areas/area.h"
#include "areas/c2c/c2c_pingpong.h"
#include "areas/c2c/c2c_schedule.h"
#include "areas/c2c/c2c_choices.h"
#include "areas/c2c/c2c_line_spread.h"
#include "harness/rounds.h"

/* Round trips per sample: at least (the timer) and at most. */
#define C2C_MIN_ROUND_TRIPS 16
#define C2C_MAX_ROUND_TRIPS 1000000
#define C2C_FIRST_ROUND_TRIPS 256
/* User mode: samples of the run's first job, which also measures what a
 * sample costs besides its round trips. */
#define C2C_PROBE_SAMPLES 8
/* The longest sample, in ns: thousands of round trips. */
#define C2C_MAX_SAMPLE_NS 200e3
/*
 * User mode without --samples: the pair's share of the budget is spent on
 * as many samples of the longest length as fit in 80 % of it, at least
 * the harness's samples and at most this many.  The host of the
 * development guest changes the round trip of its two vCPUs for tens of
 * milliseconds to seconds at a time (flag round trips of 120 ns for a
 * while, then 150 ns): fifteen samples (3 ms) of one run saw one state,
 * and five runs' medians spread with a CV of 5-12 %; spread over the
 * default budget (1.2 s per variant here) CAS stays within 1.3-2.5 % and
 * flag mostly within 5 % (user/doc/measuring.md has the series).
 */
#define C2C_MAX_SPREAD_SAMPLES 10000

struct c2c_pair_config {
	const struct cp_cpu_pair *pair;
	enum cp_c2c_variant variant;
	enum cp_c2c_home home;
	double share_ns;		/* this pair and variant's time */
	/* User mode: what a sample costs besides its round trips, ns, as
	 * the run's first pair measured it; < 0 before. */
	double *sample_cost_ns;
	unsigned int samples_asked;	/* --samples; 0: from the share */
};

/* "cas 0:1". */
void c2c_config_name(const struct c2c_pair_config *config, char *out,
		     size_t len);

/*
 * A variant's user-mode samples, taken in rounds (--rounds; fewer when
 * its share gives a round less than C2C_MIN_ROUND_NS): each round a job
 * of its own on lines placed anew, and the rounds of a pair's variants
 * interleaved, so that the interval of a median covers the placement of
 * its lines and the moments of the share, not one stretch of one job.
 */
struct c2c_user_rounds {
	char name[64];
	struct cp_c2c_job job;		/* round trips fixed by the probe */
	struct cp_rounds plan;
	unsigned int done;		/* rounds taken */
	unsigned int taken[CP_ROUNDS_MAX];	/* samples of each */
	uint64_t *ticks, *segment_ticks;	/* one round's */
	double *values;			/* per_round apart, round order */
	struct cp_c2c_placement placement;	/* the first round's */
	struct cp_c2c_line_values lines;	/* every round's */
};

/* The shortest part of a variant's share a round takes. */
#define C2C_MIN_ROUND_NS 100e6

/*
 * User mode: start probes the round trip and plans the rounds; each
 * round then runs one job; finish records the measurement (nothing when
 * no round was taken).  Drop releases what is left, whatever happened.
 * 0, -EINTR, or -errno with @error.
 */
int c2c_user_start(struct cp_area_context *context,
		   struct cp_c2c_pinger *pinger,
		   const struct c2c_pair_config *config,
		   struct c2c_user_rounds *rounds, struct cp_error *error);
int c2c_user_round(struct cp_area_context *context,
		   struct cp_c2c_pinger *pinger,
		   const struct c2c_pair_config *config,
		   struct c2c_user_rounds *rounds, struct cp_error *error);
int c2c_user_finish(struct cp_area_context *context,
		    const struct c2c_pair_config *config,
		    struct c2c_user_rounds *rounds, struct cp_error *error);
void c2c_user_drop(struct c2c_user_rounds *rounds);
int c2c_measure_kernel(struct cp_area_context *context,
		       struct cp_client *client, uint64_t max_irqoff_ns,
		       const struct c2c_pair_config *config,
		       struct cp_error *error);

#endif
