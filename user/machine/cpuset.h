/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A set of CPU ids with a fixed bit capacity (at most CACHEPROBE_MAX_CPUS),
 * its text form ("0,2-5") and its ABI form (u64 words, CPU n being bit n%64
 * of word n/64).
 */
#ifndef CACHEPROBE_CPUSET_H
#define CACHEPROBE_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cp_cpuset;

/* An empty set able to hold ids 0..@capacity-1; NULL when @capacity is 0 or
 * above CACHEPROBE_MAX_CPUS, or without memory. */
struct cp_cpuset *cp_cpuset_new(unsigned int capacity);
struct cp_cpuset *cp_cpuset_clone(const struct cp_cpuset *set);
void cp_cpuset_free(struct cp_cpuset *set);

unsigned int cp_cpuset_capacity(const struct cp_cpuset *set);

/* 0, or -ERANGE when @cpu is not below the capacity. */
int cp_cpuset_set(struct cp_cpuset *set, unsigned int cpu);
/* False for any id at or above the capacity. */
bool cp_cpuset_test(const struct cp_cpuset *set, unsigned int cpu);
unsigned int cp_cpuset_count(const struct cp_cpuset *set);
/* The lowest member, or -1 for an empty set. */
int cp_cpuset_first(const struct cp_cpuset *set);
/* The lowest member above @cpu, or -1 when there is none. */
int cp_cpuset_next(const struct cp_cpuset *set, unsigned int cpu);
/* Same members; the capacities may differ. */
bool cp_cpuset_equal(const struct cp_cpuset *a, const struct cp_cpuset *b);

/*
 * Parse a CPU list such as "0,2-5": ids and ranges separated by commas,
 * nothing else (no spaces).  On error returns -EINVAL (-ENOMEM without
 * memory) and writes why into @why.  The set has capacity
 * CACHEPROBE_MAX_CPUS.
 */
int cp_cpuset_parse(const char *text, struct cp_cpuset **out, char *why,
		    size_t why_len);

/*
 * Write the compact list form ("0-3,6"; "" for an empty set) like snprintf:
 * returns the length of the whole text, however much of it fitted.
 */
size_t cp_cpuset_format(const struct cp_cpuset *set, char *buf, size_t len);
/* The same in a malloc'ed string; NULL without memory. */
char *cp_cpuset_format_alloc(const struct cp_cpuset *set);

/* u64 words needed to cover the highest member; 0 for an empty set. */
size_t cp_cpuset_abi_words(const struct cp_cpuset *set);
/* Fill @words (all of them); -ENOSPC if a member lies beyond them. */
int cp_cpuset_to_abi(const struct cp_cpuset *set, uint64_t *words,
		     size_t nr_words);
/*
 * Read an ABI bitmap of @bytes bytes (any alignment).  -EINVAL when @bytes
 * is 0, not a multiple of 8 or above CACHEPROBE_CPUMASK_MAX_BYTES.
 */
int cp_cpuset_from_abi(const void *bitmap, size_t bytes,
		       struct cp_cpuset **out);

#endif
