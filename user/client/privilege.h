/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether the module will run this process's measurement commands, which
 * need CAP_SYS_ADMIN in the initial user namespace on both transports
 * (GET_INFO does not).  The default mode measures in user mode instead of
 * failing with EPERM when it will not.
 */
#ifndef CACHEPROBE_PRIVILEGE_H
#define CACHEPROBE_PRIVILEGE_H

#include <stdbool.h>

#include "client/client.h"

/*
 * Asks the module itself, with the smallest CHASE (one sample of a few
 * hops over one page, on the CPU this thread runs on): a capability read
 * here would be of this process's user namespace, and root in a container
 * or under `unshare -r` has CAP_SYS_ADMIN there but not where the module
 * checks it.  False only when the module answered EPERM; any other failure
 * is left for the measurement to report.
 */
bool cp_client_may_measure(struct cp_client *client);

#endif
