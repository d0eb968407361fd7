// SPDX-License-Identifier: GPL-2.0
#include "areas/area.h"

#include <string.h>

#include "areas/align/align_choices.h"
#include "areas/bounce/bounce_choices.h"
#include "areas/c2c/c2c_choices.h"
#include "areas/coldcache/coldcache_choices.h"
#include "areas/latency/latency_choices.h"
#include "areas/xcore/xcore_choices.h"

const struct cp_area *const cp_areas[] = {
	&cp_area_latency,
	&cp_area_bounce,
	&cp_area_coldcache,
	&cp_area_align,
	&cp_area_xcore,
	&cp_area_c2c,
};

const size_t cp_nr_areas = sizeof(cp_areas) / sizeof(cp_areas[0]);

_Static_assert(sizeof(cp_areas) / sizeof(cp_areas[0]) <= CP_MAX_AREAS,
	       "more areas than CP_MAX_AREAS");

const struct cp_area *cp_area_find(const char *name)
{
	for (size_t i = 0; i < cp_nr_areas; i++)
		if (strcmp(cp_areas[i]->name, name) == 0)
			return cp_areas[i];
	return NULL;
}

size_t cp_area_index(const struct cp_area *area)
{
	size_t i = 0;

	while (i < cp_nr_areas && cp_areas[i] != area)
		i++;
	return i;
}

const void *cp_area_choices(const struct cp_area_options *options,
			    const struct cp_area *area)
{
	size_t i = cp_area_index(area);

	if (!options->choices || i == cp_nr_areas)
		return NULL;
	return options->choices[i];
}
