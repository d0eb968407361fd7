// SPDX-License-Identifier: GPL-2.0
#include "areas/align/align_widths.h"

#include <cpuid.h>
#include <stddef.h>

#define XCR0_SSE (1ull << 1)
#define XCR0_YMM (1ull << 2)
/* Opmask, upper halves of ZMM0-15, ZMM16-31. */
#define XCR0_AVX512 (7ull << 5)

const unsigned int cp_align_widths[CP_ALIGN_NR_WIDTHS] = {
	1, 2, 4, 8, 16, 32, 64,
};

static uint64_t read_xcr0(void)
{
	uint32_t low, high;

	__asm__ __volatile__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
	return ((uint64_t)high << 32) | low;
}

void cp_align_cpu_read(struct cp_align_cpu *cpu)
{
	unsigned int eax, ebx, ecx, edx;

	*cpu = (struct cp_align_cpu){ 0 };
	if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
		cpu->avx = ecx & (1u << 28);
		cpu->osxsave = ecx & (1u << 27);
	}
	if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
		cpu->avx512f = ebx & (1u << 16);
	if (cpu->osxsave)
		cpu->xcr0 = read_xcr0();
}

bool cp_align_width_valid(unsigned int width)
{
	for (int i = 0; i < CP_ALIGN_NR_WIDTHS; i++)
		if (cp_align_widths[i] == width)
			return true;
	return false;
}

const char *cp_align_width_unsupported(unsigned int width,
				       const struct cp_align_cpu *cpu)
{
	uint64_t ymm = XCR0_SSE | XCR0_YMM;

	if (!cp_align_width_valid(width))
		return "not an access width (1, 2, 4, 8, 16, 32 or 64)";
	if (width <= 16)
		return NULL;
	if (!cpu->avx)
		return width == 32 ? "32-byte accesses need AVX, which this CPU lacks"
				   : "64-byte accesses need AVX-512F, which this CPU lacks";
	if (!cpu->osxsave || (cpu->xcr0 & ymm) != ymm)
		return "the kernel does not enable AVX register state (XCR0)";
	if (width == 32)
		return NULL;
	if (!cpu->avx512f)
		return "64-byte accesses need AVX-512F, which this CPU lacks";
	if ((cpu->xcr0 & XCR0_AVX512) != XCR0_AVX512)
		return "the kernel does not enable AVX-512 register state (XCR0)";
	return NULL;
}
