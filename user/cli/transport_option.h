/* SPDX-License-Identifier: GPL-2.0 */
/* --transport auto|netlink|ioctl, shared by the commands that reach the
 * module. */
#ifndef CACHEPROBE_TRANSPORT_OPTION_H
#define CACHEPROBE_TRANSPORT_OPTION_H

#include "client/client.h"

#define CLI_TRANSPORT_HELP \
	"  -t, --transport=auto|netlink|ioctl\n" \
	"                      how to reach the module (default auto: netlink,\n" \
	"                      else /dev/" CACHEPROBE_DEVICE_NAME ")\n"

/* 0, or CLI_EXIT_USAGE after printing what was wrong. */
int cli_parse_transport(const char *command, const char *text,
			enum cp_transport *out);

#endif
