/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which access widths this CPU and this kernel can do: 1 to 8 bytes with
 * general registers, 16 with SSE (every x86-64), 32 with AVX and 64 with
 * AVX-512F, each only when the CPU has the instructions and the kernel
 * enabled their register state (OSXSAVE and the XCR0 bits).
 */
#ifndef CACHEPROBE_ALIGN_WIDTHS_H
#define CACHEPROBE_ALIGN_WIDTHS_H

#include <stdbool.h>
#include <stdint.h>

#define CP_ALIGN_NR_WIDTHS 7

/* 1, 2, 4, 8, 16, 32, 64. */
extern const unsigned int cp_align_widths[CP_ALIGN_NR_WIDTHS];

struct cp_align_cpu {
	bool avx;		/* CPUID.1:ECX bit 28 */
	bool osxsave;		/* CPUID.1:ECX bit 27: XGETBV usable */
	bool avx512f;		/* CPUID.(7,0):EBX bit 16 */
	uint64_t xcr0;		/* enabled register state, 0 without OSXSAVE */
};

/* What this CPU says. */
void cp_align_cpu_read(struct cp_align_cpu *cpu);

/* Whether @width is one of cp_align_widths. */
bool cp_align_width_valid(unsigned int width);

/* NULL when @cpu can do @width-byte accesses, else why not ("32-byte
 * accesses need AVX, which this CPU lacks"). */
const char *cp_align_width_unsupported(unsigned int width,
				       const struct cp_align_cpu *cpu);

#endif
