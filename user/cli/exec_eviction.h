/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec's eviction through libcacheprobe: one context opened before the
 * series, with the method and CPUs asked for, and used before every cold
 * run, so that no run pays for setting it up.
 */
#ifndef CACHEPROBE_EXEC_EVICTION_H
#define CACHEPROBE_EXEC_EVICTION_H

#include <stddef.h>

#include "cli/exec_results.h"

struct cacheprobe_ctx;

/*
 * Open the context: @method (enum cacheprobe_method) on @cpus_list (NULL:
 * the library's default, this thread's affinity), the garbage read
 * @factor times each last-level cache (0: the library's default), and
 * describe it in @out (valid until exec_eviction_close).
 *
 * Return: CLI_PROCEED, or the exit status after saying why: the library's
 * own sentence, CLI_EXIT_USAGE for CPUs it refuses, else CLI_EXIT_FAILURE.
 */
int exec_eviction_open(int method, const char *cpus_list, double factor,
		       struct cacheprobe_ctx **ctx, struct exec_eviction *out);
void exec_eviction_close(struct cacheprobe_ctx *ctx);

/* exec_evict_fn for a series: @context is the cacheprobe_ctx. */
int exec_eviction_evict(void *context, char *why, size_t why_len);

#endif
