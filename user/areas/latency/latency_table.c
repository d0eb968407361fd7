// SPDX-License-Identifier: GPL-2.0
#include "areas/latency/latency_table.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "util/format.h"
#include "areas/latency/latency_derive.h"

#define MAX_PAGE_SIZES 8
#define MAX_CHASE_COUNTS 32

/* The lines go out under one blank line, after the table's rows. */
struct summary {
	FILE *out;
	bool started;
};

static FILE *begin_line(struct summary *summary)
{
	if (!summary->started)
		fputc('\n', summary->out);
	summary->started = true;
	return summary->out;
}

/* " (4 KiB pages, kernel mode)", " (kernel mode)" or "": user mode and
 * the default pages go without saying. */
static void qualifier(const char *pages, const char *mode, char *out,
		      size_t len)
{
	bool kernel = strcmp(mode, "user") != 0;

	if (!pages && !kernel) {
		out[0] = '\0';
		return;
	}
	snprintf(out, len, " (%s%s%s%s)", pages ? pages : "",
		 pages && kernel ? ", " : "", kernel ? mode : "",
		 kernel ? " mode" : "");
}

/* Whether @mode has a single chase on 4 KiB pages to speak of. */
static bool small_pages_measured(const struct cp_results *results,
				 const char *mode)
{
	struct cp_latency_curve curve;

	return cp_latency_curve_collect(results, mode,
					CP_LATENCY_SMALL_PAGE_BYTES, 1,
					&curve) > 0;
}

/* Appends to @buf (@used of @len taken): a bounded printf. */
static size_t append(char *buf, size_t len, size_t used, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));

static size_t append(char *buf, size_t len, size_t used, const char *fmt,
		     ...)
{
	va_list args;
	int n;

	if (used >= len)
		return used;
	va_start(args, fmt);
	n = vsnprintf(buf + used, len - used, fmt, args);
	va_end(args);
	return n < 0 ? used : used + (size_t)n;
}

/* What 4 KiB pages cost at the largest size compared. */
static size_t cost_text(const struct cp_tlb_reach *reach, char *buf,
			size_t len, size_t used)
{
	const struct cp_tlb_point *last = &reach->points[reach->nr_points - 1];
	char size[32], huge[32];

	used = append(buf, len, used,
		      "; 4 KiB pages cost %+.1f ns (%.2fx) over %s pages at %s",
		      last->extra_ns, last->ratio,
		      cp_format_size((uint64_t)reach->huge_page_bytes, huge,
				     sizeof(huge)),
		      cp_format_size(last->size_bytes, size, sizeof(size)));
	if (reach->nr_left_out)
		used = append(buf, len, used,
			      "; %zu sizes left out (not on the pages asked for)",
			      reach->nr_left_out);
	return used;
}

const char *cli_tlb_reach_text(const struct cp_tlb_reach *reach, char *buf,
			       size_t len)
{
	char size[32];
	size_t used;

	if (reach->verdict == CP_TLB_KNEE) {
		cp_format_size(reach->knee_bytes, size, sizeof(size));
		used = append(buf, len, 0,
			      reach->knee_at_first
				      ? "at most %s (%" PRIu64 " pages): slower from the smallest size compared"
				      : "page walks from %s (%" PRIu64 " pages)",
			      size, reach->knee_pages);
	} else if (reach->verdict == CP_TLB_NO_KNEE) {
		used = append(buf, len, 0, "no knee: %s", reach->why);
	} else {
		append(buf, len, 0, "not measured: %s", reach->why);
		return buf;
	}
	cost_text(reach, buf, len, used);
	return buf;
}

static void print_tlb(struct summary *summary,
		      const struct cp_results *results, const char *mode)
{
	struct cp_tlb_reach reach;
	char what[48], text[320];

	cp_latency_tlb_reach(results, mode, &reach);
	/* A run without 4 KiB pages did not ask: nothing to say. */
	if (reach.verdict == CP_TLB_NOT_MEASURED &&
	    !small_pages_measured(results, mode))
		return;
	qualifier("4 KiB pages", mode, what, sizeof(what));
	cli_tlb_reach_text(&reach, text, sizeof(text));
	/* The verdict, then each figure on a line of its own: a console
	 * is 80 columns. */
	fprintf(begin_line(summary), "TLB reach%s:", what);
	fputs(strlen("TLB reach: ") + strlen(what) + strcspn(text, ";") > 80
		      ? "\n  " : " ", summary->out);
	for (const char *at = text; *at; at++) {
		if (at[0] == ';' && at[1] == ' ') {
			fputs("\n  ", summary->out);
			at++;
		} else {
			fputc(*at, summary->out);
		}
	}
	fputc('\n', summary->out);
}

/* "4 chases 3.6x" after the line's start (@at: its size, 0 for none
 * yet), " at SIZE" when this count's largest size is another. */
static uint64_t overlap_item(struct summary *summary,
			     const struct cp_overlap_curve *curve,
			     const char *what, uint64_t at)
{
	const struct cp_overlap_point *last = &curve->points[curve->n - 1];
	char size[32];

	cp_format_size(last->size_bytes, size, sizeof(size));
	if (at)
		fputs(", ", summary->out);
	else
		fprintf(begin_line(summary),
			"memory-level parallelism at %s%s: ", size, what);
	fprintf(summary->out, "%" PRId64 " chases %.1fx", curve->chases,
		last->factor);
	if (at && last->size_bytes != at)
		fprintf(summary->out, " at %s", size);
	return at ? at : last->size_bytes;
}

/* One line: the overlap factor of each N at the largest size. */
static void print_overlap(struct summary *summary,
			  const struct cp_results *results, const char *mode,
			  int64_t page_bytes, bool name_pages)
{
	int64_t chases[MAX_CHASE_COUNTS];
	size_t n = cp_latency_chase_counts(results, mode, page_bytes, chases,
					   MAX_CHASE_COUNTS);
	struct cp_overlap_curve curve;
	char pages[32], what[64];
	uint64_t at = 0;

	cp_format_size((uint64_t)page_bytes, pages, sizeof(pages));
	strcat(pages, " pages");
	qualifier(name_pages ? pages : NULL, mode, what, sizeof(what));
	for (size_t k = 0; k < n; k++)
		if (chases[k] > 1 &&
		    cp_latency_overlap(results, mode, page_bytes, chases[k],
				       &curve))
			at = overlap_item(summary, &curve, what, at);
	if (at)
		fputs(" (overlap against one chase)\n", summary->out);
}

/* The page sizes with more than one chase in @mode, into @pages. */
static size_t multi_chase_pages(const struct cp_results *results,
				const char *mode, int64_t *pages)
{
	int64_t all[MAX_PAGE_SIZES], chases[MAX_CHASE_COUNTS];
	size_t n = cp_latency_page_sizes(results, mode, all, MAX_PAGE_SIZES);
	size_t found = 0;

	for (size_t i = 0; i < n; i++) {
		size_t counts = cp_latency_chase_counts(results, mode, all[i],
							chases,
							MAX_CHASE_COUNTS);

		if (counts && chases[counts - 1] > 1)
			pages[found++] = all[i];
	}
	return found;
}

void cli_print_latency_summary(FILE *out, const struct cp_results *results)
{
	static const char *const modes[] = { "user", "kernel" };
	struct summary summary = { .out = out };

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		int64_t pages[MAX_PAGE_SIZES];
		size_t n = multi_chase_pages(results, modes[m], pages);

		print_tlb(&summary, results, modes[m]);
		for (size_t i = 0; i < n; i++)
			print_overlap(&summary, results, modes[m], pages[i],
				      n > 1 || pages[i] !=
						       CP_LATENCY_CLASSIC_PAGE_BYTES);
	}
}
