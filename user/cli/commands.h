/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands; each gets argv starting at its own name. */
#ifndef CACHEPROBE_COMMANDS_H
#define CACHEPROBE_COMMANDS_H

int cmd_info(int argc, char **argv);
int cmd_flush(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_evict(int argc, char **argv);
int cmd_exec(int argc, char **argv);

#endif
