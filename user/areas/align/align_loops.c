// SPDX-License-Identifier: GPL-2.0
#include "areas/align/align_loops.h"

#include <stddef.h>

/* --- Pointer chase, 8 to 64 bytes --- */

#define CHASE_LOOP(w, hop, end)						\
static void *chase_##w(void *p, uint64_t count)				\
{									\
	for (uint64_t i = 0; i < count; i++)				\
		__asm__ __volatile__(".rept 16\n\t" hop "\n\t.endr"	\
				     : "+r"(p) : : "memory", "xmm0");	\
	__asm__ __volatile__(end ::: "memory");				\
	return p;							\
}

CHASE_LOOP(8, "movq (%0), %0", "")
CHASE_LOOP(16, "movdqu (%0), %%xmm0\n\tmovq %%xmm0, %0", "")
CHASE_LOOP(32, "vmovdqu (%0), %%ymm0\n\tvmovq %%xmm0, %0", "vzeroupper")
CHASE_LOOP(64, "vmovdqu64 (%0), %%zmm0\n\tvmovq %%xmm0, %0", "vzeroupper")

/* --- Dependent chain, 1 to 4 bytes --- */

#define CHAIN_LOOP(w, load)						\
static void chain_##w(uintptr_t *position, const uintptr_t **table,	\
		      uint64_t *sum)					\
{									\
	uintptr_t p = *position;					\
	const uintptr_t *t = *table;					\
	uint64_t s = *sum, v;						\
									\
	__asm__ __volatile__(".rept 16\n\t"				\
			     load " (%[p]), %k[v]\n\t"			\
			     "add %[v], %[s]\n\t"			\
			     "mov (%[t]), %[p]\n\t"			\
			     "add $8, %[t]\n\t"				\
			     "add %[v], %[p]\n\t"			\
			     ".endr"					\
			     : [p] "+r"(p), [t] "+r"(t), [s] "+r"(s),	\
			       [v] "=&r"(v)				\
			     : : "memory", "cc");			\
	*position = p;							\
	*table = t;							\
	*sum = s;							\
}

CHAIN_LOOP(1, "movzbl")
CHAIN_LOOP(2, "movzwl")
CHAIN_LOOP(4, "movl")

/* --- Independent loads and stores, CP_ALIGN_UNROLL per group --- */

#define A0 "(%[p])"
#define A1 "(%[p],%[s],1)"
#define A2 "(%[p],%[s],2)"
#define A3 "(%[p],%[s3],1)"

/* Laps over groups; @group is the four accesses at A0..A3. */
#define SLOT_LOOP(group)						\
	"1:\n\t"							\
	"mov %[first], %[p]\n\t"					\
	"mov %[groups], %[g]\n\t"					\
	"2:\n\t"							\
	group								\
	"lea (%[p],%[s],4), %[p]\n\t"					\
	"dec %[g]\n\t"							\
	"jnz 2b\n\t"							\
	"dec %[laps]\n\t"						\
	"jnz 1b\n\t"

#define SLOT_OPERANDS							\
	[first] "r"(first), [s] "r"(stride), [s3] "r"(3 * stride),	\
	[groups] "r"(groups)

#define GPR_ADD(load, a, acc) load " " a ", %k[t]\n\tadd %[t], %[" acc "]\n\t"
#define GPR_ADD8(a, acc) "movq " a ", %[t]\n\tadd %[t], %[" acc "]\n\t"
#define GPR_GROUP(load)							\
	GPR_ADD(load, A0, "a0") GPR_ADD(load, A1, "a1")			\
	GPR_ADD(load, A2, "a2") GPR_ADD(load, A3, "a3")

#define GPR_LOAD_LOOP(w, group)						\
static uint64_t load_##w(const unsigned char *first, uint64_t stride,	\
			 uint64_t groups, uint64_t laps)		\
{									\
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, t, g;			\
	const unsigned char *p;						\
									\
	__asm__ __volatile__(SLOT_LOOP(group)				\
			     : [a0] "+r"(a0), [a1] "+r"(a1),		\
			       [a2] "+r"(a2), [a3] "+r"(a3),		\
			       [t] "=&r"(t), [g] "=&r"(g), [p] "=&r"(p),\
			       [laps] "+r"(laps)			\
			     : SLOT_OPERANDS : "memory", "cc");		\
	return a0 + a1 + a2 + a3;					\
}

GPR_LOAD_LOOP(1, GPR_GROUP("movzbl"))
GPR_LOAD_LOOP(2, GPR_GROUP("movzwl"))
GPR_LOAD_LOOP(4, GPR_GROUP("movl"))
GPR_LOAD_LOOP(8, GPR_ADD8(A0, "a0") GPR_ADD8(A1, "a1")
		 GPR_ADD8(A2, "a2") GPR_ADD8(A3, "a3"))

/* Vector loads into register 0, added lane-wise (64-bit) into 4..7, which
 * are stored to @out at the end. */
#define VEC_ADD(load, add, a, acc) load " " a ", %%" acc "0\n\t" add "\n\t"
#define VEC_LOAD_LOOP(w, r, load, add4, zero, save, end)		\
static uint64_t load_##w(const unsigned char *first, uint64_t stride,	\
			 uint64_t groups, uint64_t laps)		\
{									\
	uint64_t out[4 * w / 8], sum = 0, g;				\
	const unsigned char *p;						\
									\
	__asm__ __volatile__(zero					\
			     SLOT_LOOP(add4)				\
			     save end					\
			     : [g] "=&r"(g), [p] "=&r"(p),		\
			       [laps] "+r"(laps)			\
			     : SLOT_OPERANDS, [out] "r"(out)		\
			     : "memory", "cc", "xmm0", "xmm4", "xmm5",	\
			       "xmm6", "xmm7");				\
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++)	\
		sum += out[i];						\
	return sum;							\
}

#define ADD16(n) "paddq %%xmm0, %%xmm" #n
#define ADD32(n) "vpaddq %%ymm0, %%ymm" #n ", %%ymm" #n
#define ADD64(n) "vpaddq %%zmm0, %%zmm" #n ", %%zmm" #n
#define VEC_GROUP(load, r, ADD)						\
	VEC_ADD(load, ADD(4), A0, r) VEC_ADD(load, ADD(5), A1, r)	\
	VEC_ADD(load, ADD(6), A2, r) VEC_ADD(load, ADD(7), A3, r)

VEC_LOAD_LOOP(16, "xmm", "movdqu", VEC_GROUP("movdqu", "xmm", ADD16),
	      "pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
	      "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\t",
	      "movdqu %%xmm4, 0(%[out])\n\tmovdqu %%xmm5, 16(%[out])\n\t"
	      "movdqu %%xmm6, 32(%[out])\n\tmovdqu %%xmm7, 48(%[out])\n\t",
	      "")
VEC_LOAD_LOOP(32, "ymm", "vmovdqu", VEC_GROUP("vmovdqu", "ymm", ADD32),
	      "vpxor %%xmm4, %%xmm4, %%xmm4\n\tvpxor %%xmm5, %%xmm5, %%xmm5\n\t"
	      "vpxor %%xmm6, %%xmm6, %%xmm6\n\tvpxor %%xmm7, %%xmm7, %%xmm7\n\t",
	      "vmovdqu %%ymm4, 0(%[out])\n\tvmovdqu %%ymm5, 32(%[out])\n\t"
	      "vmovdqu %%ymm6, 64(%[out])\n\tvmovdqu %%ymm7, 96(%[out])\n\t",
	      "vzeroupper")
VEC_LOAD_LOOP(64, "zmm", "vmovdqu64", VEC_GROUP("vmovdqu64", "zmm", ADD64),
	      "vpxord %%zmm4, %%zmm4, %%zmm4\n\tvpxord %%zmm5, %%zmm5, %%zmm5\n\t"
	      "vpxord %%zmm6, %%zmm6, %%zmm6\n\tvpxord %%zmm7, %%zmm7, %%zmm7\n\t",
	      "vmovdqu64 %%zmm4, 0(%[out])\n\tvmovdqu64 %%zmm5, 64(%[out])\n\t"
	      "vmovdqu64 %%zmm6, 128(%[out])\n\tvmovdqu64 %%zmm7, 192(%[out])\n\t",
	      "vzeroupper")

#define STORE4(st, src)							\
	st " " src ", " A0 "\n\t" st " " src ", " A1 "\n\t"		\
	st " " src ", " A2 "\n\t" st " " src ", " A3 "\n\t"

#define GPR_STORE_LOOP(w, st, src)					\
static void store_##w(unsigned char *first, uint64_t stride,		\
		      uint64_t groups, uint64_t laps,			\
		      const unsigned char *pattern)			\
{									\
	uint64_t v = 0, g;						\
	unsigned char *p;						\
									\
	for (int i = 7; i >= 0; i--)					\
		v = v << 8 | pattern[i];				\
	__asm__ __volatile__(SLOT_LOOP(STORE4(st, src))			\
			     : [g] "=&r"(g), [p] "=&r"(p),		\
			       [laps] "+r"(laps)			\
			     : SLOT_OPERANDS, [v] "r"(v)		\
			     : "memory", "cc");				\
}

GPR_STORE_LOOP(1, "movb", "%b[v]")
GPR_STORE_LOOP(2, "movw", "%w[v]")
GPR_STORE_LOOP(4, "movl", "%k[v]")
GPR_STORE_LOOP(8, "movq", "%[v]")

#define VEC_STORE_LOOP(w, st, r, end)					\
static void store_##w(unsigned char *first, uint64_t stride,		\
		      uint64_t groups, uint64_t laps,			\
		      const unsigned char *pattern)			\
{									\
	uint64_t g;							\
	unsigned char *p;						\
									\
	__asm__ __volatile__(st " (%[pat]), %%" r "1\n\t"		\
			     SLOT_LOOP(STORE4(st, "%%" r "1"))		\
			     end					\
			     : [g] "=&r"(g), [p] "=&r"(p),		\
			       [laps] "+r"(laps)			\
			     : SLOT_OPERANDS, [pat] "r"(pattern)	\
			     : "memory", "cc", "xmm1");			\
}

VEC_STORE_LOOP(16, "movdqu", "xmm", "")
VEC_STORE_LOOP(32, "vmovdqu", "ymm", "vzeroupper")
VEC_STORE_LOOP(64, "vmovdqu64", "zmm", "vzeroupper")

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

static int width_index(unsigned int width)
{
	for (int i = 0; i < 7; i++)
		if (width == 1u << i)
			return i;
	return -1;
}

cp_align_chase_fn cp_align_chase_loop(unsigned int width)
{
	static const cp_align_chase_fn loops[7] = {
		[3] = chase_8, [4] = chase_16, [5] = chase_32, [6] = chase_64,
	};
	int i = width_index(width);

	return i < 0 ? NULL : loops[i];
}

cp_align_chain_fn cp_align_chain_loop(unsigned int width)
{
	static const cp_align_chain_fn loops[7] = {
		[0] = chain_1, [1] = chain_2, [2] = chain_4,
	};
	int i = width_index(width);

	return i < 0 ? NULL : loops[i];
}

cp_align_load_fn cp_align_load_loop(unsigned int width)
{
	static const cp_align_load_fn loops[7] = {
		load_1, load_2, load_4, load_8, load_16, load_32, load_64,
	};
	int i = width_index(width);

	return i < 0 ? NULL : loops[i];
}

cp_align_store_fn cp_align_store_loop(unsigned int width)
{
	static const cp_align_store_fn loops[7] = {
		store_1, store_2, store_4, store_8, store_16, store_32, store_64,
	};
	int i = width_index(width);

	return i < 0 ? NULL : loops[i];
}
