// SPDX-License-Identifier: GPL-2.0
/*
 * The coldcache area: how cold does each eviction method leave a working
 * set?  For every method (warm, garbage-naive, garbage-planned, clflush,
 * wbinvd, wbnoinvd) and working set (half of L1d, half of L2, and up to
 * 4 MiB for the last level), repeated: eviction cost, cost of the first
 * dependent pass afterwards, and the share of lines each cache level still
 * served in that pass, with a verdict.  --sweep-factor repeats
 * garbage-planned at 0.25 to 4 times the last-level cache.
 */
#include "areas/coldcache/coldcache.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "areas/coldcache/coldcache_table.h"
#include "harness/interrupt.h"
#include "harness/turns.h"
#include "areas/latency/latency_choices.h"
#include "evict/line_calibrate.h"
#include "machine/usable_cpus.h"

/* The last-level working set stays short to walk even where the cache is
 * hundreds of MiB: a first pass over 4 MiB from memory takes about 10 ms;
 * below that, the set the classifier calibrates as the last level (1.5
 * times the level before it) is the one measured. */
#define LLC_WS_CAP (4ull << 20)

static const double sweep_factors[] = { 0.25, 0.5, 0.75, 1, 2, 4 };
#define NR_SWEEP_FACTORS (sizeof(sweep_factors) / sizeof(sweep_factors[0]))

static const struct cp_coldcache_choices default_choices;

/* The references first: warm (nothing evicted) and clflush (the working
 * set's own lines flushed) are what the others are judged against. */
static const enum cp_coldcache_method method_order[] = {
	CP_COLD_WARM, CP_COLD_CLFLUSH, CP_COLD_GARBAGE_NAIVE,
	CP_COLD_GARBAGE_PLANNED, CP_COLD_WBINVD, CP_COLD_WBNOINVD,
};

static const struct cp_coldcache_choices *
choices_of(const struct cp_area_options *options)
{
	const struct cp_coldcache_choices *choices =
		cp_area_choices(options, &cp_area_coldcache);

	return choices ? choices : &default_choices;
}

/* --pages is latency's option; coldcache takes the first size it names. */
static enum cp_page_size first_pages(const struct cp_area_options *options)
{
	return cp_latency_choices_first_pages(
		cp_area_choices(options, &cp_area_latency));
}

static double factor_of(const struct cp_coldcache_choices *choices)
{
	return choices->factor > 0 ? choices->factor : CP_COLD_DEFAULT_FACTOR;
}

static bool chosen(const struct cp_coldcache_choices *choices,
		   enum cp_coldcache_method method)
{
	return !choices->methods || (choices->methods & (1u << method));
}

static uint64_t size_serving(const struct cp_cache_level *cache,
			     unsigned int cpu)
{
	for (size_t i = 0; i < cache->nr_instances; i++)
		if (cp_cpuset_test(cache->instances[i].cpus, cpu))
			return cache->instances[i].size_bytes;
	return 0;
}

/* Half of each data cache serving @cpu (the last one capped), within
 * [min, max] of the options. */
static size_t plan_default_sizes(const struct cp_topology *topology,
				 const struct cp_area_options *options,
				 unsigned int cpu, uint64_t *sizes)
{
	const struct cp_cache_level *llc = cp_plan_last_level(topology);
	uint64_t previous = 0;
	size_t n = 0;

	for (size_t i = 0; i < topology->nr_cache_levels && n < COLD_MAX_SIZES;
	     i++) {
		const struct cp_cache_level *cache = &topology->cache_levels[i];
		uint64_t whole = size_serving(cache, cpu), size = whole / 2;

		if (cache->type == CP_CACHE_INSTRUCTION || !size)
			continue;
		/* The set calibrated as the last level (line_calibrate.h). */
		if (cache == llc)
			size = cp_lines_llc_set_bytes(size, previous);
		if (cache == llc && size > LLC_WS_CAP)
			size = LLC_WS_CAP;
		previous = whole;
		size -= size % COLD_LINE_SIZE;
		if (size < 2 * COLD_LINE_SIZE ||
		    (options->min_size_bytes && size < options->min_size_bytes) ||
		    (options->max_size_bytes && size > options->max_size_bytes) ||
		    (n && size <= sizes[n - 1]))
			continue;
		sizes[n++] = size;
	}
	return n;
}

/*
 * The working sets: the defaults the size options let through, or, when
 * they let none through, the bounds themselves: whoever writes
 * --min-size 1M --max-size 1M wants 1 MiB measured, whatever the caches
 * of this machine are.  The option parser keeps each bound at two lines
 * or more.
 */
static size_t plan_sizes(const struct cp_topology *topology,
			 const struct cp_area_options *options,
			 unsigned int cpu, uint64_t *sizes)
{
	uint64_t min = options->min_size_bytes - options->min_size_bytes %
						 COLD_LINE_SIZE;
	uint64_t max = options->max_size_bytes - options->max_size_bytes %
						 COLD_LINE_SIZE;
	size_t n = plan_default_sizes(topology, options, cpu, sizes);

	if (n)
		return n;
	if (min)
		sizes[n++] = min;
	if (max && max != min)
		sizes[n++] = max;
	return n;
}

static int first_cpu(const struct cp_area_options *options,
		     const struct cp_topology *topology)
{
	return options->cpus ? cp_cpuset_first(options->cpus)
			     : cp_usable_default_cpu(topology);
}

static int check_coldcache(const struct cp_area_options *options,
			   const struct cp_topology *topology,
			   struct cp_error *error)
{
	uint64_t sizes[COLD_MAX_SIZES];
	int cpu = first_cpu(options, topology);

	if (cpu < 0)
		return cp_error_set(error, EINVAL, "coldcache: no CPU to run on");
	if (!cp_plan_last_level(topology))
		return cp_error_set(error, EINVAL,
				    "coldcache: the topology shows no data cache");
	if (!plan_sizes(topology, options, (unsigned int)cpu, sizes))
		return cp_error_set(error, EINVAL,
				    "coldcache: the topology shows no data cache of two lines or more");
	if (first_pages(options) == CP_PAGES_1G)
		return cp_error_set(error, EINVAL,
				    "--pages: coldcache takes 4k or 2m: its working sets, a dozen and more, would each take a 1 GiB page of their own");
	return 0;
}

static int pin(unsigned int cpu, cpu_set_t *previous, struct cp_error *error)
{
	cpu_set_t mask;

	if (sched_getaffinity(0, sizeof(*previous), previous))
		return cp_error_set(error, errno,
				    "coldcache: cannot read the CPU affinity");
	CPU_ZERO(&mask);
	CPU_SET(cpu, &mask);
	if (sched_setaffinity(0, sizeof(mask), &mask))
		return cp_error_set(error, errno,
				    "coldcache: cannot run on CPU %u", cpu);
	return 0;
}

/*
 * A method named in --methods that cannot run here is an error before
 * anything is measured: a run that drops the only method asked for and
 * exits 0 answers a question nobody asked.  Without --methods, the run
 * measures what it can and notes the rest.
 */
static int check_asked_methods(const struct cold_run *run,
			       struct cp_error *error)
{
	char why[160];

	if (!run->choices->methods)
		return 0;
	for (size_t i = 0; i < CP_COLD_NR_METHODS; i++) {
		enum cp_coldcache_method method = (enum cp_coldcache_method)i;

		if (chosen(run->choices, method) &&
		    !cold_available(run, method, why, sizeof(why)))
			return cp_error_set(error, ENODEV,
					    "coldcache: --methods %s: %s",
					    cp_coldcache_method_name(method),
					    why);
	}
	return 0;
}

static void open_module(struct cold_run *run)
{
	struct cp_error error;

	if (!chosen(run->choices, CP_COLD_WBINVD) &&
	    !chosen(run->choices, CP_COLD_WBNOINVD))
		return;
	struct cp_module_info info;

	if (cp_client_open(run->context->options->transport, &run->client,
			   &error)) {
		run->client = NULL;
		snprintf(run->client_why, sizeof(run->client_why), "%s",
			 error.msg);
		return;
	}
	/* A CPU without WBNOINVD (before Ice Lake and Zen 2) makes that
	 * method unavailable, as a missing module does, not the run fail. */
	if (cp_client_info(run->client, &info, &error)) {
		snprintf(run->wbnoinvd_why, sizeof(run->wbnoinvd_why),
			 "cannot ask the module whether the CPU has it: %.180s",
			 error.msg);
		return;
	}
	run->wbnoinvd = info.features & CACHEPROBE_FEAT_WBNOINVD;
	if (!run->wbnoinvd)
		snprintf(run->wbnoinvd_why, sizeof(run->wbnoinvd_why),
			 "this CPU has no WBNOINVD (the module's features)");
	cp_module_info_free(&info);
}

/* The window a sweep factor's plan reads, from the run's plan: windows
 * scale with the factor, except where the plans' floors raise the
 * smaller ones, so this errs low for them. */
static uint64_t sweep_window(const struct cold_run *run, double factor)
{
	return (uint64_t)((double)run->plan.total_bytes * factor /
			  run->plan.factor);
}

/* The largest window garbage-planned reads: the plan's, or the sweep's
 * largest factor's (with a page of rounding per reader). */
static uint64_t largest_window(const struct cold_run *run)
{
	uint64_t bytes = run->plan.total_bytes, swept;

	if (!run->choices->sweep)
		return bytes;
	swept = sweep_window(run, sweep_factors[NR_SWEEP_FACTORS - 1]) +
		run->plan.nr_readers * CP_PLAN_GRANULE;
	return swept > bytes ? swept : bytes;
}

/* The smallest: the plan's, or the sweep's smallest factor's. */
static uint64_t smallest_window(const struct cold_run *run)
{
	uint64_t bytes = run->plan.total_bytes, swept;

	if (!run->choices->sweep)
		return bytes;
	swept = sweep_window(run, sweep_factors[0]);
	return swept && swept < bytes ? swept : bytes;
}

static uint64_t all_last_levels(const struct cp_eviction_plan *plan)
{
	uint64_t bytes = 0;

	for (size_t d = 0; d < plan->nr_domains; d++)
		bytes += plan->domains[d].llc_bytes;
	return bytes;
}

static int prepare(struct cold_run *run, struct cp_error *error)
{
	const struct cp_area_options *options = run->context->options;
	int ret;

	run->repetitions = run->choices->repetitions
				   ? run->choices->repetitions
				   : CP_COLD_DEFAULT_REPETITIONS;
	run->flush = cp_flush_instruction_detect();
	for (size_t i = 0; i < COLD_MAX_SIZES; i++)
		run->warm_cached_ppm[i] = run->clflush_median_ppm[i] =
			run->clflush_worst_ppm[i] = -1;
	run->nr_sizes = plan_sizes(run->context->topology, options, run->cpu,
				   run->sizes);
	ret = cp_plan_eviction(run->context->topology, options->cpus,
			       factor_of(run->choices), 0, &run->plan, error);
	if (ret)
		return ret;
	ret = cp_garbage_alloc(&run->garbage, smallest_window(run),
			       largest_window(run), all_last_levels(&run->plan));
	if (ret)
		return cp_error_set(error, -ret,
				    "coldcache: no memory for the garbage (windows of up to %llu bytes, and naive's %llu)",
				    (unsigned long long)largest_window(run),
				    (unsigned long long)CP_NAIVE_GARBAGE_BYTES);
	ret = cp_readers_start(&run->plan, &run->readers, error);
	if (ret)
		return ret;
	open_module(run);
	ret = check_asked_methods(run, error);
	return ret ? ret : cold_calibrate(run, error);
}

void cold_progress(struct cold_run *run, const char *label, uint64_t size)
{
	double total = (double)run->progress_total;
	double done = (double)run->progress_done++;
	char what[96], size_text[32];

	if (!run->context->progress)
		return;
	cp_name_bytes(size, size_text, sizeof(size_text));
	snprintf(what, sizeof(what), "%s %s", label, size_text);
	/* Retaken repetitions go past the total. */
	run->context->progress(run->context->progress_data, what,
			       done < total ? done : total, total);
}

/* The sweep's working set: half L2, the middle default size. */
static size_t sweep_index(const struct cold_run *run)
{
	return run->nr_sizes > 1 ? 1 : 0;
}

/* The sweep's entries: every factor, and naive beside them. */
static size_t sweep_entries(const struct cold_run *run)
{
	if (!run->choices->sweep)
		return 0;
	return NR_SWEEP_FACTORS +
	       chosen(run->choices, CP_COLD_GARBAGE_NAIVE);
}

static void add_entry(struct cold_entry *entry,
		      enum cp_coldcache_method method,
		      const struct cp_eviction_plan *plan, size_t size_index,
		      uint64_t size, const char *label)
{
	*entry = (struct cold_entry){ .method = method, .plan = plan,
				      .size_index = size_index, .size = size };
	snprintf(entry->label, sizeof(entry->label), "%s", label);
}

/* Every chosen method that can run, at every size, in the order they
 * are recorded: references first (warm, nothing evicted; clflush, the
 * working set's own lines flushed), as the others are judged against
 * them.  The rest are noted as unavailable. */
static size_t plan_entries(struct cold_run *run, struct cold_entry *entries)
{
	size_t n = 0;
	char why[160];

	for (size_t m = 0; m < CP_COLD_NR_METHODS; m++) {
		enum cp_coldcache_method method = method_order[m];
		const char *name = cp_coldcache_method_name(method);

		if (!chosen(run->choices, method))
			continue;
		if (!cold_available(run, method, why, sizeof(why))) {
			cold_record_unavailable(run, method, why);
			continue;
		}
		for (size_t i = 0; i < run->nr_sizes; i++)
			/* naive's on the sweep's set is measured beside it */
			if (method != CP_COLD_GARBAGE_NAIVE ||
			    !run->choices->sweep || i != sweep_index(run))
				add_entry(&entries[n++], method, &run->plan, i,
					  run->sizes[i], name);
	}
	return n;
}

/* Each factor against naive (entries[0]), turn by turn. */
static void pair_with_naive(struct cold_entry *entries, size_t n)
{
	const struct cold_outcome *naive = &entries[0].outcome;

	for (size_t e = 1; e < n; e++) {
		struct cold_outcome *out = &entries[e].outcome;

		cp_paired_compare(out->turn, out->cached_ppm, out->nr,
				  naive->turn, naive->cached_ppm, naive->nr,
				  &out->against_naive);
		out->paired_with_naive = true;
	}
}

/*
 * garbage-planned at each sweep factor and garbage-naive (when chosen) on
 * the sweep's working set, side by side: repetition by repetition in
 * turn, so the comparison of their worst cases is not a comparison of
 * two moments of a shared host.
 */
static int sweep(struct cold_run *run, struct cp_error *error)
{
	struct cp_eviction_plan plans[NR_SWEEP_FACTORS];
	struct cold_entry entries[NR_SWEEP_FACTORS + 1];
	struct cold_rotation rotation;
	size_t index = sweep_index(run), n = 0, nr_plans = 0;
	uint64_t size = run->sizes[index];
	char label[48];
	int ret = 0;

	if (chosen(run->choices, CP_COLD_GARBAGE_NAIVE))
		add_entry(&entries[n++], CP_COLD_GARBAGE_NAIVE, &run->plan,
			  index, size, "garbage-naive");
	for (; nr_plans < NR_SWEEP_FACTORS && !ret; nr_plans++) {
		ret = cp_plan_eviction(run->context->topology,
				       run->context->options->cpus,
				       sweep_factors[nr_plans], 0,
				       &plans[nr_plans], error);
		if (ret)
			break;
		snprintf(label, sizeof(label), "garbage-planned x%g",
			 sweep_factors[nr_plans]);
		add_entry(&entries[n++], CP_COLD_GARBAGE_PLANNED,
			  &plans[nr_plans], index, size, label);
	}
	/* Its measurements get the clock of its own rounds. */
	memset(&run->clock, 0, sizeof(run->clock));
	if (!ret)
		ret = cold_rotation_start(run, &rotation, entries, n, error);
	if (!ret) {
		ret = cold_take_rounds(run, &rotation, NULL, false, error);
		cold_rotation_end(&rotation);
		if ((!ret || ret == -EINTR) &&
		    entries[0].method == CP_COLD_GARBAGE_NAIVE)
			pair_with_naive(entries, n);
		ret = cold_finish_rounds(run, entries, n, ret, error);
	}
	while (nr_plans)
		cp_plan_free(&plans[--nr_plans]);
	return ret;
}

/* "70, 96" for the plateaus of the merged group ending at @last. */
static void group_plateaus(const struct cp_line_levels *levels, size_t last,
			   char *out, size_t len)
{
	size_t first = cp_line_levels_group_first(levels, last);
	size_t used = 0;

	out[0] = '\0';
	for (size_t k = first; k <= last && used < len; k++)
		used += (size_t)snprintf(out + used, len - used, "%s%.0f",
					 k > first ? ", " : "",
					 levels->plateau_ticks[k]);
}

/* ", its calibration set read 97 % in it" for the group ending at @last:
 * the share of its levels' calibration lines the thresholds put in the
 * group; "" when no pass was judged. */
static void group_own_share(const struct cp_line_levels *levels,
			    size_t last, char *out, size_t len)
{
	size_t first = cp_line_levels_group_first(levels, last);

	out[0] = '\0';
	if (first == last && levels->own_share[last] >= 0)
		snprintf(out, len, ", its calibration set read %.0f %% in it",
			 100 * levels->own_share[last]);
}

/* "L2 57 %, L3 94 %": each level's calibration set, the share read in
 * the level itself, for the group ending at @last; "" when no pass was
 * judged. */
static void group_own_shares(const struct cp_line_levels *levels,
			     size_t last, char *out, size_t len)
{
	size_t first = cp_line_levels_group_first(levels, last);
	size_t used = 0;

	out[0] = '\0';
	for (size_t k = first; k <= last && used < len; k++) {
		if (levels->own_share[k] < 0)
			continue;
		used += (size_t)snprintf(out + used, len - used, "%s%s %.0f %%",
					 used ? ", " : "", levels->names[k],
					 100 * levels->own_share[k]);
	}
}

/* Whether a merge within the group ending at @last was made because
 * the levels' lines read alike. */
static bool merged_on_lines(const struct cp_line_levels *levels,
			    size_t last)
{
	for (size_t k = cp_line_levels_group_first(levels, last); k < last;
	     k++)
		if (levels->merged_on_lines[k])
			return true;
	return false;
}

/* The notes of a merged group ending at @k: why, and how each of its
 * levels' calibration sets read line by line. */
static void note_merge(struct cold_run *run,
		       const struct cp_line_levels *levels, size_t k,
		       const char *group, double spread, const char *what)
{
	char plateaus[64], shares[96];

	group_plateaus(levels, k, plateaus, sizeof(plateaus));
	if (merged_on_lines(levels, k))
		cold_note(run, "%s: %s merged (plateaus %s ticks): their calibration sets' lines read alike, line by line",
			  what, group, plateaus);
	else
		cold_note(run, "%s: %s merged (plateaus %s ticks): the timer's spread (%.0f ticks) or the plateaus cannot tell them apart line by line",
			  what, group, plateaus, spread);
	group_own_shares(levels, k, shares, sizeof(shares));
	if (shares[0])
		cold_note(run, "%s: %s, each level's calibration set read in that level itself: %s",
			  what, group, shares);
}

/* Which instrument the levels came from: the issue of a classifier whose
 * thresholds were measured one way and its lines timed another. */
static void note_levels(struct cold_run *run)
{
	cold_note(run, "classifier: levels measured in this run with the first passes' timer (a fenced load per line) on sets laid out like the working sets (one line per 4 KiB, %s pages), not from latency's chase",
		  run->pages == CP_PAGES_4K ? "4 KiB" : "2 MiB");
	cold_note_levels(run, &run->levels, run->calibration_floor.spread,
			 "classifier");
}

void cold_note_levels(struct cold_run *run, const struct cp_line_levels *levels,
		      double spread, const char *what)
{
	for (size_t k = 0; k < levels->nr; k++) {
		char group[48], own[64];

		if (levels->merged[k])
			continue;
		cp_line_levels_group_name(levels, k, group, sizeof(group));
		group_own_share(levels, k, own, sizeof(own));
		if (k + 1 < levels->nr)
			cold_note(run, "%s level %s: plateau %.0f ticks, up to %.0f ticks%s",
				  what, group, levels->plateau_ticks[k],
				  levels->threshold_ticks[k], own);
		else
			cold_note(run, "%s level %s: plateau %.0f ticks, anything slower%s",
				  what, group, levels->plateau_ticks[k], own);
		if (strchr(group, '+'))
			note_merge(run, levels, k, group, spread, what);
	}
}

/* The order of the methods (method_order) and, within it, of the sizes;
 * with @size_first, of the sizes and, within, of the methods. */
static int entry_rank(const struct cold_entry *entry, bool size_first)
{
	int method = 0;

	while (method_order[method] != entry->method)
		method++;
	return size_first ? (int)entry->size_index * CP_COLD_NR_METHODS + method
			  : method * COLD_MAX_SIZES + (int)entry->size_index;
}

static int by_size(const void *a, const void *b)
{
	return entry_rank(a, true) - entry_rank(b, true);
}

static int by_method(const void *a, const void *b)
{
	return entry_rank(a, false) - entry_rank(b, false);
}

/* Bytes the working sets of @n @entries span together. */
static uint64_t sets_bytes(const struct cold_entry *entries, size_t n)
{
	uint64_t bytes = 0;

	for (size_t e = 0; e < n; e++)
		bytes += entries[e].size / COLD_LINE_SIZE *
			 cold_line_stride(entries[e].size);
	return bytes;
}

/* What the working sets of one rotation may span: half of the memory
 * free now (the garbage pool already taken), less the naive buffers yet
 * to come (cp_garbage_redraw_naive keeps some, and maps one more while
 * it fills the next). */
static uint64_t sets_budget(const struct cold_run *run)
{
	long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t naive = chosen(run->choices, CP_COLD_GARBAGE_NAIVE)
				 ? (CP_NAIVE_KEPT + 1) * CP_NAIVE_GARBAGE_BYTES
				 : 0;
	uint64_t half;

	if (pages <= 0 || page <= 0)
		return UINT64_MAX;
	half = (uint64_t)pages * (uint64_t)page / 2;
	return half > naive ? half - naive : 0;
}

/* How many entries from @entries on share the first one's size. */
static size_t same_size(const struct cold_entry *entries, size_t n)
{
	size_t count = 1;

	while (count < n && entries[count].size_index == entries[0].size_index)
		count++;
	return count;
}

static int measure_group(struct cold_run *run, struct cold_entry *group,
			 size_t n, struct cold_bandwidth *bw,
			 struct cp_error *error)
{
	struct cold_rotation rotation;
	int ret = cold_rotation_start(run, &rotation, group, n, error);

	if (ret)
		return ret;
	ret = cold_take_rounds(run, &rotation, bw, true, error);
	cold_rotation_end(&rotation);
	run->rounds_cut |= ret != 0;
	return ret;
}

/* Every method at every size, and the bandwidth, in rounds: all in one
 * rotation, or, where their working sets would not fit in half the free
 * memory at once (large sizes from --min-size), a rotation per size. */
static int measure_methods(struct cold_run *run, struct cp_error *error)
{
	struct cold_entry entries[CP_COLD_NR_METHODS * COLD_MAX_SIZES];
	bool bandwidth = chosen(run->choices, CP_COLD_GARBAGE_PLANNED);
	size_t n = plan_entries(run, entries), first = 0;
	uint64_t bytes = sets_bytes(entries, n);
	bool split = bytes > sets_budget(run);
	struct cold_bandwidth bw = { 0 };
	struct cp_error later;
	int ret = 0, recorded;

	run->progress_total = (n + sweep_entries(run)) * run->repetitions;
	if (chosen(run->choices, CP_COLD_GARBAGE_NAIVE))
		cold_note(run, "garbage-naive: each repetition is a loop's second read of a 64 MiB buffer it has just filled (a new one each time, read once before it): a loop that reads one buffer on and on evicts less as it settles in the last level");
	if (split) {
		qsort(entries, n, sizeof(entries[0]), by_size);
		cold_note(run, "working sets measured one size at a time: together they would span %llu MiB, more than half the memory free",
			  (unsigned long long)(bytes >> 20));
	}
	if (bandwidth)
		ret = cold_bandwidth_start(run, &bw, error);
	for (size_t count; !ret && first < n; first += count) {
		count = split ? same_size(entries + first, n - first)
			      : n - first;
		ret = measure_group(run, entries + first, count,
				    bandwidth ? &bw : NULL, error);
		/* Between sizes as between rounds, the other areas measure. */
		if (!ret && first + count < n)
			ret = cp_turn_pass();
	}
	/* The floor is every run's first measurement, rounds or none. */
	if (!run->floor_rounds && !ret && cold_probe_floor(run))
		ret = cp_error_set(error, ENOMEM, "coldcache: no memory");
	if (split)
		qsort(entries, n, sizeof(entries[0]), by_method);
	if (cold_record_floor(run) && !ret)
		ret = cp_error_set(error, ENOMEM, "coldcache: no memory");
	ret = cold_finish_rounds(run, entries, n, ret, error);
	recorded = bandwidth ? cold_bandwidth_record(run, &bw,
						     ret ? &later : error)
			     : 0;
	return ret ? ret : recorded;
}

static int run_all(struct cold_run *run, struct cp_error *error)
{
	int ret;

	if (run->context->options->mode == CP_AREA_MODE_KERNEL) {
		if (cold_probe_floor(run) || cold_record_floor(run))
			return cp_error_set(error, ENOMEM,
					    "coldcache: no memory");
		return cold_kernel_measure(run, error);
	}
	note_levels(run);
	ret = measure_methods(run, error);
	if (!ret && run->choices->sweep)
		ret = sweep(run, error);
	if (!ret && run->kernel_client)
		ret = cold_kernel_measure(run, error);
	if (cp_interrupt_requested())
		return -EINTR;
	return ret;
}

static int run_coldcache(struct cp_area_context *context,
			 struct cp_error *error)
{
	struct cold_run run = {
		.context = context, .choices = choices_of(context->options),
	};
	int cpu = first_cpu(context->options, context->topology);
	cpu_set_t previous;
	int ret;

	if (cpu < 0)
		return cp_error_set(error, EINVAL, "coldcache: no CPU to run on");
	run.cpu = (unsigned int)cpu;
	run.pages = first_pages(context->options);
	ret = cold_kernel_open(&run, error);
	if (ret)
		return ret;
	ret = pin(run.cpu, &previous, error);
	if (ret) {
		if (run.kernel_client)
			cp_client_close(run.kernel_client);
		return ret;
	}
	ret = prepare(&run, error);
	if (!ret)
		ret = run_all(&run, error);
	if (run.client)
		cp_client_close(run.client);
	if (run.kernel_client)
		cp_client_close(run.kernel_client);
	cp_readers_stop(run.readers);
	cp_garbage_free(&run.garbage);
	free(run.floor_steps);
	cp_plan_free(&run.plan);
	sched_setaffinity(0, sizeof(previous), &previous);
	return ret;
}

const struct cp_area cp_area_coldcache = {
	.name = "coldcache",
	.description = "how cold is cold: eviction methods (garbage reads, clflush, WBINVD) for cost and residual warmth",
	.run = run_coldcache,
	.check = check_coldcache,
	.print = cli_print_coldcache,
	.report = &report_coldcache,
	.options = cp_coldcache_options,
	.choices_size = sizeof(struct cp_coldcache_choices),
};
