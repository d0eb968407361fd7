/* SPDX-License-Identifier: GPL-2.0 */
/* The module lines of `cacheprobe-run info`. */
#ifndef CACHEPROBE_MODULE_REPORT_H
#define CACHEPROBE_MODULE_REPORT_H

#include <stdio.h>

#include "client/client.h"

/*
 * The "key: value" lines for a loaded module reached through @transport.
 * Returns 0 or -ENOMEM.
 */
int cli_print_module_info(FILE *out, const struct cp_module_info *info,
			  const char *transport);

/* The lines saying why the module cannot be reached and what is missing. */
void cli_print_module_absent(FILE *out, const struct cp_error *error);

#endif
