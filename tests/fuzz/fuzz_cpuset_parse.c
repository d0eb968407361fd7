// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: cp_cpuset_parse, the parser of CPU lists given on the
 * command line ("0,2-5").  Beyond not crashing or leaking: a list that
 * parses must survive format -> parse and ABI words -> set unchanged, and a
 * list that does not must come with -EINVAL and a terminated explanation.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/cpuset.h"

#define WHY_LEN 128

/* The set in ABI words and back again. */
static void check_abi_round_trip(const struct cp_cpuset *set)
{
	size_t words = cp_cpuset_abi_words(set);
	uint64_t *w = calloc(words, sizeof(*w));
	struct cp_cpuset *back = NULL;

	/* A parsed list is never empty, so words > 0. */
	if (!w || words == 0 || cp_cpuset_to_abi(set, w, words) ||
	    cp_cpuset_from_abi(w, words * sizeof(*w), &back) ||
	    !cp_cpuset_equal(set, back))
		abort();
	cp_cpuset_free(back);
	free(w);
}

static void check_format_round_trip(const struct cp_cpuset *set)
{
	char *text = cp_cpuset_format_alloc(set);
	struct cp_cpuset *again = NULL;
	char why[WHY_LEN];

	if (!text || strlen(text) != cp_cpuset_format(set, NULL, 0) ||
	    cp_cpuset_parse(text, &again, why, sizeof(why)) ||
	    !cp_cpuset_equal(set, again))
		abort();
	cp_cpuset_free(again);
	free(text);
}

/* A refusal explains itself in @why, within @why_len bytes (a one-byte
 * buffer holds only the terminator). */
static void check_refusal(int ret, const char *why, size_t why_len)
{
	if (ret != -EINVAL && ret != -ENOMEM)
		abort();
	if (why_len && !memchr(why, '\0', why_len))
		abort();
	if (why_len > 1 && !why[0])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Short explanation buffers too: the message must be cut, not overrun. */
	size_t why_len = size % 4 == 0 ? 1 + size % 7 : WHY_LEN;
	char *text = malloc(size + 1);
	char *why = malloc(why_len);
	struct cp_cpuset *set = NULL;
	int ret;

	if (!text || !why)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	ret = cp_cpuset_parse(text, &set, why, why_len);
	if (ret == 0) {
		if (cp_cpuset_count(set) == 0)
			abort();
		check_format_round_trip(set);
		check_abi_round_trip(set);
		cp_cpuset_free(set);
	} else {
		check_refusal(ret, why, why_len);
	}
	free(why);
	free(text);
	return 0;
}
