/* SPDX-License-Identifier: GPL-2.0 */
/* The "topology:" section of `cacheprobe-run info`. */
#ifndef CACHEPROBE_TOPOLOGY_REPORT_H
#define CACHEPROBE_TOPOLOGY_REPORT_H

#include <stdio.h>

#include "machine/topology.h"

/* Print the section to @out; -ENOMEM when a CPU list cannot be built. */
int cli_print_topology(FILE *out, const struct cp_topology *topology);

#endif
