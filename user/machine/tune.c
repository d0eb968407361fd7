// SPDX-License-Identifier: GPL-2.0
#include "machine/tune.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "machine/cpuset.h"
#include "machine/sysfs_read.h"

#define CPU_DIR "sys/devices/system/cpu"

/* Save @relative's value and write @wanted; a missing file is skipped
 * (returns 1), an unwritable one fails. */
static int change(struct cp_tune_state *state, const char *relative,
		  const char *wanted, struct cp_error *error)
{
	struct cp_tune_setting *setting;
	int ret;

	if (state->nr_saved == CP_TUNE_MAX_SETTINGS)
		return cp_error_set(error, ENOSPC, "too many CPUs to tune");
	setting = &state->saved[state->nr_saved];
	if (!cp_sysfs_read_line(state->root, relative, setting->previous,
				sizeof(setting->previous)))
		return 1;
	snprintf(setting->relative_path, sizeof(setting->relative_path), "%s",
		 relative);
	state->nr_saved++;
	if (strcmp(setting->previous, wanted) == 0)
		return 0;
	ret = cp_sysfs_write(state->root, relative, wanted);
	if (ret)
		return cp_error_set(error, -ret, "--tune: cannot write %s to /%s",
				    wanted, relative);
	state->nr_changed++;
	return 0;
}

static int set_governors(struct cp_tune_state *state, struct cp_error *error)
{
	char online_text[1024], why[128], path[96];
	struct cp_cpuset *online = NULL;
	int ret = 0;

	if (!cp_sysfs_read_line(state->root, CPU_DIR "/online", online_text,
				sizeof(online_text)) ||
	    cp_cpuset_parse(online_text, &online, why, sizeof(why)))
		return 0;
	for (int cpu = cp_cpuset_first(online); cpu >= 0 && ret <= 0;
	     cpu = cp_cpuset_next(online, (unsigned int)cpu)) {
		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu);
		ret = change(state, path, "performance", error);
		if (ret == 0)
			state->governor_controllable = true;
		if (ret > 0)
			ret = 0;
	}
	cp_cpuset_free(online);
	return ret;
}

static int set_boost(struct cp_tune_state *state, struct cp_error *error)
{
	int ret = change(state, CPU_DIR "/intel_pstate/no_turbo", "1", error);

	if (ret > 0)
		ret = change(state, CPU_DIR "/cpufreq/boost", "0", error);
	state->boost_controllable = ret == 0;
	return ret > 0 ? 0 : ret;
}

int cp_tune_apply(struct cp_tune_state *state, const char *root,
		  struct cp_error *error)
{
	int ret;

	cp_error_clear(error);
	memset(state, 0, sizeof(*state));
	snprintf(state->root, sizeof(state->root), "%s", root ? root : "");
	ret = set_governors(state, error);
	if (!ret)
		ret = set_boost(state, error);
	if (ret)
		cp_tune_restore(state);
	return ret;
}

int cp_tune_restore(struct cp_tune_state *state)
{
	int first_error = 0;

	/* Reverse order: boost goes back before the governors. */
	while (state->nr_saved) {
		struct cp_tune_setting *setting =
			&state->saved[--state->nr_saved];
		char now[64];

		if (cp_sysfs_read_line(state->root, setting->relative_path, now,
				       sizeof(now)) &&
		    strcmp(now, setting->previous) == 0)
			continue;
		int ret = cp_sysfs_write(state->root, setting->relative_path,
					 setting->previous);

		if (ret && !first_error)
			first_error = ret;
	}
	state->nr_changed = 0;
	return first_error;
}
