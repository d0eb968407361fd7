/* SPDX-License-Identifier: GPL-2.0 */
/* Byte counts for people: the largest binary unit that divides exactly. */
#ifndef CACHEPROBE_SIZE_FORMAT_H
#define CACHEPROBE_SIZE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* "48 KiB", "260 MiB", "1280 KiB", "100 bytes"; returns @buf. */
const char *cli_format_size(uint64_t bytes, char *buf, size_t len);

#endif
