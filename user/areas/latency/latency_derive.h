/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the latency area's variants show beside the cache levels, read off
 * a struct cp_results alone so that the console, the report and `report
 * FILE.json` say the same, per mode.
 *
 * TLB reach.  The single chase on 4 KiB pages against the one on huge
 * pages (2 MiB asked for, else 1 GiB: the first whose buffers huge pages
 * really mapped), size by size.  At a size the 4 KiB curve is slower
 * beyond the noise when the two medians' bands do not overlap: each
 * band is the bootstrap 95 % interval of the median, or the quartiles of
 * the samples when the interval is not there (a file read without
 * intervals).  No fixed ratio enters: how far apart two curves must be
 * is each run's own spread.  The knee is the smallest size slower beyond
 * the noise whose next compared size is too; a lone slower size is a
 * blip, and a slower last size has no next to confirm it.  Its reach in
 * pages is the knee / 4096.  Sizes where a buffer was mapped by other
 * pages than asked for ("page_bytes_backed": a 2 MiB request that fell
 * back to 4 KiB, or 4 KiB pages merged into a huge one) are not compared;
 * when no size is left, there is no knee to report, and why is said.
 *
 * Overlap factor (memory-level parallelism).  For N chases followed at
 * once, at each size measured with both one chase and N, on the same
 * pages asked for and in the same mode: ns per load with one chase / ns
 * per load with N (medians), i.e. how many of the misses the core keeps
 * in flight together.  The largest size is the memory figure.
 */
#ifndef CACHEPROBE_LATENCY_DERIVE_H
#define CACHEPROBE_LATENCY_DERIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "areas/latency/latency_variants.h"
#include "results/results.h"

enum cp_tlb_verdict {
	CP_TLB_NOT_MEASURED,	/* no 4 KiB or no huge-page single chase */
	CP_TLB_NOT_BACKED,	/* measured, but never on the pages asked */
	CP_TLB_NO_KNEE,		/* compared: never slower two sizes in a row */
	CP_TLB_KNEE,
};

struct cp_tlb_point {
	uint64_t size_bytes;
	double small_ns, huge_ns;	/* medians per load */
	double extra_ns;		/* small - huge */
	double ratio;			/* small / huge */
	bool slower;			/* beyond the noise of both */
};

struct cp_tlb_reach {
	enum cp_tlb_verdict verdict;
	/* NOT_MEASURED, NOT_BACKED, NO_KNEE: why, in a few words. */
	char why[160];
	int64_t huge_page_bytes;	/* the huge-page curve compared */
	size_t nr_points;		/* the sizes compared, ascending */
	struct cp_tlb_point points[CP_LATENCY_MAX_POINTS];
	size_t nr_left_out;		/* sizes not on the pages asked for */
	/* KNEE: the smallest size from which page walks show, and the
	 * 4 KiB pages it spans. */
	uint64_t knee_bytes, knee_pages;
	size_t knee_index;		/* into points */
	/* Slower already at the smallest size compared: the reach is at
	 * most the knee, not found between two sizes. */
	bool knee_at_first;
};

/* The TLB reach in @mode (see above). */
void cp_latency_tlb_reach(const struct cp_results *results, const char *mode,
			  struct cp_tlb_reach *reach);

struct cp_overlap_point {
	uint64_t size_bytes;
	double single_ns, parallel_ns;	/* ns per load, medians */
	double factor;			/* single / parallel */
};

struct cp_overlap_curve {
	int64_t page_bytes, chases;
	size_t n;			/* ascending; the last: memory */
	struct cp_overlap_point points[CP_LATENCY_MAX_POINTS];
};

/* The overlap factor of @chases against one chase in @mode on
 * @page_bytes, at every size both were measured.  Returns its length (0
 * when either was not measured). */
size_t cp_latency_overlap(const struct cp_results *results, const char *mode,
			  int64_t page_bytes, int64_t chases,
			  struct cp_overlap_curve *curve);

#endif
