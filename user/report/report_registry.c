// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "report/report_area.h"

static const struct report_renderer *const renderers[] = {
	&report_latency,
	&report_coldcache,
	&report_bounce,
	&report_align,
	&report_xcore,
	&report_c2c,
};

const struct report_renderer *report_renderer_find(const char *area)
{
	for (size_t i = 0; i < sizeof(renderers) / sizeof(renderers[0]); i++)
		if (strcmp(renderers[i]->area, area) == 0)
			return renderers[i];
	return NULL;
}
