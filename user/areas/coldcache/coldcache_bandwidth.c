// SPDX-License-Identifier: GPL-2.0
/*
 * Is the planned garbage read as fast as reading can be?  The planned
 * eviction and a plain single-thread sequential read of as many bytes
 * (a window of the pool as large as the plan's, read as many times as the
 * plan reads it, so both read from memory) alternate, one of each per
 * round of the area's methods, and both are recorded in TSC ticks per
 * 64-byte line read: bandwidth is 64 bytes over that.
 */
#include "areas/coldcache/coldcache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness/interrupt.h"

/* At most; fewer when the methods repeat fewer times (--repeats): one
 * repetition reads the planned garbage twice and streams it twice, 4 GiB
 * where a hypervisor reports a 260 MiB last-level cache, which under
 * other work's memory traffic took seconds and dominated the area. */
#define BANDWIDTH_REPETITIONS 7

static size_t repetitions_of(const struct cold_run *run)
{
	return run->repetitions < BANDWIDTH_REPETITIONS ? run->repetitions
							: BANDWIDTH_REPETITIONS;
}

static volatile uint64_t stream_sink;
/* A look at the stop flag every few milliseconds of streaming. */
#define STREAM_CHUNK (64u << 20)

static int record(struct cold_run *run, const char *name, double *per_line,
		  size_t n)
{
	struct cp_measurement *m = cp_results_add(run->context->results);

	if (!m) {
		free(per_line);
		return -ENOMEM;
	}
	snprintf(m->area, sizeof(m->area), "coldcache");
	snprintf(m->mode, sizeof(m->mode), "user");
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->note, sizeof(m->note), "per 64-byte line");
	cp_measurement_add_param(m, "bytes", (int64_t)run->plan.read_bytes);
	cp_measurement_add_param(m, "readers", (int64_t)run->plan.nr_readers);
	m->count = 1;
	m->scale = run->plan.read_bytes / COLD_LINE_SIZE;
	m->core_cycles_per_tick = cp_round_clock_mean(&run->clock);
	m->interrupted = n < repetitions_of(run);
	return cp_measurement_set_samples(m, per_line, n,
					  run->context->clock->tsc_hz);
}

static double ticks_per_line(const struct cold_run *run, uint64_t start,
			     uint64_t stop)
{
	return ((double)(stop - start) - run->context->clock->overhead_ticks) /
	       (double)(run->plan.read_bytes / COLD_LINE_SIZE);
}

/* Read @bytes from @window in chunks, looking at the stop flag between
 * them (a pass over gigabytes takes a quarter of a second and more): 0,
 * or -EINTR with the sample unfinished. */
static int stream(const char *window, size_t bytes)
{
	for (size_t done = 0; done < bytes; done += STREAM_CHUNK) {
		if (cp_interrupt_requested())
			return -EINTR;
		stream_sink += cp_garbage_read(window + done,
					       bytes - done < STREAM_CHUNK
						       ? bytes - done
						       : STREAM_CHUNK);
	}
	return 0;
}

int cold_bandwidth_start(struct cold_run *run, struct cold_bandwidth *bw,
			 struct cp_error *error)
{
	bw->wanted = repetitions_of(run);
	bw->n = 0;
	bw->planned = calloc(bw->wanted, sizeof(double));
	bw->stream = calloc(bw->wanted, sizeof(double));
	if (bw->planned && bw->stream)
		return 0;
	cold_bandwidth_free(bw);
	return cp_error_set(error, ENOMEM, "coldcache: no memory");
}

int cold_bandwidth_round(struct cold_run *run, struct cold_bandwidth *bw,
			 struct cp_error *error)
{
	const char *window;
	uint64_t start;
	int ret;

	if (bw->n >= bw->wanted)
		return 0;
	if (cp_interrupt_requested())
		return -EINTR;
	start = cp_clock_start();
	ret = cp_garbage_planned(&run->garbage, run->readers, &run->plan);
	if (ret)
		return cp_error_set(error, -ret,
				    "coldcache: planned garbage read failed");
	bw->planned[bw->n] = ticks_per_line(run, start, cp_clock_stop());
	if (cp_interrupt_requested())
		return -EINTR;
	window = cp_garbage_next_window(&run->garbage, run->plan.total_bytes);
	start = cp_clock_start();
	for (int pass = 0; pass < CP_PLAN_PASSES; pass++)
		if (stream(window, run->plan.total_bytes))
			return -EINTR;
	bw->stream[bw->n++] = ticks_per_line(run, start, cp_clock_stop());
	return 0;
}

int cold_bandwidth_record(struct cold_run *run, struct cold_bandwidth *bw,
			  struct cp_error *error)
{
	int ret = 0;

	if (bw->n) {
		ret = record(run, "bandwidth garbage-planned", bw->planned,
			     bw->n);
		bw->planned = NULL;
	}
	if (bw->n && !ret) {
		ret = record(run, "bandwidth stream (1 thread)", bw->stream,
			     bw->n);
		bw->stream = NULL;
	}
	cold_bandwidth_free(bw);
	return ret ? cp_error_set(error, -ret, "coldcache: no memory") : 0;
}

void cold_bandwidth_free(struct cold_bandwidth *bw)
{
	free(bw->planned);
	free(bw->stream);
	bw->planned = bw->stream = NULL;
}
