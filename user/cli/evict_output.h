/* SPDX-License-Identifier: GPL-2.0 */
/* What evict says: the console lines and the JSON document. */
#ifndef CACHEPROBE_EVICT_OUTPUT_H
#define CACHEPROBE_EVICT_OUTPUT_H

#include <stdio.h>

#include "cli/evict_probe.h"

struct evict_report {
	const char *method;
	const char *reason;
	const char *cpus;		/* as asked, NULL: the affinity's */
	double open_ns;
	unsigned long long garbage_bytes;
	struct evict_outcome outcome;
};

/* The method, why, its time, and the probe's warmth before and after. */
void evict_print(const struct evict_report *report, FILE *out);

/* cli_output_writer: the report as JSON (schema "cacheprobe-evict/1"). */
int evict_write_json(const void *report, FILE *out);

#endif
