// SPDX-License-Identifier: GPL-2.0
#include "harness/interrupt.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

/* SIGHUP too: a closed terminal or ssh session must not leave the CPUs
 * tuned nor lose what was measured. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NR_STOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

static volatile sig_atomic_t requested_signal;
static struct sigaction previous[NR_STOP_SIGNALS];
static bool installed;

static void on_signal(int signal_number)
{
	requested_signal = signal_number;
}

/* Put back the handlers of the first @count stop signals. */
static void restore_previous(size_t count)
{
	for (size_t i = 0; i < count; i++)
		sigaction(stop_signals[i], &previous[i], NULL);
}

int cp_interrupt_install(void)
{
	struct sigaction action;

	memset(&action, 0, sizeof(action));
	action.sa_handler = on_signal;
	sigemptyset(&action.sa_mask);
	for (size_t i = 0; i < NR_STOP_SIGNALS; i++) {
		/* A signal ignored when the run began stays ignored: under
		 * nohup (SIGHUP) or as a shell's background job (SIGINT) the
		 * user asked for the run to outlive it. */
		int ret = sigaction(stop_signals[i], NULL, &previous[i]);

		if (!ret && previous[i].sa_handler != SIG_IGN)
			ret = sigaction(stop_signals[i], &action, NULL);
		if (ret < 0) {
			int err = errno;

			restore_previous(i);
			return -err;
		}
	}
	installed = true;
	return 0;
}

void cp_interrupt_uninstall(void)
{
	if (!installed)
		return;
	restore_previous(NR_STOP_SIGNALS);
	installed = false;
}

bool cp_interrupt_requested(void)
{
	return requested_signal != 0;
}

int cp_interrupt_signal(void)
{
	return requested_signal;
}

void cp_interrupt_request(int signal_number)
{
	requested_signal = signal_number;
}

void cp_interrupt_reset(void)
{
	requested_signal = 0;
}

void cp_interrupt_signals(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < NR_STOP_SIGNALS; i++)
		sigaddset(set, stop_signals[i]);
}
