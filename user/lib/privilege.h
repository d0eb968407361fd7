/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether this process may run the module's measurement commands, which
 * need CAP_SYS_ADMIN on both transports (GET_INFO does not).  Without it,
 * the default mode measures in user mode instead of failing with EPERM.
 */
#ifndef CACHEPROBE_PRIVILEGE_H
#define CACHEPROBE_PRIVILEGE_H

#include <stdbool.h>

/* True when CAP_SYS_ADMIN is in this process's effective set. */
bool cp_may_measure_in_kernel(void);

#endif
