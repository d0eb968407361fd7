// SPDX-License-Identifier: GPL-2.0
/* Environment capture, its warnings, and --tune with its restore, on
 * machines described by directory trees standing in for /proc and /sys. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/environment.h"
#include "machine/sysfs_read.h"
#include "machine/tune.h"
#include "results_fixture.h"

#define CPU_DIR "sys/devices/system/cpu"

static void put(const char *root, const char *relative, const char *text)
{
	char path[1024], *slash;
	FILE *file;

	snprintf(path, sizeof(path), "%s/%s", root, relative);
	/* Make the parents, one level at a time. */
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	file = fopen(path, "w");
	assert_non_null(file);
	fputs(text, file);
	fclose(file);
}

static const char *const governors_before[] = {
	"powersave\n", "powersave\n", "performance\n", "powersave\n",
};

/* A busy, untuned guest with 4 CPUs. */
static void noisy_machine(char *root, size_t len)
{
	char relative[128];

	fixture_temporary_directory(root, len);
	put(root, "proc/cpuinfo",
	    "processor\t: 0\nmodel\t\t: 143\nmodel name\t: Fake CPU 3000\n"
	    "microcode\t: 0x2b\nflags\t\t: fpu tsc hypervisor rdtscp\n\n"
	    "processor\t: 1\nmodel name\t: Fake CPU 3000\n");
	put(root, "proc/sys/kernel/osrelease", "6.1.0-fake\n");
	put(root, "proc/sys/kernel/version", "#1 SMP Debian\n");
	put(root, "proc/sys/kernel/hostname", "testhost\n");
	put(root, "proc/loadavg", "1.50 0.50 0.25 1/100 1234\n");
	put(root, CPU_DIR "/online", "0-3\n");
	for (int cpu = 0; cpu < 4; cpu++) {
		snprintf(relative, sizeof(relative),
			 CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu);
		put(root, relative, governors_before[cpu]);
	}
	put(root, CPU_DIR "/intel_pstate/no_turbo", "0\n");
	put(root, CPU_DIR "/smt/control", "on\n");
	put(root, CPU_DIR "/isolated", "2-3\n");
	put(root, CPU_DIR "/nohz_full", "(null)\n");
	put(root, "sys/kernel/mm/transparent_hugepage/enabled",
	    "always [madvise] never\n");
	put(root, "proc/sys/vm/nr_hugepages", "16\n");
}

/* The noisy machine made in @root, captured into @env. */
static void capture_noisy(char *root, size_t len, struct cp_environment *env)
{
	struct cp_environment_source source = { .root = root };

	noisy_machine(root, len);
	cp_environment_capture(&source, env);
}

static void remove_tree(const char *root)
{
	char command[1100];

	snprintf(command, sizeof(command), "rm -rf '%s'", root);
	assert_int_equal(system(command), 0);
}

static void test_capture(void **state)
{
	struct cp_environment env;
	char root[512];

	(void)state;
	capture_noisy(root, sizeof(root), &env);
	assert_string_equal(env.cpu_model, "Fake CPU 3000");
	assert_string_equal(env.microcode, "0x2b");
	assert_string_equal(env.kernel, "6.1.0-fake #1 SMP Debian");
	assert_string_equal(env.hostname, "testhost");
	assert_string_equal(env.governors,
			    "0:powersave,1:powersave,2:performance,3:powersave");
	assert_string_equal(env.boost, "on");
	assert_string_equal(env.smt, "on");
	assert_string_equal(env.hypervisor, "present");
	assert_string_equal(env.isolated_cpus, "2-3");
	assert_string_equal(env.nohz_full_cpus, "");
	assert_string_equal(env.huge_pages, "transparent madvise, 16 reserved");
	assert_true(env.load_average[0] == 1.5);
	assert_true(env.load_average[2] == 0.25);
	assert_int_equal(env.nr_online_cpus, 4);
	assert_string_equal(env.module_version, "not loaded");
	assert_int_equal(strlen(env.date), strlen("2026-01-01T00:00:00Z"));
	remove_tree(root);
}

static void test_warnings(void **state)
{
	struct cp_env_warning warnings[8];
	struct cp_environment env;
	char root[512];

	(void)state;
	capture_noisy(root, sizeof(root), &env);
	assert_int_equal(cp_environment_warnings(&env, warnings, 8), 4);
	assert_non_null(strstr(warnings[0].text,
			       "governor is 0:powersave,1:powersave,2:performance,3:powersave, not performance"));
	assert_non_null(strstr(warnings[0].text, "--tune"));
	assert_non_null(strstr(warnings[1].text, "turbo boost is on"));
	assert_non_null(strstr(warnings[2].text, "hypervisor (present)"));
	assert_non_null(strstr(warnings[3].text, "load average 1.50 on 4 CPUs"));
	env.tsc_hz = 2e9;
	env.tsc_invariant = false;
	assert_int_equal(cp_environment_warnings(&env, warnings, 8), 5);
	assert_non_null(strstr(warnings[2].text, "TSC is not invariant"));
	/* Only as many as asked for are written; all are counted. */
	assert_int_equal(cp_environment_warnings(&env, warnings, 1), 5);
	remove_tree(root);
}

static void test_quiet_machine_has_no_warnings(void **state)
{
	struct cp_environment_source source;
	struct cp_env_warning warnings[8];
	struct cp_environment env;
	char root[512];

	(void)state;
	fixture_temporary_directory(root, sizeof(root));
	put(root, "proc/cpuinfo", "model name\t: Quiet CPU\nflags\t\t: fpu tsc\n");
	put(root, "proc/loadavg", "0.10 0.10 0.10 1/100 1\n");
	put(root, CPU_DIR "/online", "0-1\n");
	put(root, CPU_DIR "/cpu0/cpufreq/scaling_governor", "performance\n");
	put(root, CPU_DIR "/cpu1/cpufreq/scaling_governor", "performance\n");
	put(root, CPU_DIR "/cpufreq/boost", "0\n");
	source.root = root;
	cp_environment_capture(&source, &env);
	env.tsc_hz = 2e9;
	env.tsc_invariant = true;
	assert_string_equal(env.governors, "performance");
	assert_string_equal(env.boost, "off");
	assert_string_equal(env.hypervisor, "none");
	assert_string_equal(env.microcode, "unknown");
	assert_string_equal(env.huge_pages,
			    "transparent unknown, unknown reserved");
	assert_int_equal(cp_environment_warnings(&env, warnings, 8), 0);
	remove_tree(root);
}

/* A round trip that moved beyond CP_PLACEMENT_FACTOR during the run is a
 * warning of its own, after the others; one that stayed within it is
 * not, nor one measured only at the start. */
static void test_placement_warning(void **state)
{
	const struct cp_placement_probe moved = {
		.cpus = { 0, 1 }, .round_trip_ns = { 56, 212 },
	};
	const struct cp_placement_probe steady = {
		.cpus = { 0, 1 }, .round_trip_ns = { 56, 61 },
	};
	const struct cp_placement_probe start_only = {
		.cpus = { 0, 1 }, .round_trip_ns = { 212, 0 },
	};
	const struct cp_placement_probe widest = {
		.cpus = { 4294967295u, 4294967295u },
		.round_trip_ns = { 99999, 1000 },
	};
	struct cp_env_warning warnings[8];
	struct cp_environment env;
	const char *text;
	char root[512];

	(void)state;
	capture_noisy(root, sizeof(root), &env);
	assert_int_equal(cp_environment_warnings(&env, warnings, 8), 4);
	env.placement = moved;
	assert_int_equal(cp_environment_warnings(&env, warnings, 8), 5);
	assert_non_null(strstr(warnings[3].text, "load average"));
	text = warnings[4].text;
	assert_string_equal(text,
			    "the round trip between CPUs 0 and 1 went from 56 ns at the start to 212 ns at the end, so the run's figures across two CPUs (bounce, xcore, c2c) mix two placements (on a virtual machine, the host moved the vCPUs); run again");
	env.placement = steady;
	assert_int_equal(cp_environment_warnings(&env, warnings, 8), 4);
	env.placement = start_only;
	assert_int_equal(cp_environment_warnings(&env, warnings, 8), 4);
	/* The widest numbers still fit the text whole. */
	env.placement = widest;
	assert_int_equal(cp_environment_warnings(&env, warnings, 8), 5);
	text = warnings[4].text;
	assert_true(strlen(text) > strlen("run again"));
	assert_string_equal(text + strlen(text) - strlen("run again"),
			    "run again");
	remove_tree(root);
}

static void assert_file(const char *root, const char *relative,
			const char *expected)
{
	char value[64];

	assert_true(cp_sysfs_read_line(root, relative, value, sizeof(value)));
	assert_string_equal(value, expected);
}

static void assert_governors_restored(const char *root)
{
	char relative[128], expected[32];

	for (int cpu = 0; cpu < 4; cpu++) {
		snprintf(relative, sizeof(relative),
			 CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu);
		snprintf(expected, sizeof(expected), "%.*s",
			 (int)strcspn(governors_before[cpu], "\n"),
			 governors_before[cpu]);
		assert_file(root, relative, expected);
	}
}

static void test_tune_and_restore(void **state)
{
	static struct cp_tune_state tune;
	struct cp_error error;
	char root[512];

	(void)state;
	noisy_machine(root, sizeof(root));
	assert_int_equal(cp_tune_apply(&tune, root, &error), 0);
	assert_true(tune.governor_controllable);
	assert_true(tune.boost_controllable);
	assert_int_equal(tune.nr_changed, 4);	/* three governors, boost */
	for (int cpu = 0; cpu < 4; cpu++) {
		char relative[128];

		snprintf(relative, sizeof(relative),
			 CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu);
		assert_file(root, relative, "performance");
	}
	assert_file(root, CPU_DIR "/intel_pstate/no_turbo", "1");
	assert_int_equal(cp_tune_restore(&tune), 0);
	assert_governors_restored(root);
	assert_file(root, CPU_DIR "/intel_pstate/no_turbo", "0");
	/* A second restore changes nothing. */
	assert_int_equal(cp_tune_restore(&tune), 0);
	assert_governors_restored(root);
	remove_tree(root);
}

/* A setting that refuses the write: everything changed before it goes
 * back, and the error names the file. */
static void test_tune_failure_restores(void **state)
{
	static struct cp_tune_state tune;
	struct cp_error error;
	char root[512], path[700];

	(void)state;
	noisy_machine(root, sizeof(root));
	snprintf(path, sizeof(path),
		 "%s/" CPU_DIR "/cpu3/cpufreq/scaling_governor", root);
	unlink(path);
	/* Reads as an empty line, refuses every write (ENOSPC). */
	assert_int_equal(symlink("/dev/full", path), 0);
	assert_int_equal(cp_tune_apply(&tune, root, &error), -ENOSPC);
	assert_non_null(strstr(error.msg, "cpu3/cpufreq/scaling_governor"));
	unlink(path);
	put(root, CPU_DIR "/cpu3/cpufreq/scaling_governor", "powersave\n");
	assert_governors_restored(root);
	assert_file(root, CPU_DIR "/intel_pstate/no_turbo", "0");
	remove_tree(root);
}

/* Nothing to control: tuning succeeds and says so. */
static void test_tune_without_cpufreq(void **state)
{
	static struct cp_tune_state tune;
	struct cp_error error;
	char root[512];

	(void)state;
	fixture_temporary_directory(root, sizeof(root));
	put(root, CPU_DIR "/online", "0-1\n");
	assert_int_equal(cp_tune_apply(&tune, root, &error), 0);
	assert_false(tune.governor_controllable);
	assert_false(tune.boost_controllable);
	assert_int_equal(tune.nr_changed, 0);
	assert_int_equal(cp_tune_restore(&tune), 0);
	remove_tree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_quiet_machine_has_no_warnings),
		cmocka_unit_test(test_placement_warning),
		cmocka_unit_test(test_tune_and_restore),
		cmocka_unit_test(test_tune_failure_restores),
		cmocka_unit_test(test_tune_without_cpufreq),
	};

	return cmocka_run_group_tests_name("environment", tests, NULL, NULL);
}
