/* SPDX-License-Identifier: GPL-2.0 */
/* Byte counts in measurement names: exact binary units, so that a name
 * reads the same in every run and compare can match it. */
#ifndef CACHEPROBE_NAME_BYTES_H
#define CACHEPROBE_NAME_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* @bytes in the largest of GiB, MiB and KiB that divides it exactly, else
 * in bytes: "24 KiB", "1 MiB", "4 GiB", "100 B", "0 B". */
void cp_name_bytes(uint64_t bytes, char *out, size_t len);

#endif
