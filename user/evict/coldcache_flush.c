// SPDX-License-Identifier: GPL-2.0
#include "evict/coldcache_flush.h"

#include <cpuid.h>

#define CPUID_LEAF1_EDX_CLFSH (1u << 19)
#define CPUID_LEAF7_EBX_CLFLUSHOPT (1u << 23)

enum cp_flush_instruction cp_flush_instruction_detect(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) &&
	    (ebx & CPUID_LEAF7_EBX_CLFLUSHOPT))
		return CP_FLUSH_CLFLUSHOPT;
	if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) &&
	    (edx & CPUID_LEAF1_EDX_CLFSH))
		return CP_FLUSH_CLFLUSH;
	return CP_FLUSH_NONE;
}

const char *cp_flush_instruction_name(enum cp_flush_instruction which)
{
	switch (which) {
	case CP_FLUSH_CLFLUSHOPT:
		return "clflushopt";
	case CP_FLUSH_CLFLUSH:
		return "clflush";
	default:
		return "none";
	}
}

/* The instructions are written out rather than taken from the compiler's
 * intrinsics, which need the target feature enabled at build time. */
void cp_flush_lines(enum cp_flush_instruction which, const void *start,
		    size_t bytes, size_t line_size)
{
	const char *line = start;
	const char *end = line + bytes;

	if (which == CP_FLUSH_CLFLUSHOPT) {
		for (; line < end; line += line_size)
			__asm__ __volatile__("clflushopt %0"
					     : "+m"(*(volatile char *)line));
	} else if (which == CP_FLUSH_CLFLUSH) {
		for (; line < end; line += line_size)
			__asm__ __volatile__("clflush %0"
					     : "+m"(*(volatile char *)line));
	}
	/* CLFLUSHOPT is ordered only by fences. */
	__asm__ __volatile__("mfence" : : : "memory");
}
