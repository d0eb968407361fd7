// SPDX-License-Identifier: GPL-2.0
#include "machine/cpuset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/cacheprobe.h>

#define BITS_PER_WORD 64u

struct cp_cpuset {
	unsigned int capacity;
	size_t nr_words;
	uint64_t words[];	/* the ABI layout, so conversions are copies */
};

static size_t words_for_bits(unsigned int bits)
{
	return (bits + BITS_PER_WORD - 1) / BITS_PER_WORD;
}

struct cp_cpuset *cp_cpuset_new(unsigned int capacity)
{
	struct cp_cpuset *set;
	size_t nr_words;

	if (capacity == 0 || capacity > CACHEPROBE_MAX_CPUS)
		return NULL;
	nr_words = words_for_bits(capacity);
	set = calloc(1, sizeof(*set) + nr_words * sizeof(set->words[0]));
	if (!set)
		return NULL;
	set->capacity = capacity;
	set->nr_words = nr_words;
	return set;
}

struct cp_cpuset *cp_cpuset_clone(const struct cp_cpuset *set)
{
	struct cp_cpuset *copy = cp_cpuset_new(set->capacity);

	if (copy)
		memcpy(copy->words, set->words,
		       set->nr_words * sizeof(set->words[0]));
	return copy;
}

void cp_cpuset_free(struct cp_cpuset *set)
{
	free(set);
}

unsigned int cp_cpuset_capacity(const struct cp_cpuset *set)
{
	return set->capacity;
}

int cp_cpuset_set(struct cp_cpuset *set, unsigned int cpu)
{
	if (cpu >= set->capacity)
		return -ERANGE;
	set->words[cpu / BITS_PER_WORD] |= 1ull << (cpu % BITS_PER_WORD);
	return 0;
}

bool cp_cpuset_test(const struct cp_cpuset *set, unsigned int cpu)
{
	if (cpu >= set->capacity)
		return false;
	return (set->words[cpu / BITS_PER_WORD] >> (cpu % BITS_PER_WORD)) & 1;
}

unsigned int cp_cpuset_count(const struct cp_cpuset *set)
{
	unsigned int count = 0;

	for (size_t i = 0; i < set->nr_words; i++)
		count += (unsigned int)__builtin_popcountll(set->words[i]);
	return count;
}

/* The lowest member at or above @from, or -1. */
static int find_from(const struct cp_cpuset *set, unsigned int from)
{
	size_t word_index = from / BITS_PER_WORD;
	uint64_t word;

	if (from >= set->capacity)
		return -1;
	word = set->words[word_index] & (~0ull << (from % BITS_PER_WORD));
	for (;;) {
		if (word)
			return (int)(word_index * BITS_PER_WORD +
				     (size_t)__builtin_ctzll(word));
		if (++word_index == set->nr_words)
			return -1;
		word = set->words[word_index];
	}
}

int cp_cpuset_first(const struct cp_cpuset *set)
{
	return find_from(set, 0);
}

int cp_cpuset_next(const struct cp_cpuset *set, unsigned int cpu)
{
	return find_from(set, cpu + 1);
}

bool cp_cpuset_equal(const struct cp_cpuset *a, const struct cp_cpuset *b)
{
	size_t longest = a->nr_words > b->nr_words ? a->nr_words : b->nr_words;

	for (size_t i = 0; i < longest; i++) {
		uint64_t word_a = i < a->nr_words ? a->words[i] : 0;
		uint64_t word_b = i < b->nr_words ? b->words[i] : 0;

		if (word_a != word_b)
			return false;
	}
	return true;
}

size_t cp_cpuset_abi_words(const struct cp_cpuset *set)
{
	for (size_t i = set->nr_words; i > 0; i--)
		if (set->words[i - 1])
			return i;
	return 0;
}

int cp_cpuset_to_abi(const struct cp_cpuset *set, uint64_t *words,
		     size_t nr_words)
{
	size_t needed = cp_cpuset_abi_words(set);

	if (needed > nr_words)
		return -ENOSPC;
	memset(words, 0, nr_words * sizeof(words[0]));
	memcpy(words, set->words, needed * sizeof(words[0]));
	return 0;
}

int cp_cpuset_from_abi(const void *bitmap, size_t bytes,
		       struct cp_cpuset **out)
{
	struct cp_cpuset *set;

	if (bytes == 0 || bytes % sizeof(uint64_t) ||
	    bytes > CACHEPROBE_CPUMASK_MAX_BYTES)
		return -EINVAL;
	set = cp_cpuset_new((unsigned int)(bytes * 8));
	if (!set)
		return -ENOMEM;
	memcpy(set->words, bitmap, bytes);
	*out = set;
	return 0;
}
