/* SPDX-License-Identifier: GPL-2.0 */
/* Byte sizes on the command line (util/parse_size.h reads them): whether
 * the machine can hold them. */
#ifndef CACHEPROBE_SIZE_OPTION_H
#define CACHEPROBE_SIZE_OPTION_H

#include <stddef.h>
#include <stdint.h>

/*
 * 0, or -E2BIG with the reason in @why when @bytes is more than the
 * machine's physical memory: a working set that could never be allocated
 * is misuse, better refused before anything runs than failed half-way.
 */
int cli_check_size_fits_memory(uint64_t bytes, const char *text, char *why,
			       size_t why_len);

#endif
