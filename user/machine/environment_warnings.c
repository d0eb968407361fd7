// SPDX-License-Identifier: GPL-2.0
/* What in the environment distorts results, each with a remedy. */
#include "machine/environment.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "machine/placement.h"

/* A load average above this share of the online CPUs is "loaded". */
#define LOADED_SHARE 0.25

struct warning_list {
	struct cp_env_warning *items;
	size_t max;
	size_t count;
};

static void warn(struct warning_list *list, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct warning_list *list, const char *fmt, ...)
{
	va_list args;

	if (list->count < list->max) {
		va_start(args, fmt);
		vsnprintf(list->items[list->count].text,
			  sizeof(list->items[0].text), fmt, args);
		va_end(args);
	}
	list->count++;
}

static void warn_frequency(const struct cp_environment *env,
			   struct warning_list *list)
{
	if (strcmp(env->governors, "unavailable") != 0 &&
	    strcmp(env->governors, "performance") != 0)
		warn(list,
		     "CPU frequency governor is %s, not performance: the clock may change during the run; use --tune (as root)",
		     env->governors);
	if (strcmp(env->boost, "on") == 0)
		warn(list,
		     "turbo boost is on: the core clock follows load and temperature; use --tune (as root) to turn it off for the run");
	if (env->tsc_hz > 0 && !env->tsc_invariant)
		warn(list,
		     "the TSC is not invariant: ticks may not be constant time; keep the CPU at one frequency (--tune) and trust ns only");
}

static void warn_machine(const struct cp_environment *env,
			 struct warning_list *list)
{
	if (strcmp(env->hypervisor, "none") != 0)
		warn(list,
		     "running under a hypervisor (%s): other guests share the caches and steal time; expect noise and a smaller effective last-level cache, or measure on bare metal",
		     env->hypervisor);
	if (env->nr_online_cpus &&
	    env->load_average[0] > LOADED_SHARE * env->nr_online_cpus)
		warn(list,
		     "the machine is loaded (load average %.2f on %u CPUs): other work competes for caches and cores; measure on an idle machine",
		     env->load_average[0], env->nr_online_cpus);
}

/* A round trip that changed during the run: on a virtual machine, a move
 * of the vCPUs by the host (machine/placement.h); the run's figures
 * across two CPUs are then some of one placement and some of the other. */
static void warn_placement(const struct cp_environment *env,
			   struct warning_list *list)
{
	const struct cp_placement_probe *probe = &env->placement;

	if (cp_placement_moved(probe))
		warn(list,
		     "the round trip between CPUs %u and %u went from %.0f ns at the start to %.0f ns at the end, so the run's figures across two CPUs (bounce, xcore, c2c) mix two placements (on a virtual machine, the host moved the vCPUs); run again",
		     probe->cpus[0], probe->cpus[1], probe->round_trip_ns[0],
		     probe->round_trip_ns[1]);
}

size_t cp_environment_warnings(const struct cp_environment *env,
			       struct cp_env_warning *warnings, size_t max)
{
	struct warning_list list = { .items = warnings, .max = max };

	warn_frequency(env, &list);
	warn_machine(env, &list);
	warn_placement(env, &list);
	return list.count;
}
