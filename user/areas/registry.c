// SPDX-License-Identifier: GPL-2.0
#include "areas/area.h"

#include <string.h>

const struct cp_area *const cp_areas[] = {
	&cp_area_latency,
	&cp_area_bounce,
	&cp_area_coldcache,
	&cp_area_align,
	&cp_area_xcore,
	&cp_area_c2c,
};

const size_t cp_nr_areas = sizeof(cp_areas) / sizeof(cp_areas[0]);

const struct cp_area *cp_area_find(const char *name)
{
	for (size_t i = 0; i < cp_nr_areas; i++)
		if (strcmp(cp_areas[i]->name, name) == 0)
			return cp_areas[i];
	return NULL;
}
