/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What evict and exec share: their --cpus resolved to the plain list
 * libcacheprobe takes, and the context opened as their options say, with
 * the library's own sentence when it cannot be.
 */
#ifndef CACHEPROBE_EVICTION_SETUP_H
#define CACHEPROBE_EVICTION_SETUP_H

#include "cacheprobe.h"

struct cli_eviction_choice {
	enum cacheprobe_method method;
	const char *cpus_list;		/* "0-3"; NULL: the process's CPUs */
	double factor;			/* of the garbage; 0: the default */
	const char *transport;		/* NULL: auto */
};

/*
 * @selection (a list, or a pick: per-l3, per-core,5, ...) as a malloc'ed
 * plain list in *@list.  CLI_PROCEED, or the exit status after saying
 * what was wrong (a usage error for a selection that does not resolve).
 */
int cli_eviction_cpus(const char *command, const char *selection,
		      char **list);

/*
 * Open *@ctx as @choice says.  CLI_PROCEED, or the exit status after
 * printing the library's sentence: CLI_EXIT_USAGE for what the library
 * refuses as invalid (a CPU that is not online), else CLI_EXIT_FAILURE.
 */
int cli_eviction_open(const char *command,
		      const struct cli_eviction_choice *choice,
		      struct cacheprobe_ctx **ctx);

#endif
