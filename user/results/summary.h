/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The answers first: what a run found, derived from its results (the
 * measurements, their params and the latency levels, never the tables'
 * text), so that the console, the report and the JSON say the same, on
 * any machine and for any subset of areas.  A finding that was not
 * measured says so instead of a figure.
 *
 * The findings, in this order:
 *  - each cache level: its latency and effective size, the figure and
 *    interval those of the chase nearest the level's plateau;
 *  - false sharing: the classic case (plain 4-byte counters 4 bytes
 *    apart against one line apart) as a factor, with its interval;
 *  - the coherence granularity, or that the run could not tell it;
 *  - the split load: an 8-byte load-latency access splitting a line
 *    against the aligned one (the smallest buffer), and the line size
 *    an offset sweep read off the penalties when there was one;
 *  - per cold-cache working set: the cheapest method (by its median
 *    eviction time) that left under 1 % of lines cached in every
 *    repetition, or that none did;
 *  - xcore, per pair class: a line another CPU wrote, read (the smallest
 *    block), beside the same block from the reader's own cache and from
 *    memory;
 *  - c2c: the fastest and the slowest pair class (median of the pairs'
 *    CAS round trips).
 * Each finding names the area it comes from.
 * User mode is preferred where both modes measured.  Doubts that hold
 * for the whole run (the environment's warnings: governor, boost, TSC,
 * hypervisor, load; an interrupted run) are listed apart.
 */
#ifndef CACHEPROBE_SUMMARY_H
#define CACHEPROBE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"

#define CP_SUMMARY_MAX_FINDINGS 24
#define CP_SUMMARY_MAX_DOUBTS 8

struct cp_finding {
	char area[16];		/* the area it comes from: "latency" */
	char topic[40];		/* "L1d", "false sharing", "c2c fastest" */
	char answer[200];	/* the finding in words, figures included */
	bool measured;		/* false: answer says why not */
	double value;		/* the headline figure; NaN without one */
	double low, high;	/* its 95 % interval; NaN without one */
	char unit[8];		/* "ns", "x", "B", "" */
};

struct cp_summary {
	size_t nr_findings;
	struct cp_finding findings[CP_SUMMARY_MAX_FINDINGS];
	size_t nr_doubts;
	char doubts[CP_SUMMARY_MAX_DOUBTS][256];
};

/* The findings of @results into @out. */
void cp_summary_build(const struct cp_results *results,
		      struct cp_summary *out);

struct json_object;

/* The results file's "summary": {"findings": [{"area", "topic", "answer",
 * "measured", "value", "low", "high", "unit"}], "doubts": [...]}, figures
 * null where there are none. */
struct json_object *cp_summary_json(const struct cp_results *results);

#endif
