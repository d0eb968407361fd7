/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ping-pong of cache lines between two CPUs in user mode, on two
 * threads that live through a whole c2c run and move only when their CPU
 * leaves the pair (areas/c2c/c2c_schedule.h orders pairs so one moves per step).
 *
 * Per pair fresh lines, CP_C2C_LINES_PER_SAMPLE for every sample (its
 * round trips shared among them in turn; at most CP_C2C_LINE_POOL lines,
 * reused in turn by later samples), each a page of its own, placed
 * on the memory node of the home CPU -- bound there with hwloc
 * (hwloc_alloc_membind) when the machine has more than one NUMA node,
 * else by first touch from the thread on the home CPU (the kernel's
 * default local allocation).
 *
 * The initiator's turns are the even values of the line, the responder's
 * the odd ones: a side waits for its value and makes it the next one,
 * with LOCK CMPXCHG (CAS) or with a plain load and store (FLAG).  The
 * initiator times @round_trips round trips per sample, from its first
 * turn to the answer to its last, and on request each line's segment of
 * them (areas/c2c/c2c_line_spread.h judges how the lines differ).
 */
#ifndef CACHEPROBE_C2C_PINGPONG_H
#define CACHEPROBE_C2C_PINGPONG_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/topology.h"

/* Lines a sample plays on in turn (c2c_pingpong.c says why), and the
 * most lines (pages) a job places: samples beyond the pool reuse its
 * lines in turn. */
#define CP_C2C_LINES_PER_SAMPLE 16
#define CP_C2C_LINE_POOL 1024

enum cp_c2c_variant {
	CP_C2C_CAS,
	CP_C2C_FLAG,
	CP_C2C_NR_VARIANTS,
};

/* "cas" or "flag". */
const char *cp_c2c_variant_name(enum cp_c2c_variant variant);

/* Lines (pages) a job of @samples samples places: one per segment, at
 * most CP_C2C_LINE_POOL. */
unsigned int cp_c2c_pool_lines(unsigned int samples);
/* The pool line that segment @segment of a job plays on, segments
 * numbered sample by sample (sample * CP_C2C_LINES_PER_SAMPLE + its
 * place in the sample): the pool in turn, so a line's visits are spread
 * evenly over the job. */
static inline unsigned int cp_c2c_line_of_segment(size_t segment,
						  unsigned int pool_lines)
{
	return (unsigned int)(segment % pool_lines);
}
/* Round trips of place @place (0 .. CP_C2C_LINES_PER_SAMPLE - 1) in a
 * sample of @round_trips. */
uint32_t cp_c2c_segment_trips(uint32_t round_trips, unsigned int place);

/* One round trip's ticks in a sample that took @ticks for @round_trips,
 * the timer's own @overhead_ticks taken off. */
static inline double cp_c2c_trip_ticks(uint64_t ticks, double overhead_ticks,
				       uint32_t round_trips)
{
	return ((double)ticks - overhead_ticks) / round_trips;
}

struct cp_c2c_job {
	unsigned int initiator, responder;
	bool home_is_responder;		/* whose node holds the line */
	enum cp_c2c_variant variant;
	uint32_t round_trips;		/* per sample */
	unsigned int samples;
	/* TSC past which the job ends after the sample under way (its
	 * share of a budget spent), once it has @least samples; 0: none. */
	uint64_t deadline_tsc;
	unsigned int least;
};

struct cp_c2c_placement {
	int node;			/* the line's node; -1 unknown */
	bool membind;			/* bound by hwloc, not first touch */
};

struct cp_c2c_pinger;

/* Two idle threads; @topology (this machine's) places the lines.
 * 0 or -errno. */
int cp_c2c_pinger_start(const struct cp_topology *topology,
			struct cp_c2c_pinger **out);
/* Stop and join the threads. */
void cp_c2c_pinger_stop(struct cp_c2c_pinger *pinger);

/*
 * Run @job: @ticks receives the initiator's raw ticks of each sample
 * (@job->samples entries); @segment_ticks (NULL: not wanted) the ticks of
 * each segment, @job->samples * CP_C2C_LINES_PER_SAMPLE entries numbered
 * as for cp_c2c_line_of_segment; *@taken the samples taken, fewer than
 * @job->samples when its deadline passed (the first ones are valid).  0;
 * -EINVAL with *@failed_cpu when a thread cannot move to its CPU;
 * -ENOMEM; -EINTR when @stop (NULL: never), asked every 2 ms, said to
 * stop: the job ends within microseconds and its ticks are not valid.
 * @placement says where the line was.
 */
int cp_c2c_pinger_run(struct cp_c2c_pinger *pinger,
		      const struct cp_c2c_job *job, uint64_t *ticks,
		      uint64_t *segment_ticks,
		      struct cp_c2c_placement *placement, unsigned int *taken,
		      unsigned int *failed_cpu, bool (*stop)(void));

/* Threads moved to another CPU since the start. */
unsigned int cp_c2c_pinger_moves(const struct cp_c2c_pinger *pinger);

#endif
