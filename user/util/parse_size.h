/* SPDX-License-Identifier: GPL-2.0 */
/* Byte sizes as people write them: "4096", "64K", "256MiB", "1G" (binary
 * units: K = 1024), on the command line and in the notes of results. */
#ifndef CACHEPROBE_PARSE_SIZE_H
#define CACHEPROBE_PARSE_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* 0, or -EINVAL with the reason in @why. */
int cp_parse_size(const char *text, uint64_t *out, char *why, size_t why_len);

#endif
