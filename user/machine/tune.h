/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --tune: the performance governor on every online CPU and turbo boost off,
 * for one run only.  The previous settings are saved first and written back
 * by cp_tune_restore, which the CLI reaches on every exit path (normal end,
 * error, SIGINT/SIGTERM/SIGHUP through the interrupt flag, and exit()
 * through an atexit handler).
 */
#ifndef CACHEPROBE_TUNE_H
#define CACHEPROBE_TUNE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

#define CP_TUNE_MAX_SETTINGS 1024

struct cp_tune_setting {
	char relative_path[96];		/* under the root */
	char previous[64];
};

struct cp_tune_state {
	char root[256];
	size_t nr_saved;
	struct cp_tune_setting saved[CP_TUNE_MAX_SETTINGS];
	size_t nr_changed;		/* settings actually written */
	bool boost_controllable;
	bool governor_controllable;
};

/*
 * Save and change.  NULL @root means this machine.  Returns 0 with
 * whatever the platform allows done (see the *_controllable flags), or
 * -errno with @error when a setting exists but cannot be written; then
 * everything already changed is restored.
 */
int cp_tune_apply(struct cp_tune_state *state, const char *root,
		  struct cp_error *error);

/* Write back every saved value; idempotent.  0 or the first -errno. */
int cp_tune_restore(struct cp_tune_state *state);

#endif
