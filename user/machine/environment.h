/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The conditions of a run, recorded with its results: what the machine is
 * and what could distort a measurement on it.  Read from /proc and /sys
 * under a root directory, so tests can describe any machine with files.
 */
#ifndef CACHEPROBE_ENVIRONMENT_H
#define CACHEPROBE_ENVIRONMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CP_ENV_TEXT 128

/*
 * One cache line's round trip between two of the run's CPUs (the first
 * two it may use), by CAS ping-pong, at the run's start and at its end,
 * in ns; 0: not measured (one CPU, an interrupted run, an older file).
 * On a virtual machine the host decides where the vCPUs run, and every
 * figure across two CPUs (bounce, xcore, c2c) follows that placement
 * (machine/placement.h judges it).
 */
struct cp_placement_probe {
	unsigned int cpus[2];
	double round_trip_ns[2];	/* at the start, at the end */
	/* 0 for one run; for several pooled (compare A1 A2 -- ...), how
	 * many, and @round_trip_ns their quickest and slowest readings. */
	unsigned int pooled_runs;
};

struct cp_environment {
	char cpu_model[CP_ENV_TEXT];
	char microcode[CP_ENV_TEXT];
	char kernel[CP_ENV_TEXT];		/* release and version */
	char hostname[CP_ENV_TEXT];
	char date[CP_ENV_TEXT];			/* ISO 8601, UTC */
	char module_version[CP_ENV_TEXT];	/* "not loaded" without it */
	uint32_t abi_version;			/* 0 without the module */
	double tsc_hz;
	char tsc_source[32];			/* "module" or "calibrated" */
	bool tsc_invariant;
	/* "performance" when all agree, "0:powersave,1:performance" when
	 * not, "unavailable" without cpufreq. */
	char governors[CP_ENV_TEXT * 4];
	char boost[32];				/* "on", "off", "unknown" */
	char smt[32];				/* /sys/.../smt/control */
	char hypervisor[CP_ENV_TEXT];		/* vendor, or "none" */
	char isolated_cpus[CP_ENV_TEXT];	/* "" for none */
	char nohz_full_cpus[CP_ENV_TEXT];
	/* "transparent madvise, 0 reserved": the THP mode and the pages
	 * reserved for hugetlbfs; "unknown" parts when unreadable. */
	char huge_pages[64];
	double load_average[3];
	unsigned int nr_online_cpus;
	struct cp_placement_probe placement;
};

/* Where to read: "/" for this machine; tests pass a directory tree. */
struct cp_environment_source {
	const char *root;
};

/* Fill what the machine tells; module and TSC fields are the caller's
 * (module_version "not loaded" until cp_environment_note_module). */
void cp_environment_capture(const struct cp_environment_source *source,
			    struct cp_environment *env);

struct cp_module_info;
struct cp_clock;

/* The loaded module's version and ABI version from its @info. */
void cp_environment_note_module(struct cp_environment *env,
				const struct cp_module_info *info);

/* The TSC rate, its invariance and its source ("module" when the rate is
 * the kernel's through the module, else "calibrated") from @clock. */
void cp_environment_note_clock(struct cp_environment *env,
			       const struct cp_clock *clock);

/* One line each: what distorts results and what to do about it. */
struct cp_env_warning {
	char text[256];
};

/* Fill up to @max warnings, return how many there are. */
size_t cp_environment_warnings(const struct cp_environment *env,
			       struct cp_env_warning *warnings, size_t max);

#endif
