// SPDX-License-Identifier: GPL-2.0
#include "cli/exec_runs.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/interrupt.h"

extern char **environ;

static double timespec_ns(const struct timespec *t)
{
	return (double)t->tv_sec * 1e9 + (double)t->tv_nsec;
}

static double timeval_ns(const struct timeval *t)
{
	return (double)t->tv_sec * 1e9 + (double)t->tv_usec * 1e3;
}

/*
 * A stop signal the command may not have had.  kill(1) or a service
 * manager sends SIGTERM to cacheprobe-run alone; the terminal sends SIGINT
 * to its whole foreground group, the command included, and a second one
 * could cut short the command's own handling of the first.
 */
static bool passed_on(int signal_number)
{
	return signal_number == SIGTERM || signal_number == SIGHUP;
}

/*
 * Reap @pid.  Until it is reaped its pid cannot name another process, so
 * passing a stop signal on reaches our command and nothing else.  (A
 * signal that lands between the check and wait4 is passed on only when
 * another interrupts the wait: the run then ends by itself.)
 */
static int reap(pid_t pid, int *status, struct rusage *usage)
{
	bool told = false;

	for (;;) {
		if (!told && passed_on(cp_interrupt_signal())) {
			kill(pid, cp_interrupt_signal());
			told = true;
		}
		if (wait4(pid, status, 0, usage) == pid)
			return 0;
		if (errno != EINTR)
			return -errno;
	}
}

/* posix_spawn, not fork: with the eviction's garbage mapped (hundreds of
 * MiB), fork would copy its page tables on every run, and time it. */
static int start(char *const argv[], bool stdout_to_stderr, pid_t *pid)
{
	posix_spawn_file_actions_t actions;
	int ret;

	if (!stdout_to_stderr)
		return posix_spawnp(pid, argv[0], NULL, NULL, argv, environ);
	ret = posix_spawn_file_actions_init(&actions);
	if (ret)
		return ret;
	ret = posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO,
					       STDOUT_FILENO);
	if (!ret)
		ret = posix_spawnp(pid, argv[0], &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	return ret;
}

static void note_end(int status, struct exec_outcome *outcome)
{
	outcome->core_dumped = false;
	if (WIFSIGNALED(status)) {
		outcome->end = EXEC_KILLED;
		outcome->code = WTERMSIG(status);
		outcome->core_dumped = WCOREDUMP(status);
	} else {
		outcome->end = EXEC_EXITED;
		outcome->code = WEXITSTATUS(status);
	}
}

int exec_run_once(char *const argv[], bool stdout_to_stderr,
		  struct exec_timing *timing, struct exec_outcome *outcome)
{
	struct timespec started, ended;
	struct rusage usage;
	pid_t pid;
	int status, ret;

	clock_gettime(CLOCK_MONOTONIC, &started);
	ret = start(argv, stdout_to_stderr, &pid);
	if (ret) {
		outcome->end = EXEC_NOT_STARTED;
		outcome->code = ret;
		outcome->core_dumped = false;
		return 0;
	}
	ret = reap(pid, &status, &usage);
	clock_gettime(CLOCK_MONOTONIC, &ended);
	if (ret)
		return ret;
	timing->wall_ns = timespec_ns(&ended) - timespec_ns(&started);
	timing->user_ns = timeval_ns(&usage.ru_utime);
	timing->sys_ns = timeval_ns(&usage.ru_stime);
	note_end(status, outcome);
	return 0;
}

bool exec_outcome_succeeded(const struct exec_outcome *outcome)
{
	return outcome->end == EXEC_EXITED && outcome->code == 0;
}

size_t exec_outcome_describe(const struct exec_outcome *outcome, char *buf,
			     size_t len)
{
	const char *name;
	int written;

	switch (outcome->end) {
	case EXEC_EXITED:
		written = snprintf(buf, len, "exited with status %d",
				   outcome->code);
		break;
	case EXEC_KILLED:
		name = sigabbrev_np(outcome->code);
		written = snprintf(buf, len,
				   "was killed by signal %d (SIG%s)%s",
				   outcome->code, name ? name : "?",
				   outcome->core_dumped ? ", core dumped" : "");
		break;
	default:
		written = snprintf(buf, len, "cannot be run: %s",
				   strerror(outcome->code));
		break;
	}
	return written < 0 ? 0 : (size_t)written;
}

int exec_outcome_status(const struct exec_outcome *outcome)
{
	switch (outcome->end) {
	case EXEC_EXITED:
		return outcome->code;
	case EXEC_KILLED:
		return 128 + outcome->code;
	default:
		return outcome->code == ENOENT ? 127 : 126;
	}
}
