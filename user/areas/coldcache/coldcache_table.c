// SPDX-License-Identifier: GPL-2.0
#include "areas/coldcache/coldcache_table.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "areas/coldcache/coldcache_floor.h"
#include "stats/stats.h"
#include "util/format.h"

#define PASS_SUFFIX " first pass"
#define EVICT_SUFFIX " evict"

static bool is_coldcache(const struct cp_measurement *m)
{
	return strcmp(m->area, "coldcache") == 0;
}

static bool ends_with(const char *text, const char *suffix)
{
	size_t len = strlen(text), suffix_len = strlen(suffix);

	return len >= suffix_len &&
	       strcmp(text + len - suffix_len, suffix) == 0;
}

/* A residual-share parameter: "<level>_ppm", not "cached_..._ppm". */
static bool is_level_param(const struct cp_param *param)
{
	return ends_with(param->name, "_ppm") &&
	       strncmp(param->name, "cached_", 7) != 0;
}

static const struct cp_measurement *
evict_of(const struct cp_results *results, const struct cp_measurement *pass)
{
	char name[sizeof(pass->name)];
	size_t stem = strlen(pass->name) - strlen(PASS_SUFFIX);

	snprintf(name, sizeof(name), "%.*s%s", (int)stem, pass->name,
		 EVICT_SUFFIX);
	return cp_results_find_mode(results, "coldcache", name, pass->mode);
}

static void level_title(const char *param, char *out, size_t len)
{
	size_t n = strlen(param) - strlen("_ppm");

	if (n >= len)
		n = len - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = i == 0 ? (char)toupper((unsigned char)param[i])
				: param[i];
	out[n] = '\0';
	if (strcmp(out, "Memory") == 0)
		snprintf(out, len, "mem");
}

static void print_header(FILE *out, const struct cp_measurement *pass)
{
	fprintf(out, "\ncoldcache: residual warmth after eviction (median of repetitions; %% of the working set's lines)\n");
	fprintf(out, "  %-28s %10s %10s %8s", "method, working set", "evict",
		"1st pass", "cycles");
	for (size_t i = 0; i < pass->nr_params; i++) {
		char title[16];

		if (!is_level_param(&pass->params[i]))
			continue;
		level_title(pass->params[i].name, title, sizeof(title));
		fprintf(out, " %6s", title);
	}
	fprintf(out, " %7s  %s\n", "worst", "verdict");
}

static void print_share(FILE *out, int64_t ppm)
{
	if (ppm < 0)
		fprintf(out, " %6s", "merged");
	else
		fprintf(out, " %5.1f%%", (double)ppm / 1e4);
}

static void print_row(FILE *out, const struct cp_results *results,
		      const struct cp_measurement *pass)
{
	const struct cp_measurement *evict = evict_of(results, pass);
	size_t stem = strlen(pass->name) - strlen(PASS_SUFFIX);
	char evict_text[32] = "-", pass_text[32], cycles[32] = "-";

	if (evict && evict->nr_samples)
		cp_format_ns(evict->stats_ns.median, evict_text,
			     sizeof(evict_text));
	bool under_floor = cp_coldcache_under_floor(results, pass);

	if (under_floor)
		snprintf(pass_text, sizeof(pass_text), "< floor");
	else
		cp_format_ns(pass->stats_ns.median, pass_text,
			     sizeof(pass_text));
	if (pass->core_cycles_per_tick > 0 && !under_floor)
		snprintf(cycles, sizeof(cycles), "%.0f",
			 cp_stats_median(pass->ticks, pass->nr_samples) *
				 pass->core_cycles_per_tick);
	fprintf(out, "  %-28.*s %10s %10s %8s", (int)stem, pass->name,
		evict_text, pass_text, cycles);
	for (size_t i = 0; i < pass->nr_params; i++)
		if (is_level_param(&pass->params[i]))
			print_share(out, pass->params[i].value);
	fprintf(out, " %6.1f%%  %s\n",
		(double)cp_measurement_param(pass, "cached_worst_ppm", 0) / 1e4,
		pass->note);
}

static const struct cp_measurement *
find_pass(const struct cp_results *results, const char *method,
	  const char *size, const char *mode)
{
	char name[64];

	snprintf(name, sizeof(name), "%s %s" PASS_SUFFIX, method, size);
	return cp_results_find_mode(results, "coldcache", name, mode);
}

/* "1 MiB" from "garbage-planned 1 MiB first pass". */
static void size_of(const struct cp_measurement *pass, const char *method,
		    char *out, size_t len)
{
	size_t start = strlen(method) + 1;
	size_t end = strlen(pass->name) - strlen(PASS_SUFFIX);

	snprintf(out, len, "%.*s", (int)(end - start), pass->name + start);
}

/* A sweep point's first pass: "garbage-planned x0.5 1 MiB first pass". */
static bool is_sweep_pass(const struct cp_measurement *m, const char *stem)
{
	return is_coldcache(m) && !strncmp(m->name, "garbage-planned x", 17) &&
	       ends_with(m->name, stem);
}

static double worst_percent(const struct cp_measurement *pass)
{
	return (double)cp_measurement_param(pass, "cached_worst_ppm", 0) / 1e4;
}

static void print_sweep_point(FILE *out, const char *what,
			      const struct cp_measurement *pass,
			      const struct cp_measurement *evict,
			      const char *stem,
			      const struct cp_measurement *naive,
			      const struct cp_measurement *naive_evict)
{
	fprintf(out,
		"    %s: %.*s, worst %.2f%% (naive %.2f%%), median %.2f%% (naive %.2f%%), naive/planned time %.2fx\n",
		what, (int)(strlen(pass->name) - strlen(stem)), pass->name,
		worst_percent(pass), worst_percent(naive),
		(double)cp_measurement_param(pass, "cached_median_ppm", 0) / 1e4,
		(double)cp_measurement_param(naive, "cached_median_ppm", 0) / 1e4,
		naive_evict->stats_ns.median / evict->stats_ns.median);
	if (cp_measurement_param(pass, "sign_test_p_millionths", -1) < 0)
		return;
	fprintf(out,
		"      turn by turn against naive: less cached in %lld, more in %lld, as much in %lld (sign test p %.3f)\n",
		(long long)cp_measurement_param(pass, "turns_less_cached_than_naive", 0),
		(long long)cp_measurement_param(pass, "turns_more_cached_than_naive", 0),
		(long long)cp_measurement_param(pass, "turns_tied_with_naive", 0),
		(double)cp_measurement_param(pass, "sign_test_p_millionths", 0) / 1e6);
}

/* Of the sweep at @size (measured beside naive): the cheapest factor
 * whose worst case is no warmer than @naive's -- the cost target -- and
 * the factor whose bytes are nearest naive's. */
static void print_sweep_against_naive(FILE *out,
				      const struct cp_results *results,
				      const char *size,
				      const struct cp_measurement *naive,
				      const struct cp_measurement *naive_evict)
{
	int64_t naive_worst = cp_measurement_param(naive, "cached_worst_ppm", -1);
	double naive_bytes = (double)cp_measurement_param(naive_evict,
							  "bytes_read", 0);
	const struct cp_measurement *best = NULL, *best_evict = NULL;
	const struct cp_measurement *like = NULL, *like_evict = NULL;
	double like_gap = 0;
	char stem[64];

	snprintf(stem, sizeof(stem), " %s" PASS_SUFFIX, size);
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		const struct cp_measurement *evict;
		double gap;

		if (!is_sweep_pass(m, stem))
			continue;
		evict = evict_of(results, m);
		if (!evict || evict->stats_ns.median <= 0)
			continue;
		gap = fabs(log((double)cp_measurement_param(evict, "bytes_read",
							    1) / naive_bytes));
		if (!like || gap < like_gap) {
			like = m;
			like_evict = evict;
			like_gap = gap;
		}
		if (cp_measurement_param(m, "cached_worst_ppm", INT64_MAX) <=
			    naive_worst &&
		    (!best_evict ||
		     evict->stats_ns.median < best_evict->stats_ns.median)) {
			best = m;
			best_evict = evict;
		}
	}
	if (!like)
		return;
	fprintf(out, "  %-8s the sweep, side by side with naive:\n", size);
	if (best)
		print_sweep_point(out, "cheapest no warmer than naive in the worst case",
				  best, best_evict, stem, naive, naive_evict);
	else
		fprintf(out, "    no factor was as cold as naive in the worst case\n");
	print_sweep_point(out, "nearest naive's bytes", like, like_evict, stem,
			  naive, naive_evict);
}

static void print_cost_targets(FILE *out, const struct cp_results *results)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *planned = &results->measurements[i];
		const struct cp_measurement *naive, *planned_evict, *naive_evict;
		char size[32];

		if (!is_coldcache(planned) ||
		    strncmp(planned->name, "garbage-planned ", 16) != 0 ||
		    planned->name[16] == 'x' || !ends_with(planned->name, PASS_SUFFIX))
			continue;
		size_of(planned, "garbage-planned", size, sizeof(size));
		naive = find_pass(results, "garbage-naive", size,
				  planned->mode);
		planned_evict = evict_of(results, planned);
		naive_evict = naive ? evict_of(results, naive) : NULL;
		fprintf(out, "  %-8s planned worst %.2f%% cached",
			size, (double)cp_measurement_param(planned, "cached_worst_ppm", 0) / 1e4);
		if (naive && naive_evict && planned_evict &&
		    planned_evict->stats_ns.median > 0)
			fprintf(out, ", naive worst %.2f%%; naive/planned time %.2fx, bytes %.2fx",
				(double)cp_measurement_param(naive, "cached_worst_ppm", 0) / 1e4,
				naive_evict->stats_ns.median /
					planned_evict->stats_ns.median,
				(double)cp_measurement_param(naive_evict, "bytes_read", 0) /
					(double)cp_measurement_param(planned_evict, "bytes_read", 1));
		fprintf(out, "\n");
		if (naive && naive_evict)
			print_sweep_against_naive(out, results, size, naive,
						  naive_evict);
	}
}

static void print_bandwidth(FILE *out, const struct cp_results *results)
{
	const struct cp_measurement *planned = cp_results_find(
		results, "coldcache", "bandwidth garbage-planned");
	const struct cp_measurement *stream = cp_results_find(
		results, "coldcache", "bandwidth stream (1 thread)");

	if (!planned || !stream || !planned->nr_samples ||
	    !stream->nr_samples || planned->stats_ns.median <= 0)
		return;
	fprintf(out,
		"  bandwidth over %.0f MiB: planned %.2f GB/s, single-thread stream %.2f GB/s: planned at %.0f%% of the stream\n",
		(double)cp_measurement_param(planned, "bytes", 0) / (1 << 20),
		64 / planned->stats_ns.median, 64 / stream->stats_ns.median,
		100 * stream->stats_ns.median / planned->stats_ns.median);
}

static bool is_kernel_pass(const struct cp_measurement *m)
{
	return is_coldcache(m) && strcmp(m->mode, "kernel") == 0 &&
	       m->nr_samples;
}

/* The first kernel-mode pass whose lines were classified, or NULL. */
static const struct cp_measurement *
kernel_levels_of(const struct cp_results *results)
{
	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		for (size_t k = 0; is_kernel_pass(m) && k < m->nr_params; k++)
			if (is_level_param(&m->params[k]))
				return m;
	}
	return NULL;
}

static void print_kernel_header(FILE *out,
				const struct cp_measurement *levels)
{
	fprintf(out, "\ncoldcache in the module (%s)\n  %-28s %10s",
		levels ? "one window per pass; % of lines timed singly"
		       : "eviction and first pass in one window",
		"method, working set", "1st pass");
	for (size_t k = 0; levels && k < levels->nr_params; k++) {
		char title[16];

		if (!is_level_param(&levels->params[k]))
			continue;
		level_title(levels->params[k].name, title, sizeof(title));
		fprintf(out, " %6s", title);
	}
	fprintf(out, "  %s\n", "verdict (from the cost)");
}

/* Kernel mode: the first-pass cost of whole passes, and the shares of
 * the lines timed one by one where they were. */
static void print_kernel(FILE *out, const struct cp_results *results)
{
	const struct cp_measurement *levels = kernel_levels_of(results);
	bool header = false;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		char pass[32];

		if (!is_kernel_pass(m))
			continue;
		if (!header)
			print_kernel_header(out, levels);
		header = true;
		fprintf(out, "  %-28.*s %10s",
			(int)(strlen(m->name) - strlen(PASS_SUFFIX)), m->name,
			cp_format_ns(m->stats_ns.median, pass, sizeof(pass)));
		for (size_t k = 0; levels && k < levels->nr_params; k++) {
			const struct cp_param *level = &levels->params[k];

			if (!is_level_param(level))
				continue;
			if (cp_measurement_param(m, level->name, INT64_MIN) ==
			    INT64_MIN)
				fprintf(out, " %6s", "-");
			else
				print_share(out, cp_measurement_param(
							 m, level->name, 0));
		}
		fprintf(out, "  %s\n", m->note);
	}
}

void cli_print_coldcache(FILE *out, const struct cp_results *results)
{
	bool header = false;

	for (size_t i = 0; i < results->nr_measurements; i++) {
		const struct cp_measurement *m = &results->measurements[i];

		if (!is_coldcache(m) || !ends_with(m->name, PASS_SUFFIX) ||
		    !m->nr_samples || strcmp(m->mode, "kernel") == 0)
			continue;
		if (!header)
			print_header(out, m);
		header = true;
		print_row(out, results, m);
	}
	print_kernel(out, results);
	if (!header)
		return;
	fprintf(out, "\ncoldcache targets\n");
	print_cost_targets(out, results);
	print_bandwidth(out, results);
}
