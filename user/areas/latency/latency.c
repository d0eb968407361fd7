// SPDX-License-Identifier: GPL-2.0
/*
 * The latency area: a dependent random pointer chase over working sets
 * from well inside L1 to past the last-level cache, four sizes per octave
 * (1, 1.25, 1.5, 1.75 times a power of two), and the cache levels read off
 * the curve (areas/latency/latency_levels.h).
 *
 * --mode kernel (or both, the default when the module answers) measures
 * the same sizes with the module's CHASE: random order, stride the line
 * size, on the same CPU with preemption and interrupts off, the hops per
 * sample sized so that a sample uses at most half the module's
 * interrupt-off window (client/kernel_call.h); sizes above the module's
 * largest buffer are skipped with a note.  Kernel measurements are named
 * "chase SIZE (kernel)" and marked mode "kernel".  The cache levels and
 * their thresholds come from the user-mode curve when user mode ran (it is
 * what other areas' user-mode loads are classified against), from the
 * kernel curve only when kernel mode ran alone.
 */
#include "areas/area.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "areas/latency/latency_table.h"
#include "harness/chase.h"
#include "harness/interrupt.h"
#include "areas/latency/latency_choices.h"
#include "areas/latency/latency_kernel.h"
#include "areas/latency/latency_kernel_run.h"
#include "areas/latency/latency_levels.h"
#include "areas/latency/latency_variants.h"
#include "util/name_bytes.h"
#include "harness/harness_results.h"
#include "harness/harness_rounds.h"
#include "harness/rounds.h"
#include "harness/stability.h"
#include "measure/rng.h"
#include "machine/usable_cpus.h"

#define DEFAULT_MIN_SIZE (4ull << 10)
/* A default run stays short even where the last-level cache is huge. */
#define DEFAULT_MAX_SIZE_CAP (256ull << 20)
#define LLC_MULTIPLE 4
#define DEFAULT_LINE_SIZE 64
#define STEPS_PER_OCTAVE 4
/* Rough cost of building and priming a chase (3.5 measured on a 2-vCPU
 * Xeon guest), for progress and for how many rounds a size can afford. */
#define ROUND_SETUP_NS_PER_BYTE 3.5
#define ROUND_SETUP_BUDGET_NS 1e9
#define MIN_ROUNDS 2

/* One curve: the pages of the buffer and the chases followed at once. */
struct latency_variant {
	enum cp_page_size pages;
	unsigned int chases;
};

struct latency_plan {
	int cpu;
	/* The first is the classic curve: the first huge pages listed,
	 * one chase; the cache levels come from it. */
	size_t nr_variants;
	struct latency_variant variants[CP_LATENCY_MAX_PAGE_SIZES *
					CP_CHASE_MAX_CHASES];
	size_t line_size;
	size_t nr_sizes;
	uint64_t sizes[128];
	size_t nr_nominal;
	struct cp_nominal_level nominal[CP_MAX_LEVELS];
};

/* The instance of @cache that serves @cpu (its size), or 0. */
static uint64_t instance_size(const struct cp_cache_level *cache, int cpu)
{
	for (size_t i = 0; i < cache->nr_instances; i++)
		if (cp_cpuset_test(cache->instances[i].cpus, (unsigned int)cpu))
			return cache->instances[i].size_bytes;
	return 0;
}

static void plan_levels(const struct cp_topology *topology,
			struct latency_plan *plan)
{
	plan->line_size = DEFAULT_LINE_SIZE;
	for (size_t i = 0; i < topology->nr_cache_levels &&
			   plan->nr_nominal < CP_MAX_LEVELS - 1; i++) {
		const struct cp_cache_level *cache = &topology->cache_levels[i];
		struct cp_nominal_level *nominal =
			&plan->nominal[plan->nr_nominal];

		if (cache->type == CP_CACHE_INSTRUCTION)
			continue;
		nominal->size_bytes = instance_size(cache, plan->cpu);
		if (!nominal->size_bytes)
			continue;
		cp_cache_level_name(cache, nominal->name, sizeof(nominal->name));
		if (cache->level == 1 && cache->line_size)
			plan->line_size = cache->line_size;
		plan->nr_nominal++;
	}
}

static uint64_t default_max_size(const struct latency_plan *plan)
{
	uint64_t llc = plan->nr_nominal
			       ? plan->nominal[plan->nr_nominal - 1].size_bytes
			       : 0;

	if (!llc || llc * LLC_MULTIPLE > DEFAULT_MAX_SIZE_CAP)
		return DEFAULT_MAX_SIZE_CAP;
	return llc * LLC_MULTIPLE;
}

static void plan_sizes(const struct cp_area_options *options,
		       struct latency_plan *plan)
{
	uint64_t min = options->min_size_bytes ? options->min_size_bytes
					       : DEFAULT_MIN_SIZE;
	uint64_t max = options->max_size_bytes ? options->max_size_bytes
					       : default_max_size(plan);

	if (!options->max_size_bytes && options->default_max_cap_bytes &&
	    max > options->default_max_cap_bytes)
		max = options->default_max_cap_bytes;

	for (uint64_t octave = 1; octave <= max && plan->nr_sizes <
			 sizeof(plan->sizes) / sizeof(plan->sizes[0]); octave *= 2) {
		for (unsigned int step = 0; step < STEPS_PER_OCTAVE; step++) {
			uint64_t size = octave + octave * step / STEPS_PER_OCTAVE;

			size -= size % plan->line_size;
			if (size < min || size > max ||
			    size < 2 * plan->line_size ||
			    (plan->nr_sizes &&
			     size <= plan->sizes[plan->nr_sizes - 1]))
				continue;
			plan->sizes[plan->nr_sizes++] = size;
		}
	}
}

/* The page sizes with the first huge one in front: the cache levels
 * come from its one-chase curve, the clearest (no TLB misses). */
static void huge_first(struct cp_latency_choices *choices)
{
	for (unsigned int p = 1; p < choices->nr_pages; p++) {
		enum cp_page_size pages = choices->pages[p];

		if (choices->pages[0] != CP_PAGES_4K || pages == CP_PAGES_4K)
			continue;
		memmove(choices->pages + 1, choices->pages,
			p * sizeof(choices->pages[0]));
		choices->pages[0] = pages;
		return;
	}
}

static void plan_variants(const struct cp_area_options *options,
			  struct latency_plan *plan)
{
	struct cp_latency_choices choices =
		cp_latency_choices_resolve(
			cp_area_choices(options, &cp_area_latency));

	huge_first(&choices);
	for (unsigned int p = 0; p < choices.nr_pages; p++)
		for (unsigned int c = 0; c < choices.nr_chases; c++)
			plan->variants[plan->nr_variants++] =
				(struct latency_variant){
					.pages = choices.pages[p],
					.chases = choices.chases[c],
				};
}

/* Pin to the chosen CPU; @previous keeps the affinity to go back to. */
static int plan_cpu(const struct cp_area_context *context,
		    struct latency_plan *plan, cpu_set_t *previous,
		    struct cp_error *error)
{
	const struct cp_cpuset *cpus = context->options->cpus;
	cpu_set_t mask;

	if (sched_getaffinity(0, sizeof(*previous), previous))
		return cp_error_set(error, errno,
				    "latency: cannot read the CPU affinity");
	plan->cpu = cpus ? cp_cpuset_first(cpus)
			 : cp_usable_default_cpu(context->topology);
	if (plan->cpu < 0)
		return cp_error_set(error, EINVAL, "latency: no CPU to run on");
	CPU_ZERO(&mask);
	CPU_SET(plan->cpu, &mask);
	if (sched_setaffinity(0, sizeof(mask), &mask))
		return cp_error_set(error, errno,
				    "latency: cannot run on CPU %d", plan->cpu);
	return 0;
}

/*
 * A size's rounds: as many as asked while building and priming its chase
 * that many times costs at most ROUND_SETUP_BUDGET_NS, never fewer than
 * two (one arrangement says nothing of the next).  Sets far past the
 * caches cost seconds a round and vary least from one to the next.
 */
static struct cp_rounds plan_rounds(const struct cp_harness_config *config,
				    uint64_t size)
{
	double setup_ns = (double)size * ROUND_SETUP_NS_PER_BYTE;
	unsigned int wanted = config->rounds ? config->rounds : 1;

	if (wanted > MIN_ROUNDS &&
	    setup_ns * wanted > ROUND_SETUP_BUDGET_NS) {
		double affordable = ROUND_SETUP_BUDGET_NS / setup_ns;

		wanted = affordable < MIN_ROUNDS ? MIN_ROUNDS
						 : (unsigned int)affordable;
	}
	return cp_rounds_plan(config->samples, wanted);
}

/* Each of @rounds builds and primes its own chase. */
static double size_cost(const struct cp_area_context *context, uint64_t size,
			unsigned int rounds)
{
	const struct cp_harness_config *config = &context->harness->config;

	return (config->samples + 4) * config->target_sample_ns +
	       (double)size * ROUND_SETUP_NS_PER_BYTE * rounds;
}

/* "chase 8 KiB", and for curves other than the default one its pages
 * and chases: "chase 8 KiB pages=4k chases=4". */
static void name_size(uint64_t size, const struct latency_variant *variant,
		      char *out, size_t len)
{
	char text[32], pages[16] = "", chases[16] = "";

	cp_name_bytes(size, text, sizeof(text));
	if (variant->pages != CP_PAGES_2M)
		snprintf(pages, sizeof(pages), " pages=%s",
			 cp_page_size_name(variant->pages));
	if (variant->chases != 1)
		snprintf(chases, sizeof(chases), " chases=%u",
			 variant->chases);
	snprintf(out, len, "chase %s%s%s", text, pages, chases);
}

/* Which nominal cache @size fits in, as the table's boundary marks. */
static void name_fit(const struct latency_plan *plan, uint64_t size, char *out,
		     size_t len)
{
	char size_text[32];

	for (size_t k = 0; k < plan->nr_nominal; k++) {
		if (size <= plan->nominal[k].size_bytes) {
			cp_name_bytes(plan->nominal[k].size_bytes, size_text,
				   sizeof(size_text));
			snprintf(out, len, "fits %s (%s)", plan->nominal[k].name,
				 size_text);
			return;
		}
	}
	if (!plan->nr_nominal) {
		out[0] = '\0';
		return;
	}
	cp_name_bytes(plan->nominal[plan->nr_nominal - 1].size_bytes, size_text,
		   sizeof(size_text));
	snprintf(out, len, "exceeds %s (%s)",
		 plan->nominal[plan->nr_nominal - 1].name, size_text);
}

/* Identity and parameters of a measurement of @size bytes in @mode. */
static void describe(struct cp_measurement *m, const struct latency_plan *plan,
		     uint64_t size, const struct latency_variant *variant,
		     const char *mode)
{
	snprintf(m->area, sizeof(m->area), "latency");
	snprintf(m->mode, sizeof(m->mode), "%s", mode);
	name_size(size, variant, m->name, sizeof(m->name));
	if (strcmp(mode, "user") != 0) {
		size_t len = strlen(m->name);

		snprintf(m->name + len, sizeof(m->name) - len, " (%s)", mode);
	}
	name_fit(plan, size, m->note, sizeof(m->note));
	cp_measurement_add_param(m, "size_bytes", (int64_t)size);
	cp_measurement_add_param(m, "line_bytes", (int64_t)plan->line_size);
	cp_measurement_add_param(m, "cpu", plan->cpu);
	cp_measurement_add_param(m, "page_bytes",
				 (int64_t)cp_page_size_bytes(variant->pages));
	cp_measurement_add_param(m, "chases", variant->chases);
}

/*
 * The chain's seed for size @index in round @round: mixed, so that no
 * --seed makes it 0, which the ioctl transport cannot ask the module for
 * (0 there means "draw one").  User and kernel mode use the same.
 */
static uint64_t chain_seed(const struct cp_area_context *context,
			   size_t index, unsigned int round)
{
	__u64 state = context->options->seed + index +
		      ((uint64_t)round << 32);

	return cp_splitmix64(&state);
}

/* The pages given may not be the pages asked for: say so beside the
 * figure, which belongs to the pages given. */
static void note_backing(struct cp_measurement *m,
			 const struct latency_variant *variant,
			 uint64_t backed)
{
	const char *why = strcmp(m->mode, "kernel") == 0
		? "vmalloc_huge found no free 2 MiB blocks"
		: "transparent huge pages off or memory fragmented";

	char asked[16], got[16];

	cp_measurement_add_param(m, "page_bytes_backed", (int64_t)backed);
	if (!backed || backed == cp_page_size_bytes(variant->pages))
		return;
	cp_name_bytes(cp_page_size_bytes(variant->pages), asked,
		      sizeof(asked));
	cp_name_bytes(backed, got, sizeof(got));
	cp_measurement_warn(m,
			    "asked for %s pages, the buffer got %s pages (%s): TLB misses are in this figure",
			    asked, got, why);
}

/* One size's samples as the rounds add them. */
struct size_rounds {
	struct cp_samples samples;
	uint64_t bytes;
	unsigned int loads_per_iteration;
	bool huge_pages_requested;
	/* The smallest pages any round's buffer got: a round without huge
	 * pages has TLB misses in its samples. */
	uint64_t page_bytes_backed;
	struct cp_round_clock clock;
};

static int record(struct cp_area_context *context,
		  const struct latency_plan *plan,
		  const struct latency_variant *variant,
		  struct size_rounds *acc)
{
	struct cp_measurement *m = cp_results_add(context->results);
	int ret;

	if (!m) {
		cp_samples_free(&acc->samples);
		return -ENOMEM;
	}
	describe(m, plan, acc->bytes, variant, "user");
	cp_measurement_add_param(m, "huge_pages_requested",
				 acc->huge_pages_requested);
	note_backing(m, variant, acc->page_bytes_backed);
	m->core_cycles_per_tick = cp_round_clock_mean(&acc->clock);
	ret = cp_measurement_take_samples(m, &acc->samples,
					  acc->loads_per_iteration,
					  context->clock->tsc_hz);
	if (ret)
		return ret;
	cp_stability_check(m, acc->samples.median_sample_ticks,
			   context->harness);
	cp_stability_check_core_clock(m, acc->clock.drift_before,
				      acc->clock.drift_after);
	return 0;
}

/* Why a chase could not be built, for the message. */
static const char *build_failure(int ret, enum cp_page_size pages)
{
	if (ret == -ENOMEM && pages == CP_PAGES_1G)
		return ": no 1 GiB pages free (reserve them first: /sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages)";
	return "";
}

/* What one round of @samples keeps from @chase besides them. */
static void keep_chase_facts(struct size_rounds *acc,
			     const struct cp_chase *chase)
{
	uint64_t backed = cp_chase_page_bytes(chase);

	acc->bytes = chase->nr_lines * chase->line_size;
	acc->loads_per_iteration = cp_chase_loads_per_iteration(chase);
	acc->huge_pages_requested |= chase->huge_pages_requested;
	if (!acc->page_bytes_backed || backed < acc->page_bytes_backed)
		acc->page_bytes_backed = backed;
}

/* One round's chase of one size (harness/harness_rounds.h). */
struct size_round {
	struct cp_area_context *context;
	const struct latency_plan *plan;
	size_t index;
	const struct latency_variant *variant;
	struct size_rounds *acc;
	struct cp_chase chase;
	int build_error;		/* 0, or why the chase failed */
};

/* A chase built anew: fresh pages, the round's order. */
static int build_round(void *data, unsigned int round,
		       struct cp_benchmark *benchmark)
{
	struct size_round *r = data;
	const struct cp_chase_spec spec = {
		.bytes = r->plan->sizes[r->index],
		.line_size = r->plan->line_size,
		.seed = chain_seed(r->context, r->index, round),
		.pages = r->variant->pages, .chases = r->variant->chases,
	};
	int ret = cp_chase_build_spec(&r->chase, &spec);

	if (ret) {
		r->build_error = ret;
		return ret;
	}
	keep_chase_facts(r->acc, &r->chase);
	*benchmark = (struct cp_benchmark){
		.body = cp_chase_body, .context = &r->chase,
		.scale = cp_chase_loads_per_iteration(&r->chase),
		.prime_count = r->chase.nr_lines /
				       cp_chase_loads_per_iteration(&r->chase) +
			       1,
	};
	return 0;
}

static void release_round(void *data, unsigned int round)
{
	(void)round;
	struct size_round *r = data;

	cp_chase_free(&r->chase);
}

/* Round @round of size @index: @samples samples added to @acc. */
static int measure_round(struct cp_area_context *context,
			 const struct cp_harness *harness,
			 const struct latency_plan *plan, size_t index,
			 const struct latency_variant *variant,
			 unsigned int round, unsigned int samples,
			 struct size_rounds *acc, struct cp_error *error)
{
	struct size_round data = {
		.context = context, .plan = plan, .index = index,
		.variant = variant, .acc = acc,
	};
	const struct cp_arrangement arrangement = {
		.build = build_round, .release = release_round,
		.context = &data,
	};
	int ret = cp_harness_round(harness, &arrangement, round, samples,
				   &acc->samples, &acc->clock);

	if (!ret || ret == -EINTR)
		return ret;
	if (data.build_error)
		return cp_error_set(error, -ret,
				    "latency: cannot build a %" PRIu64 "-byte chase on %s pages%s",
				    plan->sizes[index],
				    cp_page_size_name(variant->pages),
				    build_failure(ret, variant->pages));
	return cp_error_set(error, -ret, "latency: cannot keep results");
}

/* The module's name of @pages (1 GiB pages were refused before). */
static uint32_t module_pages(enum cp_page_size pages)
{
	return pages == CP_PAGES_4K ? CACHEPROBE_PAGES_4K : CACHEPROBE_PAGES_2M;
}

/* What a size's kernel rounds gather. */
struct kernel_rounds {
	double *values;			/* ticks per load */
	size_t nr_values;
	uint64_t ops;			/* loads per sample, the first round's */
	uint64_t page_bytes;		/* the smallest any round reported */
	unsigned int retries, missed_rounds, disturbed;
	struct cp_round_clock clock;
};

static int keep_kernel_round(struct kernel_rounds *acc,
			     const struct cp_run_result *result)
{
	size_t n;
	double *values = cp_latency_kernel_samples(result, &n);
	double *grown = values ? realloc(acc->values,
					 (acc->nr_values + n) *
						 sizeof(*grown))
			       : NULL;

	if (!grown) {
		free(values);
		return -ENOMEM;
	}
	memcpy(grown + acc->nr_values, values, n * sizeof(*grown));
	free(values);
	acc->values = grown;
	acc->nr_values += n;
	if (!acc->ops)
		acc->ops = result->ops;
	if (result->page_bytes &&
	    (!acc->page_bytes || result->page_bytes < acc->page_bytes))
		acc->page_bytes = result->page_bytes;
	acc->retries += result->retries;
	acc->missed_rounds += result->missed_rounds;
	acc->disturbed += result->disturbed;
	return 0;
}

/* Round @round of a working set: one CHASE request of @samples samples
 * on the round's chain (a new buffer in the module, a new order). */
static int kernel_round(struct cp_area_context *context,
			const struct latency_plan *plan,
			const struct cp_latency_kernel *kernel, size_t index,
			const struct latency_variant *variant,
			unsigned int round, unsigned int samples,
			struct kernel_rounds *acc, struct cp_error *error)
{
	const struct cp_harness_config *config = &context->harness->config;
	uint32_t loads = cp_chase_loads_of(variant->chases);
	struct cp_latency_kernel_request request = {
		.cpu = (uint32_t)plan->cpu,
		.size = plan->sizes[index],
		.stride = (uint32_t)plan->line_size,
		.samples = samples,
		.tsc_hz = context->clock->tsc_hz,
		.target_ns = config->target_sample_ns,
		.fixed_hops = config->fixed_count ? config->fixed_count * loads
						  : 0,
		.pages = module_pages(variant->pages),
		.chases = variant->chases,
		.seed = chain_seed(context, index, round),
	};
	struct cp_run_result result;
	double before, after;
	char name[64], why[sizeof(error->msg)];
	int ret;

	before = cp_clock_core_cycles_per_tick();
	ret = cp_latency_kernel_chase(kernel, &request, &result, error);
	after = cp_clock_core_cycles_per_tick();
	if (ret == -EINTR)
		return ret;
	if (ret) {
		snprintf(why, sizeof(why), "%s", error->msg);
		name_size(plan->sizes[index], variant, name, sizeof(name));
		return cp_error_set(error, -ret, "latency: kernel %s: %s", name,
				    why);
	}
	cp_round_clock_note(&acc->clock, before, after);
	ret = keep_kernel_round(acc, &result);
	cp_run_result_free(&result);
	return ret ? cp_error_set(error, -ret, "latency: no memory") : 0;
}

/* A working set's kernel rounds into a measurement in mode "kernel". */
static int record_kernel(struct cp_area_context *context,
			 const struct latency_plan *plan, size_t index,
			 const struct latency_variant *variant,
			 const struct cp_rounds *rounds,
			 struct kernel_rounds *acc)
{
	struct cp_measurement *m = cp_results_add(context->results);
	int ret;

	if (!m)
		return -ENOMEM;
	describe(m, plan, plan->sizes[index], variant, "kernel");
	note_backing(m, variant, acc->page_bytes);
	m->core_cycles_per_tick = cp_round_clock_mean(&acc->clock);
	m->count = acc->ops;
	m->scale = 1;
	m->interrupted = acc->nr_values < rounds->samples;
	m->samples_per_round = cp_rounds_marked(rounds);
	ret = cp_measurement_set_samples(m, acc->values, acc->nr_values,
					 context->clock->tsc_hz);
	acc->values = NULL;
	if (ret)
		return ret;
	cp_stability_check_ops(m, (double)acc->ops, acc->retries,
			       context->harness);
	cp_stability_note_kernel_run(m, acc->missed_rounds, acc->disturbed);
	cp_stability_check_core_clock(m, acc->clock.drift_before,
				      acc->clock.drift_after);
	return 0;
}

/* One working set measured by the module over the size's rounds, each a
 * request on its own chain; what was taken is kept after an interrupt. */
static int measure_size_kernel(struct cp_area_context *context,
			       const struct latency_plan *plan,
			       const struct cp_latency_kernel *kernel,
			       size_t index,
			       const struct latency_variant *variant,
			       struct cp_error *error)
{
	struct cp_rounds rounds = plan_rounds(&context->harness->config,
					       plan->sizes[index]);
	struct kernel_rounds acc = { 0 };
	int ret = 0, kept;

	for (unsigned int r = 0; r < rounds.rounds && !ret; r++)
		ret = kernel_round(context, plan, kernel, index, variant, r,
				   cp_rounds_samples_in(&rounds, r), &acc, error);
	if (acc.nr_values && (!ret || ret == -EINTR)) {
		kept = record_kernel(context, plan, index, variant, &rounds,
				     &acc);
		if (kept)
			ret = cp_error_set(error, -kept,
					   "latency: cannot keep results");
	}
	free(acc.values);
	return ret;
}

/*
 * Reach the module when the mode wants it: *@kernel_wanted is set when the
 * kernel sweep is to run.  AUTO falls back to user mode without a module
 * that knows CHASE; KERNEL and BOTH fail instead.
 */
static int open_module(const struct cp_area_options *options,
		       struct cp_latency_kernel *kernel, bool *kernel_wanted,
		       struct cp_error *error)
{
	int ret;

	*kernel = (struct cp_latency_kernel){ 0 };
	*kernel_wanted = false;
	if (options->mode == CP_AREA_MODE_USER)
		return 0;
	ret = cp_latency_kernel_open(options->transport, kernel, error);
	if (!ret && area_module_refuses_auto(options, kernel->client)) {
		cp_latency_kernel_close(kernel);
		return 0;
	}
	if (!ret) {
		*kernel_wanted = true;
		return 0;
	}
	return area_module_refused(options, "latency", ret, error);
}

/* The last measurement of this area in @mode, or NULL. */
static struct cp_measurement *last_of(struct cp_results *results,
				      size_t first, const char *mode)
{
	for (size_t i = results->nr_measurements; i-- > first;) {
		struct cp_measurement *m = &results->measurements[i];

		if (strcmp(m->area, "latency") == 0 &&
		    strcmp(m->mode, mode) == 0)
			return m;
	}
	return NULL;
}

/* Whether size @i has two lines or more for each of @variant's chases. */
static bool holds_chases(const struct latency_plan *plan, size_t i,
			 const struct latency_variant *variant)
{
	return plan->sizes[i] / plan->line_size >= 2ull * variant->chases;
}

/* Say which sizes a curve of many chases left out, on its last figure. */
static void note_too_small(struct cp_results *results, size_t first,
			   const char *mode, const struct latency_plan *plan,
			   const struct latency_variant *variant)
{
	struct cp_measurement *m = last_of(results, first, mode);
	char text[32];

	if (!m || holds_chases(plan, 0, variant))
		return;
	cp_name_bytes(2ull * variant->chases * plan->line_size, text,
		      sizeof(text));
	cp_measurement_warn(m,
			    "%u chases: sizes below %s left out (each chase needs two lines)",
			    variant->chases, text);
}

/* Whether @variant is the plan's first, classic, curve. */
static bool is_classic(const struct latency_plan *plan,
		       const struct latency_variant *variant)
{
	return variant == &plan->variants[0];
}

/* The kernel sweep of one curve; sizes the module cannot hold are skipped
 * and noted. */
static int run_kernel(struct cp_area_context *context,
		      const struct latency_plan *plan,
		      const struct cp_latency_kernel *kernel,
		      const struct latency_variant *variant,
		      bool user_ran, double *done, double total,
		      struct cp_error *error)
{
	size_t first = context->results->nr_measurements, skipped = 0;
	uint64_t first_skipped = 0;
	struct cp_measurement *m;
	char what[96], text[32], limit[32];
	int ret = 0;

	for (size_t i = 0; i < plan->nr_sizes && !ret; i++) {
		if (!holds_chases(plan, i, variant))
			continue;
		if (!cp_latency_kernel_fits(plan->sizes[i],
					    kernel->max_buffer_bytes)) {
			if (!skipped++)
				first_skipped = plan->sizes[i];
			continue;
		}
		if (cp_interrupt_requested())
			return -EINTR;
		name_size(plan->sizes[i], variant, what, sizeof(what));
		strncat(what, " (kernel)", sizeof(what) - strlen(what) - 1);
		if (context->progress)
			context->progress(context->progress_data, what, *done,
					  total);
		ret = measure_size_kernel(context, plan, kernel, i, variant,
					  error);
		*done += size_cost(context, plan->sizes[i], 1);
	}
	if (ret)
		return ret;
	m = last_of(context->results, first, "kernel");
	if (!m && skipped)
		return cp_error_set(error, E2BIG,
				    "latency: kernel mode: every working set is larger than the module's largest buffer (%" PRIu64 " bytes, module parameter max_buffer_mb)",
				    kernel->max_buffer_bytes);
	if (skipped) {
		cp_name_bytes(first_skipped, text, sizeof(text));
		cp_name_bytes(kernel->max_buffer_bytes, limit, sizeof(limit));
		cp_measurement_warn(m,
				    "kernel mode skipped %zu sizes from %s up: above the module's largest buffer (%s, max_buffer_mb)",
				    skipped, text, limit);
	}
	if (m && user_ran && is_classic(plan, variant))
		cp_measurement_warn(m,
				    "cache levels and thresholds come from the user-mode curve");
	note_too_small(context->results, first, "kernel", plan, variant);
	return 0;
}

/* Whether @m belongs to the classic curve (areas/latency/latency_variants.h reads
 * older files, which held only that curve, as it). */
static bool of_classic(const struct latency_plan *plan,
		       const struct cp_measurement *m)
{
	struct cp_latency_variant variant = cp_latency_variant_of(m);

	return variant.chases == 1 &&
	       variant.page_bytes ==
		       (int64_t)cp_page_size_bytes(plan->variants[0].pages);
}

/* The cache levels from the classic curve measured in @mode. */
static void derive_levels(struct cp_area_context *context,
			  const struct latency_plan *plan, const char *mode)
{
	struct cp_results *results = context->results;
	struct cp_curve_point points[128];
	size_t n = 0;

	for (size_t i = 0; i < results->nr_measurements && n < 128; i++) {
		const struct cp_measurement *m = &results->measurements[i];
		double ticks;

		if (strcmp(m->area, "latency") != 0 ||
		    strcmp(m->mode, mode) != 0 || !m->nr_samples ||
		    !of_classic(plan, m))
			continue;
		ticks = cp_stats_median(m->ticks, m->nr_samples);
		points[n++] = (struct cp_curve_point){
			.size_bytes = (uint64_t)cp_measurement_param(
				m, "size_bytes", 0),
			.ns = m->stats_ns.median,
			.ticks = ticks,
			.cycles = ticks * m->core_cycles_per_tick,
		};
	}
	results->nr_levels = cp_latency_levels(points, n, plan->nominal,
					       plan->nr_nominal,
					       results->levels);
}

/* One round over the sizes of a curve, in an order of its own, so that
 * a slow moment of the machine spreads over the sizes; @harness holds the
 * round's own floor. */
static int run_round(struct cp_area_context *context,
		     const struct cp_harness *harness,
		     const struct latency_plan *plan,
		     const struct latency_variant *variant,
		     const struct cp_rounds *rounds, unsigned int round,
		     struct size_rounds *acc, double *done, double total,
		     struct cp_error *error)
{
	size_t order[128];
	char what[96];
	int ret = 0;

	cp_rounds_order(order, plan->nr_sizes,
			chain_seed(context, plan->nr_sizes, round));
	for (size_t k = 0; k < plan->nr_sizes && !ret; k++) {
		size_t i = order[k];

		if (!holds_chases(plan, i, variant) ||
		    round >= rounds[i].rounds)
			continue;
		name_size(plan->sizes[i], variant, what, sizeof(what));
		if (context->progress)
			context->progress(context->progress_data, what, *done,
					  total);
		ret = measure_round(context, harness, plan, i, variant, round,
				    cp_rounds_samples_in(&rounds[i], round),
				    &acc[i], error);
		*done += size_cost(context, plan->sizes[i], rounds[i].rounds) /
			 rounds[i].rounds;
	}
	return ret;
}

struct user_rounds {
	struct cp_area_context *context;
	const struct latency_plan *plan;
	const struct latency_variant *variant;
	const struct cp_rounds *rounds;
	struct size_rounds *acc;
	double *done, total;
	struct cp_error *error;
};

static int next_round(const struct cp_harness *round_harness,
		      unsigned int round, void *data)
{
	struct user_rounds *u = data;

	return run_round(u->context, round_harness, u->plan, u->variant,
			 u->rounds, round, u->acc, u->done, u->total,
			 u->error);
}

/* Every size of one curve in user mode, round by round; after an
 * interrupt, what the rounds took is kept. */
static int run_user(struct cp_area_context *context,
		    const struct latency_plan *plan,
		    const struct latency_variant *variant, double *done,
		    double total, struct cp_error *error)
{
	struct cp_rounds rounds[128];
	size_t first = context->results->nr_measurements;
	struct size_rounds *acc = calloc(plan->nr_sizes, sizeof(*acc));
	struct user_rounds user = {
		.context = context, .plan = plan, .variant = variant,
		.rounds = rounds, .acc = acc, .done = done, .total = total,
		.error = error,
	};
	unsigned int most = 0;
	int ret, kept = 0;

	if (!acc)
		return cp_error_set(error, ENOMEM, "latency: no memory");
	for (size_t i = 0; i < plan->nr_sizes; i++) {
		rounds[i] = plan_rounds(&context->harness->config,
					plan->sizes[i]);
		acc[i].samples.samples_per_round =
			cp_rounds_marked(&rounds[i]);
		if (rounds[i].rounds > most)
			most = rounds[i].rounds;
	}
	ret = cp_harness_each_round(context->harness, most, next_round, &user);
	for (size_t i = 0; i < plan->nr_sizes; i++) {
		/* An interrupt between rounds left this size short too. */
		if (acc[i].samples.nr_samples < rounds[i].samples)
			acc[i].samples.interrupted = true;
		if (acc[i].samples.nr_samples && !kept)
			kept = record(context, plan, variant, &acc[i]);
		cp_samples_free(&acc[i].samples);
	}
	free(acc);
	if (kept)
		return cp_error_set(error, -kept,
				    "latency: cannot keep results");
	if (!ret)
		note_too_small(context->results, first, "user", plan, variant);
	return ret;
}

/*
 * The module (ABI 4) chooses pages and chases; an older one measures only
 * the one chase on its small pages, which is not the classic curve.
 * Refused where kernel mode was asked for, left out under auto.
 */
static int check_module_options(const struct cp_area_options *options,
				struct cp_latency_kernel *kernel,
				bool *kernel_wanted, struct cp_error *error)
{
	if (kernel->has_chase_options)
		return 0;
	if (options->mode == CP_AREA_MODE_AUTO) {
		cp_latency_kernel_close(kernel);
		*kernel_wanted = false;
		return 0;
	}
	cp_latency_kernel_close(kernel);
	*kernel_wanted = false;
	return cp_error_set(error, EOPNOTSUPP,
			    "latency: kernel mode: the loaded module cannot choose the pages or the chases of CHASE (it predates ABI 4); load this version's module");
}

/* 1 GiB pages are user mode's alone: the module maps its buffers with
 * vmalloc, on small or 2 MiB pages. */
static void note_giant_skipped(struct cp_results *results, size_t first)
{
	struct cp_measurement *m = last_of(results, first, "kernel");

	if (m)
		cp_measurement_warn(m,
				    "kernel mode has no 1 GiB pages (the module maps its buffers with vmalloc): the pages=1g curve is user mode's only");
}

/* Every curve, user mode first (the levels come from it), then kernel. */
static int run_curves(struct cp_area_context *context,
		      const struct latency_plan *plan,
		      const struct cp_latency_kernel *kernel,
		      bool user_wanted, bool kernel_wanted,
		      struct cp_error *error)
{
	double total = 0, done = 0;
	bool giant = false;
	size_t first;
	int ret = 0;

	for (size_t i = 0; i < plan->nr_sizes; i++) {
		unsigned int rounds = plan_rounds(&context->harness->config,
						  plan->sizes[i]).rounds;

		total += (double)plan->nr_variants *
			 ((user_wanted ? size_cost(context, plan->sizes[i],
						   rounds) : 0) +
			  (kernel_wanted ? size_cost(context, plan->sizes[i],
						     1) : 0));
	}
	for (size_t v = 0; user_wanted && v < plan->nr_variants && !ret; v++)
		ret = run_user(context, plan, &plan->variants[v], &done, total,
			       error);
	first = context->results->nr_measurements;
	for (size_t v = 0; kernel_wanted && v < plan->nr_variants && !ret; v++) {
		if (plan->variants[v].pages == CP_PAGES_1G) {
			giant = true;
			continue;
		}
		ret = run_kernel(context, plan, kernel, &plan->variants[v],
				 user_wanted, &done, total, error);
	}
	if (giant && !ret)
		note_giant_skipped(context->results, first);
	return ret;
}

static int run_latency(struct cp_area_context *context, struct cp_error *error)
{
	struct latency_plan plan = { 0 };
	struct cp_latency_kernel kernel;
	bool kernel_wanted, user_wanted;
	cpu_set_t previous;
	int ret = plan_cpu(context, &plan, &previous, error);

	if (ret)
		return ret;
	plan_levels(context->topology, &plan);
	plan_sizes(context->options, &plan);
	plan_variants(context->options, &plan);
	if (!plan.nr_sizes) {
		sched_setaffinity(0, sizeof(previous), &previous);
		return cp_error_set(error, EINVAL,
				    "latency: no working-set size between the minimum and maximum");
	}
	ret = open_module(context->options, &kernel, &kernel_wanted, error);
	if (!ret && kernel_wanted)
		ret = check_module_options(context->options, &kernel,
					   &kernel_wanted, error);
	if (ret) {
		sched_setaffinity(0, sizeof(previous), &previous);
		return ret;
	}
	user_wanted = context->options->mode != CP_AREA_MODE_KERNEL;
	ret = run_curves(context, &plan, &kernel, user_wanted, kernel_wanted,
			 error);
	cp_latency_kernel_close(&kernel);
	/* Levels from what was measured, also after an interrupt. */
	derive_levels(context, &plan, user_wanted ? "user" : "kernel");
	sched_setaffinity(0, sizeof(previous), &previous);
	return ret;
}

/* 1 GiB pages in kernel mode alone cannot be measured at all. */
static int check_latency(const struct cp_area_options *options,
			 const struct cp_topology *topology,
			 struct cp_error *error)
{
	struct cp_latency_choices choices =
		cp_latency_choices_resolve(
			cp_area_choices(options, &cp_area_latency));

	(void)topology;
	if (options->mode != CP_AREA_MODE_KERNEL)
		return 0;
	for (unsigned int i = 0; i < choices.nr_pages; i++)
		if (choices.pages[i] == CP_PAGES_1G)
			return cp_error_set(error, EINVAL,
					    "--pages: 1g is user mode's only (the module maps its buffers with vmalloc: 4k or 2m); drop it or use --mode both");
	return 0;
}

const struct cp_area cp_area_latency = {
	.name = "latency",
	.check = check_latency,
	.description = "load latency against working-set size (random pointer chase, user and kernel mode); cache levels and their effective sizes",
	.run = run_latency,
	.print = cli_print_latency_summary,
	.report = &report_latency,
	.options = cp_latency_options,
	.choices_size = sizeof(struct cp_latency_choices),
};
