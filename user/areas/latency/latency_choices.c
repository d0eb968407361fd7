// SPDX-License-Identifier: GPL-2.0
#include "areas/latency/latency_choices.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *const page_names[] = {
	[CP_PAGES_2M] = "2m", [CP_PAGES_4K] = "4k", [CP_PAGES_1G] = "1g",
};

static const uint64_t page_bytes[] = {
	[CP_PAGES_2M] = 2ull << 20, [CP_PAGES_4K] = 4096,
	[CP_PAGES_1G] = 1ull << 30,
};

const char *cp_page_size_name(enum cp_page_size pages)
{
	return page_names[pages];
}

uint64_t cp_page_size_bytes(enum cp_page_size pages)
{
	return page_bytes[pages];
}

static int page_of(const char *word, size_t len, enum cp_page_size *out)
{
	for (size_t i = 0; i < sizeof(page_names) / sizeof(page_names[0]); i++) {
		if (strlen(page_names[i]) == len &&
		    strncasecmp(page_names[i], word, len) == 0) {
			*out = (enum cp_page_size)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* 4 KiB pages alone have nothing to show the TLB's share against: the
 * huge-page curve is measured too (as one chase is with --chases), and
 * it goes first, since the cache levels come from it. */
static void add_reference_pages(struct cp_latency_choices *out)
{
	for (unsigned int i = 0; i < out->nr_pages; i++)
		if (out->pages[i] != CP_PAGES_4K)
			return;
	memmove(out->pages + 1, out->pages,
		out->nr_pages * sizeof(out->pages[0]));
	out->pages[0] = CP_PAGES_2M;
	out->nr_pages++;
	out->first_asked = 1;
}

int cp_latency_parse_pages(const char *text, struct cp_latency_choices *out,
			   char *why, size_t why_len)
{
	const char *at = text;

	out->nr_pages = 0;
	out->first_asked = 0;
	do {
		size_t len = strcspn(at, ",");
		enum cp_page_size pages;

		if (page_of(at, len, &pages)) {
			snprintf(why, why_len,
				 "'%.*s' is not a page size (4k, 2m or 1g)",
				 (int)len, at);
			return -EINVAL;
		}
		for (unsigned int i = 0; i < out->nr_pages; i++) {
			if (out->pages[i] == pages) {
				snprintf(why, why_len, "'%.*s' named twice",
					 (int)len, at);
				return -EINVAL;
			}
		}
		out->pages[out->nr_pages++] = pages;
		at += len;
	} while (*at++ == ',');
	add_reference_pages(out);
	return 0;
}

static int compare_counts(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

static int add_chases(struct cp_latency_choices *out, const char *word,
		      size_t len, char *why, size_t why_len)
{
	char *end;
	unsigned long n = 0;

	if (len && word[0] >= '0' && word[0] <= '9')
		n = strtoul(word, &end, 10);
	if (!len || word[0] < '0' || word[0] > '9' || end != word + len ||
	    n < 1 || n > CP_CHASE_MAX_CHASES) {
		snprintf(why, why_len,
			 "'%.*s' is not a number of chases from 1 to %d",
			 (int)len, word, CP_CHASE_MAX_CHASES);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < out->nr_chases; i++) {
		if (out->chases[i] == n) {
			snprintf(why, why_len, "%lu named twice", n);
			return -EINVAL;
		}
	}
	out->chases[out->nr_chases++] = (unsigned int)n;
	return 0;
}

int cp_latency_parse_chases(const char *text, struct cp_latency_choices *out,
			    char *why, size_t why_len)
{
	const char *at = text;
	bool one = false;

	out->nr_chases = 0;
	do {
		size_t len = strcspn(at, ",");

		if (out->nr_chases == CP_CHASE_MAX_CHASES ||
		    add_chases(out, at, len, why, why_len)) {
			if (out->nr_chases == CP_CHASE_MAX_CHASES)
				snprintf(why, why_len, "more than %d counts",
					 CP_CHASE_MAX_CHASES);
			return -EINVAL;
		}
		one |= out->chases[out->nr_chases - 1] == 1;
		at += len;
	} while (*at++ == ',');
	if (!one)
		out->chases[out->nr_chases++] = 1;
	qsort(out->chases, out->nr_chases, sizeof(out->chases[0]),
	      compare_counts);
	return 0;
}

enum cp_page_size cp_latency_choices_first_pages(
	const struct cp_latency_choices *in)
{
	if (!in || !in->nr_pages)
		return CP_PAGES_2M;
	return in->pages[in->first_asked];
}

struct cp_latency_choices cp_latency_choices_resolve(
	const struct cp_latency_choices *in)
{
	struct cp_latency_choices out = { 0 };

	if (in)
		out = *in;
	if (!out.nr_pages)
		out.pages[out.nr_pages++] = CP_PAGES_2M;
	if (!out.nr_chases)
		out.chases[out.nr_chases++] = 1;
	return out;
}
