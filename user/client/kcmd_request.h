/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the client: a measurement command (CHASE, ACCESS, PINGPONG,
 * BOUNCE, XFER) in one transport-neutral form, which each transport
 * encodes, and the checks every reply must pass.  Not for callers.
 */
#ifndef CACHEPROBE_KCMD_REQUEST_H
#define CACHEPROBE_KCMD_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/client.h"

struct cp_kcmd {
	uint8_t cmd;			/* CACHEPROBE_CMD_* */
	uint32_t cpus[CACHEPROBE_RUN_MAX_CPUS];
	uint32_t nr_cpus;
	uint32_t samples;
	uint64_t size;
	uint32_t ops;
	uint32_t stride;
	uint32_t order;
	uint32_t prepare;
	uint32_t variant;
	uint32_t width;
	uint32_t offset;
	uint32_t distance;
	uint32_t delay;
	uint32_t pages;			/* CHASE, ABI 4: sent when not 0 */
	uint32_t chases;		/* CHASE, ABI 4: sent when not 0 */
	uint64_t seed;			/* CHASE, ABI 4; ACCESS, ABI 5: sent
					 * if has_seed */
	bool has_seed;
};

/* "chase" for CACHEPROBE_CMD_CHASE, ...; for messages. */
const char *cp_kcmd_name(uint8_t cmd);

/* The CPUs whose series a reply to @kcmd carries, in order; their count. */
size_t cp_kcmd_series_cpus(const struct cp_kcmd *kcmd, uint32_t *cpus);

/*
 * Allocate @result's series for @nr_series series of @samples values.
 * -ENOMEM with @error set.
 */
int cp_run_result_alloc(struct cp_run_result *result, size_t nr_series,
			uint32_t samples, struct cp_error *error);

/*
 * Check a decoded reply against the request: one series per timed CPU, in
 * order, each of the requested number of samples.  -EPROTO otherwise.
 */
int cp_kcmd_check_result(const struct cp_kcmd *kcmd,
			 const struct cp_run_result *result,
			 struct cp_error *error);

#endif
