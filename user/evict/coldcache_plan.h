/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How much garbage a topology-planned eviction reads, where and on which
 * CPUs (the coldcache area's "garbage-planned" method), and what the naive
 * method reads for comparison.
 *
 * For each last-level-cache instance (a domain), the readers are one CPU
 * per instance of the outermost private cache level (CPUs sharing all
 * their private caches, e.g. SMT siblings, need only one reader; with no
 * private level known, every CPU reads).  Together the readers of a
 * domain read @factor times its last-level cache, each at least twice its
 * private caches so they are displaced too; every reader has its own
 * slice (no two readers, and no two domains, touch the same byte), all
 * readers of all domains run at once.
 *
 * A reader reads its slice chunk by chunk, each chunk CP_PLAN_PASSES
 * times in a row: a chunk is twice the private caches (with none known, a
 * CP_PLAN_CHUNKS_PER_SHARE-th of the reader's share), so between the two
 * reads its lines leave L2 for the last level, and the second read hits
 * them there, as soon after the first as that allows (a shorter reuse
 * distance finds more of the chunk still there: measured, faster and no
 * warmer than chunks of an eighth of the reader's share of the last
 * level).  Lines streamed once look dead to a last level
 * that keeps only what was reused (non-inclusive, victim-filled, with
 * thrash-resistant insertion): they are dropped or inserted first in line
 * for eviction, and the lines the garbage should displace stay.  Lines
 * reused once compete as a working set does (user/doc/measuring.md has the
 * measurements).  So the slice is half the bytes a reader reads.
 *
 * The naive method reads a fixed 64 MiB on every online CPU in turn.
 */
#ifndef CACHEPROBE_COLDCACHE_PLAN_H
#define CACHEPROBE_COLDCACHE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "machine/topology.h"

#define CP_NAIVE_GARBAGE_BYTES (64ull << 20)
/* Slices are whole pages, so readers never share a page. */
#define CP_PLAN_GRANULE 4096ull

#define CP_PLAN_PASSES 2
/* With no private cache known, chunks are this share of a reader's part
 * of the last level. */
#define CP_PLAN_CHUNKS_PER_SHARE 8

struct cp_plan_reader {
	unsigned int cpu;
	uint64_t offset;		/* of its slice in the garbage window */
	uint64_t bytes;			/* the slice; read CP_PLAN_PASSES times */
	uint64_t chunk_bytes;		/* read twice in a row, one by one */
};

struct cp_plan_domain {
	uint64_t llc_bytes;		/* the cache the domain's readers fill */
	size_t first_reader;		/* index into the plan's readers */
	size_t nr_readers;
	uint64_t bytes;			/* read by the domain's readers */
};

struct cp_eviction_plan {
	double factor;
	uint64_t private_bytes;		/* largest private caches of a CPU */
	size_t nr_domains;
	struct cp_plan_domain *domains;
	size_t nr_readers;
	struct cp_plan_reader *readers;	/* domain by domain */
	uint64_t total_bytes;		/* the garbage window */
	uint64_t read_bytes;		/* read in all: CP_PLAN_PASSES x total */
	uint64_t naive_bytes;		/* what the naive method reads */
};

/*
 * Plan for @topology with @factor (> 0) times the last-level cache per
 * domain; @llc_bytes, when non-zero, replaces the topology's size of every
 * last-level instance (e.g. a measured effective capacity).  Only CPUs in
 * @cpus (NULL: every usable CPU, usable_cpus.h) read.  0, or -EINVAL (no
 * cache, no CPU, bad factor) or -ENOMEM with @error filled.
 */
int cp_plan_eviction(const struct cp_topology *topology,
		     const struct cp_cpuset *cpus, double factor,
		     uint64_t llc_bytes, struct cp_eviction_plan *out,
		     struct cp_error *error);
void cp_plan_free(struct cp_eviction_plan *plan);

/* The last-level data or unified cache of @topology, or NULL. */
const struct cp_cache_level *
cp_plan_last_level(const struct cp_topology *topology);

#endif
