// SPDX-License-Identifier: GPL-2.0
#include "interrupt.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t requested_signal;
static struct sigaction previous_int, previous_term;
static bool installed;

static void on_signal(int signal_number)
{
	requested_signal = signal_number;
}

int cp_interrupt_install(void)
{
	struct sigaction action;

	memset(&action, 0, sizeof(action));
	action.sa_handler = on_signal;
	sigemptyset(&action.sa_mask);
	if (sigaction(SIGINT, &action, &previous_int) < 0)
		return -errno;
	if (sigaction(SIGTERM, &action, &previous_term) < 0) {
		int err = errno;

		sigaction(SIGINT, &previous_int, NULL);
		return -err;
	}
	installed = true;
	return 0;
}

void cp_interrupt_uninstall(void)
{
	if (!installed)
		return;
	sigaction(SIGINT, &previous_int, NULL);
	sigaction(SIGTERM, &previous_term, NULL);
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
