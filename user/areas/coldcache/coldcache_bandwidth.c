// SPDX-License-Identifier: GPL-2.0
/*
 * Is the planned garbage read as fast as reading can be?  The planned
 * eviction and a plain single-thread sequential read of as many bytes
 * (a window of the pool as large as the plan's, read as many times as the
 * plan reads it, so both read from memory) alternate,
 * and both are recorded in TSC ticks per 64-byte line read: bandwidth is
 * 64 bytes over that.
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

int cold_measure_bandwidth(struct cold_run *run, struct cp_error *error)
{
	size_t wanted = repetitions_of(run);
	double *planned = calloc(wanted, sizeof(double));
	double *stream = calloc(wanted, sizeof(double));
	size_t n = 0;
	int ret = 0;

	if (!planned || !stream) {
		free(planned);
		free(stream);
		return cp_error_set(error, ENOMEM, "coldcache: no memory");
	}
	for (; n < wanted && !ret && !cp_interrupt_requested();
	     n++) {
		uint64_t start = cp_clock_start();
		const char *window;

		ret = cp_garbage_planned(&run->garbage, run->readers,
					 &run->plan);
		if (ret)
			break;
		planned[n] = ticks_per_line(run, start, cp_clock_stop());
		window = cp_garbage_next_window(&run->garbage,
						run->plan.total_bytes);
		start = cp_clock_start();
		for (int pass = 0; pass < CP_PLAN_PASSES; pass++)
			stream_sink += cp_garbage_read(window,
						       run->plan.total_bytes);
		stream[n] = ticks_per_line(run, start, cp_clock_stop());
	}
	if (ret || !n) {
		free(planned);
		free(stream);
		return ret ? cp_error_set(error, -ret,
					  "coldcache: planned garbage read failed")
			   : -EINTR;
	}
	ret = record(run, "bandwidth garbage-planned", planned, n);
	if (!ret)
		ret = record(run, "bandwidth stream (1 thread)", stream, n);
	else
		free(stream);
	return ret ? cp_error_set(error, -ret, "coldcache: no memory") : 0;
}
