// SPDX-License-Identifier: GPL-2.0
/*
 * The environment's fields that the machine's files do not give: what the
 * module reported about itself, and where the TSC rate came from.  Apart
 * from capture so that a test can fill them from a made-up module.
 */
#include "machine/environment.h"

#include <stdio.h>

#include "client/client.h"
#include "harness/clock.h"

void cp_environment_note_module(struct cp_environment *env,
				const struct cp_module_info *info)
{
	snprintf(env->module_version, sizeof(env->module_version), "%s",
		 info->module_version);
	env->abi_version = info->abi_version;
}

void cp_environment_note_clock(struct cp_environment *env,
			       const struct cp_clock *clock)
{
	env->tsc_hz = clock->tsc_hz;
	env->tsc_invariant = clock->tsc_invariant;
	snprintf(env->tsc_source, sizeof(env->tsc_source), "%s",
		 clock->source == CP_TSC_FROM_MODULE ? "module"
						     : "calibrated");
}
