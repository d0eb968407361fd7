// SPDX-License-Identifier: GPL-2.0
#include "areas/latency/latency_derive.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/name_bytes.h"

/* The huge pages a 4 KiB curve is compared with, in order of preference:
 * 2 MiB is the default curve, the one the cache levels come from. */
static const int64_t huge_page_sizes[] = { 2ll << 20, 1ll << 30 };
#define NR_HUGE_PAGE_SIZES (sizeof(huge_page_sizes) / sizeof(huge_page_sizes[0]))

/* The band a median is known within: its bootstrap 95 % interval, or the
 * quartiles when a reader did not compute the interval (NaN). */
static void noise_band(const struct cp_measurement *m, double *low,
		       double *high)
{
	const struct cp_stats *s = &m->stats_ns;

	if (isfinite(s->median_ci_low) && isfinite(s->median_ci_high) &&
	    s->median_ci_low <= s->median_ci_high) {
		*low = s->median_ci_low;
		*high = s->median_ci_high;
		return;
	}
	*low = s->p25;
	*high = s->p75;
}

/* Whether @m's buffer was mapped by the kind of pages asked for; unknown
 * (no read-back) counts as yes, as in files from before it existed. */
static bool on_asked_pages(const struct cp_measurement *m, bool small)
{
	int64_t backed = cp_latency_variant_of(m).page_bytes_backed;

	if (!backed)
		return true;
	return small ? backed <= CP_LATENCY_SMALL_PAGE_BYTES
		     : backed > CP_LATENCY_SMALL_PAGE_BYTES;
}

static struct cp_tlb_point tlb_point(uint64_t size,
				     const struct cp_measurement *small,
				     const struct cp_measurement *huge)
{
	double small_low, small_high, huge_low, huge_high;
	double small_ns = small->stats_ns.median, huge_ns = huge->stats_ns.median;

	noise_band(small, &small_low, &small_high);
	noise_band(huge, &huge_low, &huge_high);
	return (struct cp_tlb_point){
		.size_bytes = size, .small_ns = small_ns, .huge_ns = huge_ns,
		.extra_ns = small_ns - huge_ns,
		.ratio = huge_ns > 0 ? small_ns / huge_ns : NAN,
		.slower = small_low > huge_high,
	};
}

/* What a curve's left-out sizes were mapped by, for the reason. */
struct left_out {
	size_t small, huge;
	int64_t small_backed, huge_backed;	/* the first of each */
};

static void leave_out(struct left_out *left, const struct cp_measurement *m,
		      bool small)
{
	int64_t backed = cp_latency_variant_of(m).page_bytes_backed;

	if (small && !left->small++)
		left->small_backed = backed;
	if (!small && !left->huge++)
		left->huge_backed = backed;
}

/* The sizes of both curves, each on the pages asked for, into @reach. */
static void compare(const struct cp_latency_curve *small,
		    const struct cp_latency_curve *huge,
		    struct cp_tlb_reach *reach, struct left_out *left)
{
	size_t j = 0;

	reach->nr_points = reach->nr_left_out = 0;
	*left = (struct left_out){ 0 };
	for (size_t i = 0; i < small->n; i++) {
		const struct cp_measurement *s = small->points[i];
		bool small_ok, huge_ok;

		while (j < huge->n && huge->size_bytes[j] < small->size_bytes[i])
			j++;
		if (j == huge->n || huge->size_bytes[j] != small->size_bytes[i])
			continue;
		small_ok = on_asked_pages(s, true);
		huge_ok = on_asked_pages(huge->points[j], false);
		if (!small_ok)
			leave_out(left, s, true);
		if (!huge_ok)
			leave_out(left, huge->points[j], false);
		if (!small_ok || !huge_ok) {
			reach->nr_left_out++;
			continue;
		}
		reach->points[reach->nr_points++] =
			tlb_point(small->size_bytes[i], s, huge->points[j]);
	}
}

/* Why no size of the curves on @huge_pages could be compared. */
static void why_not_backed(struct cp_tlb_reach *reach, int64_t huge_pages,
			   const struct left_out *left)
{
	char asked[32], got[32];
	int used = 0;

	if (left->huge) {
		cp_name_bytes((uint64_t)huge_pages, asked, sizeof(asked));
		cp_name_bytes((uint64_t)left->huge_backed, got, sizeof(got));
		used = snprintf(reach->why, sizeof(reach->why),
				"the %s-page chase got %s pages (no huge pages given)",
				asked, got);
	}
	if (left->small && (size_t)used < sizeof(reach->why)) {
		cp_name_bytes((uint64_t)left->small_backed, got, sizeof(got));
		snprintf(reach->why + used, sizeof(reach->why) - (size_t)used,
			 "%sthe 4 KiB-page chase got %s pages", used ? "; " : "",
			 got);
	}
}

/* The first size slower beyond the noise whose next one is too. */
static void find_knee(struct cp_tlb_reach *reach)
{
	char huge[32];

	for (size_t i = 0; i + 1 < reach->nr_points; i++) {
		if (!reach->points[i].slower || !reach->points[i + 1].slower)
			continue;
		reach->verdict = CP_TLB_KNEE;
		reach->why[0] = '\0';
		reach->knee_index = i;
		reach->knee_bytes = reach->points[i].size_bytes;
		reach->knee_pages = reach->knee_bytes /
				    (uint64_t)CP_LATENCY_SMALL_PAGE_BYTES;
		reach->knee_at_first = i == 0;
		return;
	}
	reach->verdict = CP_TLB_NO_KNEE;
	cp_name_bytes((uint64_t)reach->huge_page_bytes, huge, sizeof(huge));
	snprintf(reach->why, sizeof(reach->why),
		 "not slower than %s pages beyond the noise at two sizes in a row",
		 huge);
}

void cp_latency_tlb_reach(const struct cp_results *results, const char *mode,
			  struct cp_tlb_reach *reach)
{
	struct cp_latency_curve small, huge;
	struct left_out left;
	bool huge_measured = false;
	size_t left_out = 0;

	memset(reach, 0, sizeof(*reach));
	if (!cp_latency_curve_collect(results, mode, CP_LATENCY_SMALL_PAGE_BYTES,
				      1, &small)) {
		snprintf(reach->why, sizeof(reach->why),
			 "no chase on 4 KiB pages");
		return;
	}
	for (size_t k = 0; k < NR_HUGE_PAGE_SIZES; k++) {
		if (!cp_latency_curve_collect(results, mode, huge_page_sizes[k],
					      1, &huge))
			continue;
		compare(&small, &huge, reach, &left);
		if (reach->nr_points) {
			reach->huge_page_bytes = huge_page_sizes[k];
			find_knee(reach);
			return;
		}
		/* The preferred curve's reason is the one to give. */
		if (!huge_measured && reach->nr_left_out) {
			left_out = reach->nr_left_out;
			reach->verdict = CP_TLB_NOT_BACKED;
			reach->huge_page_bytes = huge_page_sizes[k];
			why_not_backed(reach, huge_page_sizes[k], &left);
		}
		huge_measured = true;
	}
	reach->nr_left_out = left_out;
	if (reach->verdict == CP_TLB_NOT_BACKED)
		return;
	snprintf(reach->why, sizeof(reach->why), "%s",
		 huge_measured ? "no working set measured on both page sizes"
			       : "no chase on huge pages (2 MiB or 1 GiB) to compare with");
}

size_t cp_latency_overlap(const struct cp_results *results, const char *mode,
			  int64_t page_bytes, int64_t chases,
			  struct cp_overlap_curve *curve)
{
	struct cp_latency_curve single, parallel;
	size_t j = 0;

	curve->page_bytes = page_bytes;
	curve->chases = chases;
	curve->n = 0;
	if (!cp_latency_curve_collect(results, mode, page_bytes, 1, &single) ||
	    !cp_latency_curve_collect(results, mode, page_bytes, chases,
				      &parallel))
		return 0;
	for (size_t i = 0; i < single.n; i++) {
		double one, many;
		uint64_t size = single.size_bytes[i];

		while (j < parallel.n && parallel.size_bytes[j] < size)
			j++;
		if (j == parallel.n || parallel.size_bytes[j] != size)
			continue;
		one = single.points[i]->stats_ns.median;
		many = parallel.points[j]->stats_ns.median;
		if (!(many > 0))
			continue;
		curve->points[curve->n++] = (struct cp_overlap_point){
			.size_bytes = size, .single_ns = one,
			.parallel_ns = many, .factor = one / many,
		};
	}
	return curve->n;
}
