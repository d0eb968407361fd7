/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ctrl-C, SIGTERM and SIGHUP during a run: the first one asks the
 * measurement to stop at the next sample boundary, so what was measured
 * can still be reported and written (marked interrupted).
 */
#ifndef CACHEPROBE_INTERRUPT_H
#define CACHEPROBE_INTERRUPT_H

#include <signal.h>
#include <stdbool.h>

/* Install the SIGINT/SIGTERM/SIGHUP handlers, leaving a signal that is
 * ignored (nohup, a background job) ignored (0, or -errno). */
int cp_interrupt_install(void);
/* Restore the previous handlers. */
void cp_interrupt_uninstall(void);
bool cp_interrupt_requested(void);
/* The signal that asked, 0 if none. */
int cp_interrupt_signal(void);
/* Ask as a signal would (tests, and errors that should end a run). */
void cp_interrupt_request(int signal_number);
void cp_interrupt_reset(void);
/* The stop signals, for threads that block them so that another thread
 * takes them (harness/turns.h). */
void cp_interrupt_signals(sigset_t *set);

#endif
