/* SPDX-License-Identifier: GPL-2.0 */
/* The output of `cacheprobe-run flush`. */
#ifndef CACHEPROBE_FLUSH_REPORT_H
#define CACHEPROBE_FLUSH_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "client/client.h"

/*
 * "flush: METHOD via TRANSPORT on N CPUs (LIST)" and one line
 * "cpu N: TICKS ticks, NS ns" per result.  Returns 0 or -ENOMEM.
 */
int cli_print_flush_results(FILE *out, const char *method,
			    const char *transport,
			    const struct cp_cpu_time *results,
			    size_t nr_results);

#endif
