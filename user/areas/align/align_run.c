// SPDX-License-Identifier: GPL-2.0
#include "areas/align/align_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "areas/align/align_layout.h"
#include "measure/access.h"
#include "measure/chase.h"
#include "areas/align/align_widths.h"
#include "harness/rng.h"

static const char *const kind_names[CP_ALIGN_NR_KINDS] = {
	[CP_ALIGN_LOAD_LATENCY] = "load-latency",
	[CP_ALIGN_LOAD_THROUGHPUT] = "load-throughput",
	[CP_ALIGN_STORE_THROUGHPUT] = "store-throughput",
};

const char *cp_align_kind_name(enum cp_align_kind kind)
{
	return kind >= 0 && kind < CP_ALIGN_NR_KINDS ? kind_names[kind]
						     : "invalid";
}

size_t cp_align_min_slots(enum cp_align_kind kind)
{
	return kind == CP_ALIGN_LOAD_LATENCY ? 2 : CP_ACCESS_UNROLL;
}

static unsigned char *slot(const struct cp_align_run *run, size_t k)
{
	return run->buffer + k * run->access.stride + run->access.offset;
}

/* Every byte different from its neighbours, so a load at the wrong place
 * or of the wrong width sums differently. */
static unsigned char fill_byte(size_t i)
{
	return (unsigned char)(i * 151 + 17 + (i >> 8));
}

/* What the load loop adds for one access at @p: the value zero-extended,
 * or the sum of its 64-bit lanes. */
static uint64_t loaded_value(const unsigned char *p, unsigned int width)
{
	uint64_t sum = 0, lane;

	if (width < 8) {
		lane = 0;
		memcpy(&lane, p, width);
		return lane;
	}
	for (unsigned int i = 0; i < width; i += 8) {
		memcpy(&lane, p + i, 8);
		sum += lane;
	}
	return sum;
}

static int map_buffer(struct cp_align_run *run)
{
	size_t bytes = (run->access.size + CP_ALIGN_PAGE - 1) &
		       ~(size_t)(CP_ALIGN_PAGE - 1);
	void *buffer = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buffer == MAP_FAILED)
		return -ENOMEM;
	/* Best effort: without THP support there are no huge pages anyway. */
	madvise(buffer, bytes, MADV_NOHUGEPAGE);
	run->buffer = buffer;
	run->mapped_bytes = bytes;
	for (size_t i = 0; i < bytes; i++)
		run->buffer[i] = fill_byte(i);
	return 0;
}

static int build_latency(struct cp_align_run *run)
{
	size_t n = run->nr_slots;

	run->order = malloc(n * sizeof(*run->order));
	if (!run->order)
		return -ENOMEM;
	cp_rng_cycle(run->order, n, run->access.seed);
	run->scale = CP_ACCESS_HOPS;
	/* The module links the same cycle with the same code (ACCESS). */
	if (run->access.width >= 8) {
		cp_chase_link(slot(run, 0), run->order, n, run->access.stride,
			      1, &run->position, 0, n);
		return 0;
	}
	run->table_len = (n + CP_ACCESS_HOPS - 1) /
			 CP_ACCESS_HOPS *
			 CP_ACCESS_HOPS;
	run->table = malloc(run->table_len * sizeof(*run->table));
	if (!run->table)
		return -ENOMEM;
	cp_access_chain_table(run->table, 0, run->table_len, run->order, n,
			      slot(run, 0), run->access.stride);
	for (size_t k = 0; k < n; k++)
		memset(slot(run, k), 0, run->access.width);
	run->table_next = run->table;
	run->chain_position = (uintptr_t)slot(run, run->order[0]);
	return 0;
}

static void build_slots(struct cp_align_run *run)
{
	run->nr_slots -= run->nr_slots % CP_ACCESS_UNROLL;
	run->scale = run->nr_slots;
	if (run->access.kind == CP_ALIGN_LOAD_THROUGHPUT) {
		for (size_t k = 0; k < run->nr_slots; k++)
			run->lap_sum += loaded_value(slot(run, k),
						     run->access.width);
		return;
	}
	for (size_t i = 0; i < sizeof(run->pattern); i++)
		run->pattern[i] = (unsigned char)(0xa5 ^ (i * 29));
	/* The slots hold anything but the pattern until the stores come. */
	for (size_t k = 0; k < run->nr_slots; k++)
		for (unsigned int i = 0; i < run->access.width; i++)
			slot(run, k)[i] = (unsigned char)~run->pattern[i];
}

int cp_align_run_build(struct cp_align_run *run,
		       const struct cp_align_access *access)
{
	int ret;

	memset(run, 0, sizeof(*run));
	run->access = *access;
	if (!cp_align_width_valid(access->width) ||
	    access->kind < 0 || access->kind >= CP_ALIGN_NR_KINDS ||
	    access->stride < access->width)
		return -EINVAL;
	run->nr_slots = cp_align_nr_slots(access->size, access->stride,
					  access->offset, access->width);
	if (run->nr_slots < cp_align_min_slots(access->kind) ||
	    run->nr_slots > UINT32_MAX)
		return -EINVAL;
	ret = map_buffer(run);
	if (!ret && access->kind == CP_ALIGN_LOAD_LATENCY)
		ret = build_latency(run);
	else if (!ret)
		build_slots(run);
	if (ret)
		cp_align_run_free(run);
	return ret;
}

void cp_align_run_free(struct cp_align_run *run)
{
	if (run->buffer)
		munmap(run->buffer, run->mapped_bytes);
	free(run->order);
	free(run->table);
	memset(run, 0, sizeof(*run));
}

static void chain_body(struct cp_align_run *run, uint64_t count)
{
	cp_access_chain_fn loop = cp_access_chain_of(run->access.width);
	__u64 sum = run->checksum;

	loop(&run->chain_position, &run->table_next, run->table,
	     run->table + run->table_len, count, &sum);
	run->checksum = sum;
}

uint64_t cp_align_run_body(void *context, uint64_t count)
{
	struct cp_align_run *run = context;
	const struct cp_align_access *a = &run->access;
	uint64_t groups = run->nr_slots / CP_ACCESS_UNROLL;

	if (!count)
		return 0;
	switch (a->kind) {
	case CP_ALIGN_LOAD_LATENCY:
		if (a->width >= 8)
			run->position = cp_access_chase_of(a->width)(
				run->position, count);
		else
			chain_body(run, count);
		run->hops += count * CP_ACCESS_HOPS;
		return (uint64_t)(uintptr_t)run->position ^ run->chain_position;
	case CP_ALIGN_LOAD_THROUGHPUT:
		run->checksum += cp_access_load_of(a->width)(
			slot(run, 0), a->stride, groups, count);
		break;
	default:
		cp_access_store_of(a->width)(slot(run, 0), a->stride, groups,
					      count, run->pattern);
		break;
	}
	run->laps += count;
	return run->checksum;
}

static bool verify_latency(const struct cp_align_run *run)
{
	size_t at;

	if (run->access.width >= 8)
		return run->position ==
		       slot(run, run->order[run->hops % run->nr_slots]);
	if (!run->hops)
		return run->checksum == 0;
	/* The last hop took its address from the entry before table_next. */
	at = (size_t)(run->table_next - run->table);
	at = (at + run->table_len - 1) % run->table_len;
	return run->checksum == 0 && run->chain_position == run->table[at];
}

bool cp_align_run_verify(const struct cp_align_run *run)
{
	switch (run->access.kind) {
	case CP_ALIGN_LOAD_LATENCY:
		return verify_latency(run);
	case CP_ALIGN_LOAD_THROUGHPUT:
		return run->checksum == run->laps * run->lap_sum;
	default:
		for (size_t k = 0; run->laps && k < run->nr_slots; k++)
			if (memcmp(slot(run, k), run->pattern,
				   run->access.width) != 0)
				return false;
		return true;
	}
}
