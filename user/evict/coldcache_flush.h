/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flushing a buffer's lines from every cache level from user space:
 * CLFLUSHOPT where the CPU has it (flushes of different lines overlap),
 * else CLFLUSH (each one ordered with the others), then a fence so the
 * flushes are done before anything after them.
 */
#ifndef CACHEPROBE_COLDCACHE_FLUSH_H
#define CACHEPROBE_COLDCACHE_FLUSH_H

#include <stdbool.h>
#include <stddef.h>

enum cp_flush_instruction {
	CP_FLUSH_NONE,		/* neither: the method is unavailable */
	CP_FLUSH_CLFLUSH,
	CP_FLUSH_CLFLUSHOPT,
};

/* What CPUID says this CPU has (leaf 7 EBX bit 23, leaf 1 EDX bit 19). */
enum cp_flush_instruction cp_flush_instruction_detect(void);
const char *cp_flush_instruction_name(enum cp_flush_instruction which);

/* Flush every @line_size-byte line of [@start, @start + @bytes). */
void cp_flush_lines(enum cp_flush_instruction which, const void *start,
		    size_t bytes, size_t line_size);

#endif
