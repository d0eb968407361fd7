// SPDX-License-Identifier: GPL-2.0
#include "areas/align/align_loops.h"

uint64_t cp_align_classic_loop(const unsigned char *first, uint64_t half,
			       uint64_t step, uint64_t steps, uint64_t laps)
{
	uint64_t a0 = 0, a1 = 0, t, g;
	const unsigned char *p;

	__asm__ __volatile__("1:\n\t"
			     "mov %[first], %[p]\n\t"
			     "mov %[steps], %[g]\n\t"
			     "2:\n\t"
			     "movzbl (%[p]), %k[t]\n\t"
			     "add %[t], %[a0]\n\t"
			     "movzbl (%[p],%[half],1), %k[t]\n\t"
			     "add %[t], %[a1]\n\t"
			     "add %[step], %[p]\n\t"
			     "dec %[g]\n\t"
			     "jnz 2b\n\t"
			     "dec %[laps]\n\t"
			     "jnz 1b\n\t"
			     : [a0] "+r"(a0), [a1] "+r"(a1), [t] "=&r"(t),
			       [g] "=&r"(g), [p] "=&r"(p), [laps] "+r"(laps)
			     : [first] "r"(first), [half] "r"(half),
			       [step] "r"(step), [steps] "r"(steps)
			     : "memory", "cc");
	return a0 + a1;
}
