// SPDX-License-Identifier: GPL-2.0
/*
 * coldcache in kernel mode: the module's CHASE command with PREPARE NONE
 * (warm), CLFLUSH (clflush) or WBINVD (wbinvd) before every sample, the
 * sample being one full pass over the module's buffer (OPS = its lines),
 * so eviction and first pass happen with nothing in between.  The module
 * times whole samples, not single loads: kernel mode gives the first-pass
 * cost per access, and its verdict compares that cost with warm's and
 * clflush's.  A pass longer than the module's interrupt-off window
 * (EOVERFLOW) is reported as such and skipped.
 */
#include "areas/coldcache/coldcache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/interrupt.h"
#include "harness/stability.h"

static const struct {
	enum cp_coldcache_method method;
	enum cacheprobe_prepare prepare;
} kernel_methods[] = {
	{ CP_COLD_WARM, CACHEPROBE_PREPARE_NONE },
	{ CP_COLD_CLFLUSH, CACHEPROBE_PREPARE_CLFLUSH },
	{ CP_COLD_WBINVD, CACHEPROBE_PREPARE_WBINVD },
};
#define NR_KERNEL_METHODS (sizeof(kernel_methods) / sizeof(kernel_methods[0]))

enum cold_verdict cold_judge_cost(double median, double warm, double flushed)
{
	if (warm > 0 && median <= warm * COLD_COST_LIKE_WARM)
		return COLD_VERDICT_DID_NOT_EVICT;
	if (flushed > 0 && median >= flushed * COLD_COST_LIKE_CLFLUSH)
		return COLD_VERDICT_AS_COLD_AS_CLFLUSH;
	return COLD_VERDICT_PARTLY;
}

int cold_kernel_open(struct cold_run *run, struct cp_error *error)
{
	static const struct area_module_need need = {
		"coldcache", 2, "CHASE command",
	};
	struct cp_module_info info;
	int ret = area_open_module(run->context->options, &need,
				   &run->kernel_client, &info, error);

	/* From ABI 4 on, the module's buffer is on the user's pages too;
	 * before, on 4 KiB pages, and the notes say so. */
	run->kernel_pages = 0;
	if (run->kernel_client) {
		run->kernel_abi = info.abi_version;
		run->kernel_max_buffer = info.max_buffer_bytes;
		run->kernel_clflush = info.features & CACHEPROBE_FEAT_CLFLUSH;
		if (info.abi_version >= 4)
			run->kernel_pages = run->pages == CP_PAGES_4K
						    ? CACHEPROBE_PAGES_4K
						    : CACHEPROBE_PAGES_2M;
		cp_module_info_free(&info);
	}
	return ret;
}

static struct cp_measurement *add(struct cold_run *run,
				  enum cp_coldcache_method method,
				  uint64_t size)
{
	struct cp_measurement *m = cp_results_add(run->context->results);
	char size_text[32];

	if (!m)
		return NULL;
	cp_name_bytes(size, size_text, sizeof(size_text));
	snprintf(m->area, sizeof(m->area), "coldcache");
	snprintf(m->mode, sizeof(m->mode), "kernel");
	snprintf(m->name, sizeof(m->name), "%s %s first pass",
		 cp_coldcache_method_name(method), size_text);
	cp_measurement_add_param(m, "size_bytes", (int64_t)size);
	cp_measurement_add_param(m, "cpu", run->cpu);
	return m;
}

/* Ticks per access of each sample, malloc'ed, or NULL. */
static double *per_access(const struct cp_run_result *result)
{
	double *values;

	if (!result->nr_series || !result->samples || !result->ops)
		return NULL;
	values = malloc(result->samples * sizeof(*values));
	for (uint32_t i = 0; values && i < result->samples; i++)
		values[i] = (double)result->series[0].values[i] /
			    (double)result->ops;
	return values;
}

static int record(struct cold_run *run, enum cp_coldcache_method method,
		  uint64_t size, const struct cp_run_result *result,
		  double *median_out, struct cp_measurement **out)
{
	struct cp_measurement *m = add(run, method, size);
	double *values = per_access(result);
	int ret;

	*out = m;
	if (!m || !values) {
		free(values);
		return -ENOMEM;
	}
	/* One timed chase of result->ops loads a sample. */
	m->count = 1;
	m->scale = result->ops;
	m->preempted_retaken = result->retries;
	cp_stability_note_kernel_run(m, result->missed_rounds,
				     result->disturbed);
	ret = cp_measurement_set_samples(m, values, result->samples,
					 run->context->clock->tsc_hz);
	if (!ret)
		*median_out = m->stats_ns.median;
	return ret;
}

static void judge(struct cold_run *run, size_t first, double warm,
		  double flushed)
{
	struct cp_results *results = run->context->results;

	for (size_t i = first; i < results->nr_measurements; i++) {
		struct cp_measurement *m = &results->measurements[i];
		bool is_warm = strncmp(m->name, "warm ", 5) == 0;
		enum cold_verdict verdict =
			is_warm ? COLD_VERDICT_REFERENCE
				: cold_judge_cost(m->stats_ns.median,
						  strncmp(m->name, "clflush ", 8) == 0 ? 0 : warm,
						  flushed);

		if (!m->nr_samples)
			continue;
		cp_measurement_add_param(m, "verdict", verdict);
		snprintf(m->note, sizeof(m->note), "kernel: %s",
			 cold_verdict_name(verdict));
	}
}

static int one_method(struct cold_run *run, size_t k, uint64_t size,
		      double *median, struct cp_error *error)
{
	struct cp_chase_params params = {
		.cpu = run->cpu, .samples = run->repetitions, .size = size,
		.order = CACHEPROBE_ORDER_RANDOM,
		.hops = (uint32_t)(size / COLD_LINE_SIZE),
		.prepare = kernel_methods[k].prepare,
		.pages = run->kernel_pages,
	};
	struct cp_run_result result;
	struct cp_measurement *m;
	int ret = cp_client_chase(run->kernel_client, &params, &result, error);

	if (ret == -EOVERFLOW || ret == -EOPNOTSUPP) {
		cold_note(run, "kernel %s %llu bytes not measured: %s",
			  cp_coldcache_method_name(kernel_methods[k].method),
			  (unsigned long long)size, error->msg);
		return 0;
	}
	if (ret)
		return ret;
	ret = record(run, kernel_methods[k].method, size, &result, median, &m);
	cp_run_result_free(&result);
	if (ret)
		return ret;
	return cold_kernel_lines_classify(run, kernel_methods[k].method, size,
					  m, error);
}

int cold_kernel_measure(struct cold_run *run, struct cp_error *error)
{
	int ret;

	if (!run->kernel_pages && run->pages != CP_PAGES_4K)
		cold_note(run, "kernel mode: the module (before ABI 4) chases on 4 KiB pages only, not the 2 MiB pages of user mode");
	ret = cold_kernel_lines_calibrate(run, error);
	for (size_t s = 0; s < run->nr_sizes && !ret; s++) {
		size_t first = run->context->results->nr_measurements;
		double medians[NR_KERNEL_METHODS] = { 0 };

		for (size_t k = 0; k < NR_KERNEL_METHODS && !ret; k++) {
			if (!(run->choices->methods == 0 ||
			      (run->choices->methods &
			       (1u << kernel_methods[k].method))))
				continue;
			if (cp_interrupt_requested())
				return -EINTR;
			/* A refusal noted before must not name a later
			 * failure of the tool's own. */
			cp_error_clear(error);
			ret = one_method(run, k, run->sizes[s], &medians[k],
					 error);
		}
		judge(run, first, medians[0], medians[1]);
	}
	if (ret && ret != -EINTR && ret != -ENOMEM)
		return ret;
	/* The tool's own allocations say nothing; the module's do. */
	if (ret == -ENOMEM && !error->err)
		return cp_error_set(error, ENOMEM, "coldcache: no memory");
	return ret;
}
