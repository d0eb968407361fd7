// SPDX-License-Identifier: GPL-2.0
#include "areas/align/align_results.h"

#include <string.h>

static bool same_access(const struct cp_measurement *a,
			const struct cp_measurement *b)
{
	size_t kind = strcspn(a->name, " ");

	return strcmp(a->area, "align") == 0 && strcmp(b->area, "align") == 0 &&
	       strcmp(a->mode, b->mode) == 0 &&
	       strncmp(a->name, b->name, kind + 1) == 0 &&
	       strncmp(a->name, "classic ", 8) != 0 && b->nr_samples &&
	       cp_measurement_param(a, "width_bytes", -1) ==
		       cp_measurement_param(b, "width_bytes", -2) &&
	       cp_measurement_param(a, "buffer_bytes", -1) ==
		       cp_measurement_param(b, "buffer_bytes", -2);
}

bool cp_align_same_group(const struct cp_measurement *a,
			 const struct cp_measurement *b)
{
	return same_access(a, b) &&
	       cp_measurement_param(a, "stride_bytes", -1) ==
		       cp_measurement_param(b, "stride_bytes", -2);
}

struct cp_measurement *cp_align_find_stride(const struct cp_results *results,
					    const struct cp_measurement *group,
					    int64_t stride, int64_t offset)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		struct cp_measurement *m = &results->measurements[i];

		if (same_access(group, m) &&
		    cp_measurement_param(m, "stride_bytes", -1) == stride &&
		    cp_measurement_param(m, "offset_bytes", -1) == offset)
			return m;
	}
	return NULL;
}

struct cp_measurement *cp_align_find_offset(const struct cp_results *results,
					    const struct cp_measurement *group,
					    int64_t offset)
{
	return cp_align_find_stride(
		results, group, cp_measurement_param(group, "stride_bytes", -1),
		offset);
}
