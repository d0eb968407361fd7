// SPDX-License-Identifier: GPL-2.0
#include "client/kcmd_request.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *cp_kcmd_name(uint8_t cmd)
{
	switch (cmd) {
	case CACHEPROBE_CMD_CHASE:
		return "chase";
	case CACHEPROBE_CMD_ACCESS:
		return "access";
	case CACHEPROBE_CMD_PINGPONG:
		return "pingpong";
	case CACHEPROBE_CMD_BOUNCE:
		return "bounce";
	case CACHEPROBE_CMD_XFER:
		return "xfer";
	}
	return "measurement";
}

size_t cp_kcmd_series_cpus(const struct cp_kcmd *kcmd, uint32_t *cpus)
{
	switch (kcmd->cmd) {
	case CACHEPROBE_CMD_BOUNCE:
		memcpy(cpus, kcmd->cpus, kcmd->nr_cpus * sizeof(cpus[0]));
		return kcmd->nr_cpus;
	case CACHEPROBE_CMD_XFER:
		cpus[0] = kcmd->cpus[1];
		return 1;
	default:
		cpus[0] = kcmd->cpus[0];
		return 1;
	}
}

int cp_run_result_alloc(struct cp_run_result *result, size_t nr_series,
			uint32_t samples, struct cp_error *error)
{
	result->series = calloc(nr_series ? nr_series : 1,
				sizeof(*result->series));
	if (!result->series)
		return cp_error_set(error, ENOMEM, "no memory for results");
	result->nr_series = nr_series;
	result->samples = samples;
	for (size_t i = 0; i < nr_series; i++) {
		result->series[i].values =
			calloc(samples ? samples : 1, sizeof(uint64_t));
		if (!result->series[i].values) {
			cp_run_result_free(result);
			return cp_error_set(error, ENOMEM,
					    "no memory for results");
		}
	}
	return 0;
}

void cp_run_result_free(struct cp_run_result *result)
{
	if (!result)
		return;
	for (size_t i = 0; result->series && i < result->nr_series; i++)
		free(result->series[i].values);
	free(result->series);
	result->series = NULL;
	result->nr_series = 0;
}

int cp_kcmd_check_result(const struct cp_kcmd *kcmd,
			 const struct cp_run_result *result,
			 struct cp_error *error)
{
	uint32_t want[CACHEPROBE_RUN_MAX_CPUS];
	size_t nr_want = cp_kcmd_series_cpus(kcmd, want);

	if (result->samples != kcmd->samples)
		return cp_error_set(error, EPROTO,
				    "the module returned %u samples for a "
				    "request of %u", result->samples,
				    kcmd->samples);
	if (result->nr_series != nr_want)
		return cp_error_set(error, EPROTO,
				    "the module returned %zu series, %zu "
				    "expected", result->nr_series, nr_want);
	for (size_t i = 0; i < nr_want; i++)
		if (result->series[i].cpu != want[i])
			return cp_error_set(error, EPROTO,
					    "the module returned series %zu "
					    "for CPU %u, expected CPU %u", i,
					    result->series[i].cpu, want[i]);
	return 0;
}
