/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CACHEPROBE_RUN_DEFAULT_H
#define CACHEPROBE_RUN_DEFAULT_H

#include "cli/run_options.h"

#define RUN_DEFAULT_JSON "results.json"
#define RUN_DEFAULT_REPORT "report.html"

/*
 * The run made when no area is named: every area, with settings that keep
 * the whole run short on a small machine (what the user set is kept), and
 * results.json and report.html in the current directory unless an output
 * is named.
 */
void run_default_apply(struct run_options *options);

#endif
