/* SPDX-License-Identifier: GPL-2.0 */
/* The latency area's answers beyond its table on the console, per mode:
 * where page walks begin on 4 KiB pages (the TLB reach) and how many
 * misses the core overlaps when several chases run at once
 * (areas/latency/latency_derive.h).  A line only for what was measured. */
#ifndef CACHEPROBE_LATENCY_TABLE_H
#define CACHEPROBE_LATENCY_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "areas/latency/latency_derive.h"
#include "results/results.h"

/* Nothing when the results hold no 4 KiB-page or multi-chase curve. */
void cli_print_latency_summary(FILE *out, const struct cp_results *results);

/* What @reach says, as the console's "TLB reach (4 KiB pages): " line
 * goes on (the report says the same): "page walks from 256 KiB (64
 * pages); 4 KiB pages cost +31.0 ns (1.31x) over 2 MiB pages at 256 MiB",
 * "no knee: ...", "not measured: ...".  Returns @buf. */
const char *cli_tlb_reach_text(const struct cp_tlb_reach *reach, char *buf,
			       size_t len);

struct report_renderer;
/* The area's part of the report (report/report_area.h). */
extern const struct report_renderer report_latency;

#endif
