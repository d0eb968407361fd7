// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: cp_cpuset_from_abi, which reads the CPU bitmaps the
 * module sends (GET_INFO's POSSIBLE_CPUS and ONLINE_CPUS).  Any length,
 * any alignment; what it accepts must convert back to the same words.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/cacheprobe.h>

#include "machine/cpuset.h"

static void check_accepted(const uint8_t *data, size_t size,
			   const struct cp_cpuset *set)
{
	size_t words = size / sizeof(uint64_t);
	uint64_t *w = calloc(words, sizeof(*w));
	char *text;

	if (!w || cp_cpuset_to_abi(set, w, words) || memcmp(w, data, size))
		abort();
	text = cp_cpuset_format_alloc(set);
	if (!text)
		abort();
	free(text);
	free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cp_cpuset *set = NULL;
	/*
	 * The bitmap at an odd address (it need not be aligned) and ending
	 * where the allocation ends, so that ASan sees any read past it.
	 */
	uint8_t *copy = malloc(size + 1);
	bool valid = size && size % 8 == 0 &&
		     size <= CACHEPROBE_CPUMASK_MAX_BYTES;
	int ret;

	if (!copy)
		abort();
	memcpy(copy + 1, data, size);
	ret = cp_cpuset_from_abi(copy + 1, size, &set);
	if (valid != (ret == 0) || (!valid && ret != -EINVAL))
		abort();
	if (ret == 0) {
		check_accepted(data, size, set);
		cp_cpuset_free(set);
	}
	free(copy);
	return 0;
}
