/* SPDX-License-Identifier: GPL-2.0 */
/* Byte sizes on the command line: "4096", "64K", "256MiB", "1G" (binary
 * units: K = 1024). */
#ifndef CACHEPROBE_SIZE_OPTION_H
#define CACHEPROBE_SIZE_OPTION_H

#include <stddef.h>
#include <stdint.h>

/* 0, or -EINVAL with the reason in @why. */
int cli_parse_size(const char *text, uint64_t *out, char *why, size_t why_len);

#endif
