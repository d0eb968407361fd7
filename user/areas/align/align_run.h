/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One align measurement's buffer and loop, ready for the harness: a
 * page-aligned buffer on 4 KiB pages (huge pages refused: a 4 KiB
 * boundary inside a huge page is no page boundary), its slots laid out as
 * areas/align/align_layout.h says, and the loop of include/measure/access.h
 * for the kind and width (the module's ACCESS runs the same loops).
 *
 * Load latency: the slots are visited in one random cycle (Sattolo), so
 * no prefetcher learns the order; 8 to 64 bytes chase pointers stored at
 * the offset, 1 to 4 bytes chain through the loaded zero (see
 * include/measure/access.h).  Load throughput and stores: the slots in address order
 * (a multiple of CP_ACCESS_UNROLL of them), one lap per iteration.
 *
 * Every run checks afterwards that the accesses did what they claim: the
 * chase ended on the slot the cycle predicts, the chain loaded zeros, the
 * loads' sum is laps times the sum of one lap, every slot holds the
 * stored pattern.
 */
#ifndef CACHEPROBE_ALIGN_RUN_H
#define CACHEPROBE_ALIGN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cp_align_kind {
	CP_ALIGN_LOAD_LATENCY,
	CP_ALIGN_LOAD_THROUGHPUT,
	CP_ALIGN_STORE_THROUGHPUT,
	CP_ALIGN_NR_KINDS,
};

/* "load-latency", "load-throughput", "store-throughput". */
const char *cp_align_kind_name(enum cp_align_kind kind);

struct cp_align_access {
	enum cp_align_kind kind;
	unsigned int width;		/* 1, 2, 4, 8, 16, 32, 64 */
	uint32_t offset;		/* into each slot */
	uint32_t stride;		/* between slots, >= width */
	uint64_t size;			/* buffer bytes */
	uint64_t seed;			/* of the latency cycle */
};

struct cp_align_run {
	struct cp_align_access access;
	unsigned char *buffer;
	size_t mapped_bytes;
	size_t nr_slots;		/* visited */
	uint64_t scale;			/* accesses per iteration */
	uint32_t *order;		/* latency: the cycle, nr_slots */
	void *position;			/* chase: where the next hop loads */
	uint64_t hops;			/* chase and chain: hops so far */
	uintptr_t *table;		/* chain: next addresses, table_len */
	size_t table_len;
	const uintptr_t *table_next;
	uintptr_t chain_position;
	uint64_t checksum;		/* loads: sum of what was loaded */
	uint64_t laps;			/* throughput and stores: laps so far */
	uint64_t lap_sum;		/* loads: the sum one lap loads */
	unsigned char pattern[64];	/* stores: what is stored */
};

/* Minimum slots: latency 2, the others CP_ACCESS_UNROLL. */
size_t cp_align_min_slots(enum cp_align_kind kind);

/* Build @run for @access.  0, -EINVAL (bad width or kind, stride below
 * the width, fewer slots than cp_align_min_slots) or -ENOMEM. */
int cp_align_run_build(struct cp_align_run *run,
		       const struct cp_align_access *access);
void cp_align_run_free(struct cp_align_run *run);

/* The harness body: @count iterations of run->scale accesses. */
uint64_t cp_align_run_body(void *run, uint64_t count);

/* Whether everything loaded or stored so far is what the layout says. */
bool cp_align_run_verify(const struct cp_align_run *run);

#endif
