/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of exec's command: started, waited for and timed, and how it
 * ended, in words and as the exit status cacheprobe-run passes on.
 */
#ifndef CACHEPROBE_EXEC_RUNS_H
#define CACHEPROBE_EXEC_RUNS_H

#include <stdbool.h>
#include <stddef.h>

struct exec_timing {
	double wall_ns;		/* CLOCK_MONOTONIC, start to reaped */
	double user_ns;		/* its CPU time (wait4's rusage) */
	double sys_ns;
};

enum exec_end {
	EXEC_EXITED,		/* @code is its exit status */
	EXEC_KILLED,		/* @code is the signal */
	EXEC_NOT_STARTED,	/* @code is the errno of the exec */
};

struct exec_outcome {
	enum exec_end end;
	int code;
	bool core_dumped;
};

/*
 * Run @argv (argv[0] looked up in PATH) to its end and time it.  With
 * @stdout_to_stderr its standard output goes to standard error, where it
 * cannot mix with a result written to standard output.  A SIGTERM or
 * SIGHUP that asks cacheprobe-run to stop (harness/interrupt.h) while the
 * command runs is passed on to it, once; a SIGINT is not: the terminal
 * sends it to the command as well.
 *
 * Return: 0 with @timing and @outcome filled (EXEC_NOT_STARTED leaves
 * @timing unset), or -errno when it could not be waited for.
 */
int exec_run_once(char *const argv[], bool stdout_to_stderr,
		  struct exec_timing *timing, struct exec_outcome *outcome);

/* Whether the command ran and exited with status 0. */
bool exec_outcome_succeeded(const struct exec_outcome *outcome);

/*
 * "exited with status 3", "was killed by signal 9 (SIGKILL)", "cannot be
 * run: Permission denied"... snprintf-style.
 */
size_t exec_outcome_describe(const struct exec_outcome *outcome, char *buf,
			     size_t len);

/*
 * The exit status cacheprobe-run passes on: the command's own, 128+N for
 * signal N (as shells report it), 127 for a command not found and 126
 * for one that cannot be run (as shells, env and timeout do).
 */
int exec_outcome_status(const struct exec_outcome *outcome);

#endif
