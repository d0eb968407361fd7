/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The align area's measured loops, once for the module (ACCESS) and the
 * tool: loads and stores of 1 to 64 bytes, each access exactly one
 * instruction of the width it claims (movzbl, movzwl, movl, movq; movdqu
 * for 16 bytes, vmovdqu for 32, vmovdqu64 for 64), written out in inline
 * assembly so that the compiler chooses neither the instruction nor the
 * registers of the loop.  The 32- and 64-byte loops end with vzeroupper.
 * Callers check first that the CPU can do the width.
 *
 * Every register an asm writes is an operand or a clobber: a load into a
 * hard-coded register the compiler did not know about once overwrote a
 * slot index it kept there.  The vector registers are clobbers in user
 * space only: the kernel is built without SSE, so GCC refuses them as
 * clobbers there and, for the same reason, never keeps a value in them;
 * the module runs the wide loops between kernel_fpu_begin() and
 * kernel_fpu_end(), which save the task's own.
 *
 * Freestanding: no libc, kernel types.
 */
#ifndef CACHEPROBE_MEASURE_ACCESS_H
#define CACHEPROBE_MEASURE_ACCESS_H

#include <linux/types.h>
#ifndef __KERNEL__
#define CP_ACCESS_VEC(...)	__VA_ARGS__,
#else
#define CP_ACCESS_VEC(...)
#endif

/* Hops of one call of a dependent loop (chase or chain). */
#define CP_ACCESS_HOPS		16
/*
 * Independent accesses per group: slot counts of the throughput loops are
 * multiples of it.
 */
#define CP_ACCESS_UNROLL	4

/*
 * Pointer chase for 8 to 64 bytes: @count times 16 hops, each loading the
 * access at the pointer and taking its first 8 bytes as the next pointer
 * (through a movq from the vector register for 16 to 64 bytes).
 */
#define CP_ACCESS_CHASE(w, hop, end)					\
static inline void *cp_access_chase_##w(void *p, __u64 count)		\
{									\
	while (count--)							\
		__asm__ __volatile__(".rept 16\n\t" hop "\n\t.endr"	\
				     : "+r" (p)				\
				     : : CP_ACCESS_VEC("xmm0") "memory");	\
	__asm__ __volatile__(end : : : "memory");			\
	return p;							\
}

CP_ACCESS_CHASE(8, "movq (%0), %0", "")
CP_ACCESS_CHASE(16, "movdqu (%0), %%xmm0\n\tmovq %%xmm0, %0", "")
CP_ACCESS_CHASE(32, "vmovdqu (%0), %%ymm0\n\tvmovq %%xmm0, %0", "vzeroupper")
CP_ACCESS_CHASE(64, "vmovdqu64 (%0), %%zmm0\n\tvmovq %%xmm0, %0",
		"vzeroupper")

/*
 * Dependent chain for 1 to 4 bytes, too narrow for a pointer: @count times
 * 16 hops, each loading at *@position and adding the loaded value (0) to
 * the next slot's address taken from *@next (which moves on one entry a
 * hop, from @end back to @table), so every load waits for the one before.
 * The loaded values are summed into *@sum.  The table's length is a
 * multiple of 16 (cp_access_chain_table()).
 */
#define CP_ACCESS_CHAIN(w, load)					\
static inline void cp_access_chain_##w(unsigned long *position,	\
				       const unsigned long **next,	\
				       const unsigned long *table,	\
				       const unsigned long *end,	\
				       __u64 count, __u64 *sum)		\
{									\
	unsigned long p = *position, v;					\
	const unsigned long *t = *next;					\
	__u64 s = *sum;							\
									\
	while (count--) {						\
		__asm__ __volatile__(".rept 16\n\t"			\
				     load " (%[p]), %k[v]\n\t"		\
				     "add %[v], %[s]\n\t"		\
				     "mov (%[t]), %[p]\n\t"		\
				     "add $8, %[t]\n\t"			\
				     "add %[v], %[p]\n\t"		\
				     ".endr"				\
				     : [p] "+r" (p), [t] "+r" (t),	\
				       [s] "+r" (s), [v] "=&r" (v)	\
				     : : "memory", "cc");		\
		if (t == end)						\
			t = table;					\
	}								\
	*position = p;							\
	*next = t;							\
	*sum = s;							\
}

CP_ACCESS_CHAIN(1, "movzbl")
CP_ACCESS_CHAIN(2, "movzwl")
CP_ACCESS_CHAIN(4, "movl")

/**
 * cp_access_chain_table() - the next addresses of a narrow chain
 * @table: receives entries @from to @to - 1
 * @from: the first entry to fill now
 * @to: one past the last: the module fills in slices between looks at
 *	signals
 * @order: a random order of the @n slots (rng.h), the cycle
 * @n: slots
 * @first: slot 0's access
 * @stride: bytes between slots
 *
 * Entry i is the address of the slot after position i of the cycle, the
 * cycle repeated to fill a table of a multiple of 16 entries (a whole
 * number of the chain's calls): when @n is not a multiple of 16, the
 * chain's lap is that many hops and visits some slots twice.
 */
static inline void cp_access_chain_table(unsigned long *table, __u64 from,
					 __u64 to, const __u32 *order,
					 __u64 n, const unsigned char *first,
					 __u32 stride)
{
	__u64 i;

	for (i = from; i < to; i++)
		table[i] = (unsigned long)(first +
					   (__u64)order[(i + 1) % n] * stride);
}

/*
 * The four accesses of a group: at p, p + s, p + 2s and p + 3s.  A lap
 * walks @groups groups from @first; @laps laps.
 */
#define CP_ACCESS_A0 "(%[p])"
#define CP_ACCESS_A1 "(%[p],%[s],1)"
#define CP_ACCESS_A2 "(%[p],%[s],2)"
#define CP_ACCESS_A3 "(%[p],%[s3],1)"

#define CP_ACCESS_LAPS(group)						\
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

#define CP_ACCESS_SLOTS							\
	[first] "r" (first), [s] "r" (stride), [s3] "r" (3 * stride),	\
	[groups] "r" (groups)

/* Independent loads into general registers, added to four sums. */
#define CP_ACCESS_GPR_ADD(load, a, acc)					\
	load " " a ", %k[t]\n\tadd %[t], %[" acc "]\n\t"
#define CP_ACCESS_GPR_ADD8(a, acc)					\
	"movq " a ", %[t]\n\tadd %[t], %[" acc "]\n\t"

#define CP_ACCESS_GPR_LOAD(w, group)					\
static inline __u64 cp_access_load_##w(const unsigned char *first,	\
				       __u64 stride, __u64 groups,	\
				       __u64 laps)			\
{									\
	__u64 a0 = 0, a1 = 0, a2 = 0, a3 = 0, t, g;			\
	const unsigned char *p;						\
									\
	__asm__ __volatile__(CP_ACCESS_LAPS(group)			\
			     : [a0] "+r" (a0), [a1] "+r" (a1),		\
			       [a2] "+r" (a2), [a3] "+r" (a3),		\
			       [t] "=&r" (t), [g] "=&r" (g),		\
			       [p] "=&r" (p), [laps] "+r" (laps)	\
			     : CP_ACCESS_SLOTS : "memory", "cc");	\
	return a0 + a1 + a2 + a3;					\
}

CP_ACCESS_GPR_LOAD(1, CP_ACCESS_GPR_ADD("movzbl", CP_ACCESS_A0, "a0")
		      CP_ACCESS_GPR_ADD("movzbl", CP_ACCESS_A1, "a1")
		      CP_ACCESS_GPR_ADD("movzbl", CP_ACCESS_A2, "a2")
		      CP_ACCESS_GPR_ADD("movzbl", CP_ACCESS_A3, "a3"))
CP_ACCESS_GPR_LOAD(2, CP_ACCESS_GPR_ADD("movzwl", CP_ACCESS_A0, "a0")
		      CP_ACCESS_GPR_ADD("movzwl", CP_ACCESS_A1, "a1")
		      CP_ACCESS_GPR_ADD("movzwl", CP_ACCESS_A2, "a2")
		      CP_ACCESS_GPR_ADD("movzwl", CP_ACCESS_A3, "a3"))
CP_ACCESS_GPR_LOAD(4, CP_ACCESS_GPR_ADD("movl", CP_ACCESS_A0, "a0")
		      CP_ACCESS_GPR_ADD("movl", CP_ACCESS_A1, "a1")
		      CP_ACCESS_GPR_ADD("movl", CP_ACCESS_A2, "a2")
		      CP_ACCESS_GPR_ADD("movl", CP_ACCESS_A3, "a3"))
CP_ACCESS_GPR_LOAD(8, CP_ACCESS_GPR_ADD8(CP_ACCESS_A0, "a0")
		      CP_ACCESS_GPR_ADD8(CP_ACCESS_A1, "a1")
		      CP_ACCESS_GPR_ADD8(CP_ACCESS_A2, "a2")
		      CP_ACCESS_GPR_ADD8(CP_ACCESS_A3, "a3"))

/*
 * Vector loads into register 0, added lane-wise (64-bit lanes) into
 * registers 4 to 7, which are stored to @out at the end; the sum of
 * every lane is returned.
 */
#define CP_ACCESS_VEC_ADD(load, add, a, r)				\
	load " " a ", %%" r "0\n\t" add "\n\t"
#define CP_ACCESS_ADD16(n) "paddq %%xmm0, %%xmm" #n
#define CP_ACCESS_ADD32(n) "vpaddq %%ymm0, %%ymm" #n ", %%ymm" #n
#define CP_ACCESS_ADD64(n) "vpaddq %%zmm0, %%zmm" #n ", %%zmm" #n

#define CP_ACCESS_VEC_LOAD(w, group, zero, save, end)			\
static inline __u64 cp_access_load_##w(const unsigned char *first,	\
				       __u64 stride, __u64 groups,	\
				       __u64 laps)			\
{									\
	__u64 out[(w) / 2], sum = 0, g;					\
	const unsigned char *p;						\
	unsigned int i;							\
									\
	__asm__ __volatile__(zero CP_ACCESS_LAPS(group) save end	\
			     : [g] "=&r" (g), [p] "=&r" (p),		\
			       [laps] "+r" (laps)			\
			     : CP_ACCESS_SLOTS, [out] "r" (out)		\
			     : CP_ACCESS_VEC("xmm0", "xmm4", "xmm5",	\
					     "xmm6", "xmm7")		\
			       "memory", "cc");				\
	for (i = 0; i < sizeof(out); i += sizeof(*out))			\
		sum += out[i / sizeof(*out)];				\
	return sum;							\
}

CP_ACCESS_VEC_LOAD(16,
		   CP_ACCESS_VEC_ADD("movdqu", CP_ACCESS_ADD16(4), CP_ACCESS_A0, "xmm")
		   CP_ACCESS_VEC_ADD("movdqu", CP_ACCESS_ADD16(5), CP_ACCESS_A1, "xmm")
		   CP_ACCESS_VEC_ADD("movdqu", CP_ACCESS_ADD16(6), CP_ACCESS_A2, "xmm")
		   CP_ACCESS_VEC_ADD("movdqu", CP_ACCESS_ADD16(7), CP_ACCESS_A3, "xmm"),
		   "pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
		   "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\t",
		   "movdqu %%xmm4, 0(%[out])\n\tmovdqu %%xmm5, 16(%[out])\n\t"
		   "movdqu %%xmm6, 32(%[out])\n\tmovdqu %%xmm7, 48(%[out])\n\t",
		   "")
CP_ACCESS_VEC_LOAD(32,
		   CP_ACCESS_VEC_ADD("vmovdqu", CP_ACCESS_ADD32(4), CP_ACCESS_A0, "ymm")
		   CP_ACCESS_VEC_ADD("vmovdqu", CP_ACCESS_ADD32(5), CP_ACCESS_A1, "ymm")
		   CP_ACCESS_VEC_ADD("vmovdqu", CP_ACCESS_ADD32(6), CP_ACCESS_A2, "ymm")
		   CP_ACCESS_VEC_ADD("vmovdqu", CP_ACCESS_ADD32(7), CP_ACCESS_A3, "ymm"),
		   "vpxor %%xmm4, %%xmm4, %%xmm4\n\t"
		   "vpxor %%xmm5, %%xmm5, %%xmm5\n\t"
		   "vpxor %%xmm6, %%xmm6, %%xmm6\n\t"
		   "vpxor %%xmm7, %%xmm7, %%xmm7\n\t",
		   "vmovdqu %%ymm4, 0(%[out])\n\tvmovdqu %%ymm5, 32(%[out])\n\t"
		   "vmovdqu %%ymm6, 64(%[out])\n\tvmovdqu %%ymm7, 96(%[out])\n\t",
		   "vzeroupper")
CP_ACCESS_VEC_LOAD(64,
		   CP_ACCESS_VEC_ADD("vmovdqu64", CP_ACCESS_ADD64(4), CP_ACCESS_A0,
				     "zmm")
		   CP_ACCESS_VEC_ADD("vmovdqu64", CP_ACCESS_ADD64(5), CP_ACCESS_A1,
				     "zmm")
		   CP_ACCESS_VEC_ADD("vmovdqu64", CP_ACCESS_ADD64(6), CP_ACCESS_A2,
				     "zmm")
		   CP_ACCESS_VEC_ADD("vmovdqu64", CP_ACCESS_ADD64(7), CP_ACCESS_A3,
				     "zmm"),
		   "vpxord %%zmm4, %%zmm4, %%zmm4\n\t"
		   "vpxord %%zmm5, %%zmm5, %%zmm5\n\t"
		   "vpxord %%zmm6, %%zmm6, %%zmm6\n\t"
		   "vpxord %%zmm7, %%zmm7, %%zmm7\n\t",
		   "vmovdqu64 %%zmm4, 0(%[out])\n\t"
		   "vmovdqu64 %%zmm5, 64(%[out])\n\t"
		   "vmovdqu64 %%zmm6, 128(%[out])\n\t"
		   "vmovdqu64 %%zmm7, 192(%[out])\n\t",
		   "vzeroupper")

/* Independent stores of the first w bytes of a 64-byte @pattern. */
#define CP_ACCESS_STORE(st, src, a)	st " " src ", " a "\n\t"

#define CP_ACCESS_GPR_STORE(w, group)					\
static inline void cp_access_store_##w(unsigned char *first,		\
				       __u64 stride, __u64 groups,	\
				       __u64 laps,			\
				       const unsigned char *pattern)	\
{									\
	__u64 v = 0, g;							\
	unsigned char *p;						\
	int i;								\
									\
	for (i = 7; i >= 0; i--)					\
		v = v << 8 | pattern[i];				\
	__asm__ __volatile__(CP_ACCESS_LAPS(group)			\
			     : [g] "=&r" (g), [p] "=&r" (p),		\
			       [laps] "+r" (laps)			\
			     : CP_ACCESS_SLOTS, [v] "r" (v)		\
			     : "memory", "cc");				\
}

CP_ACCESS_GPR_STORE(1, CP_ACCESS_STORE("movb", "%b[v]", CP_ACCESS_A0)
		       CP_ACCESS_STORE("movb", "%b[v]", CP_ACCESS_A1)
		       CP_ACCESS_STORE("movb", "%b[v]", CP_ACCESS_A2)
		       CP_ACCESS_STORE("movb", "%b[v]", CP_ACCESS_A3))
CP_ACCESS_GPR_STORE(2, CP_ACCESS_STORE("movw", "%w[v]", CP_ACCESS_A0)
		       CP_ACCESS_STORE("movw", "%w[v]", CP_ACCESS_A1)
		       CP_ACCESS_STORE("movw", "%w[v]", CP_ACCESS_A2)
		       CP_ACCESS_STORE("movw", "%w[v]", CP_ACCESS_A3))
CP_ACCESS_GPR_STORE(4, CP_ACCESS_STORE("movl", "%k[v]", CP_ACCESS_A0)
		       CP_ACCESS_STORE("movl", "%k[v]", CP_ACCESS_A1)
		       CP_ACCESS_STORE("movl", "%k[v]", CP_ACCESS_A2)
		       CP_ACCESS_STORE("movl", "%k[v]", CP_ACCESS_A3))
CP_ACCESS_GPR_STORE(8, CP_ACCESS_STORE("movq", "%[v]", CP_ACCESS_A0)
		       CP_ACCESS_STORE("movq", "%[v]", CP_ACCESS_A1)
		       CP_ACCESS_STORE("movq", "%[v]", CP_ACCESS_A2)
		       CP_ACCESS_STORE("movq", "%[v]", CP_ACCESS_A3))

/* The pattern goes to vector register 1 first (@fill). */
#define CP_ACCESS_VEC_STORE(w, fill, group, end)			\
static inline void cp_access_store_##w(unsigned char *first,		\
				       __u64 stride, __u64 groups,	\
				       __u64 laps,			\
				       const unsigned char *pattern)	\
{									\
	__u64 g;							\
	unsigned char *p;						\
									\
	__asm__ __volatile__(fill CP_ACCESS_LAPS(group) end		\
			     : [g] "=&r" (g), [p] "=&r" (p),		\
			       [laps] "+r" (laps)			\
			     : CP_ACCESS_SLOTS, [pat] "r" (pattern)	\
			     : CP_ACCESS_VEC("xmm1") "memory", "cc");	\
}

CP_ACCESS_VEC_STORE(16, "movdqu (%[pat]), %%xmm1\n\t",
		    CP_ACCESS_STORE("movdqu", "%%xmm1", CP_ACCESS_A0)
		    CP_ACCESS_STORE("movdqu", "%%xmm1", CP_ACCESS_A1)
		    CP_ACCESS_STORE("movdqu", "%%xmm1", CP_ACCESS_A2)
		    CP_ACCESS_STORE("movdqu", "%%xmm1", CP_ACCESS_A3), "")
CP_ACCESS_VEC_STORE(32, "vmovdqu (%[pat]), %%ymm1\n\t",
		    CP_ACCESS_STORE("vmovdqu", "%%ymm1", CP_ACCESS_A0)
		    CP_ACCESS_STORE("vmovdqu", "%%ymm1", CP_ACCESS_A1)
		    CP_ACCESS_STORE("vmovdqu", "%%ymm1", CP_ACCESS_A2)
		    CP_ACCESS_STORE("vmovdqu", "%%ymm1", CP_ACCESS_A3),
		    "vzeroupper")
CP_ACCESS_VEC_STORE(64, "vmovdqu64 (%[pat]), %%zmm1\n\t",
		    CP_ACCESS_STORE("vmovdqu64", "%%zmm1", CP_ACCESS_A0)
		    CP_ACCESS_STORE("vmovdqu64", "%%zmm1", CP_ACCESS_A1)
		    CP_ACCESS_STORE("vmovdqu64", "%%zmm1", CP_ACCESS_A2)
		    CP_ACCESS_STORE("vmovdqu64", "%%zmm1", CP_ACCESS_A3),
		    "vzeroupper")

/* @count times 16 hops from @position; returns where they stopped. */
typedef void *(*cp_access_chase_fn)(void *position, __u64 count);
/* @count times 16 hops of a chain; see CP_ACCESS_CHAIN. */
typedef void (*cp_access_chain_fn)(unsigned long *position,
				   const unsigned long **next,
				   const unsigned long *table,
				   const unsigned long *end, __u64 count,
				   __u64 *sum);
/*
 * @laps laps over @groups groups of CP_ACCESS_UNROLL slots @stride bytes
 * apart from @first; returns the sum of the loaded values' 64-bit lanes.
 */
typedef __u64 (*cp_access_load_fn)(const unsigned char *first, __u64 stride,
				   __u64 groups, __u64 laps);
/* The same walk storing the first width bytes of a 64-byte @pattern. */
typedef void (*cp_access_store_fn)(unsigned char *first, __u64 stride,
				   __u64 groups, __u64 laps,
				   const unsigned char *pattern);

/**
 * cp_access_chase_of() - the pointer chase of a width
 * @width: bytes per access
 *
 * Return: the loop, or NULL below 8 bytes (too narrow for a pointer:
 * cp_access_chain_of()) and for widths that are not 8, 16, 32 or 64.
 */
static inline cp_access_chase_fn cp_access_chase_of(unsigned int width)
{
	switch (width) {
	case 8:
		return cp_access_chase_8;
	case 16:
		return cp_access_chase_16;
	case 32:
		return cp_access_chase_32;
	case 64:
		return cp_access_chase_64;
	default:
		return (cp_access_chase_fn)0;
	}
}

/**
 * cp_access_chain_of() - the dependent chain of a width
 * @width: bytes per access
 *
 * Return: the loop for 1, 2 or 4 bytes; NULL otherwise.
 */
static inline cp_access_chain_fn cp_access_chain_of(unsigned int width)
{
	switch (width) {
	case 1:
		return cp_access_chain_1;
	case 2:
		return cp_access_chain_2;
	case 4:
		return cp_access_chain_4;
	default:
		return (cp_access_chain_fn)0;
	}
}

/**
 * cp_access_load_of() - the independent loads of a width
 * @width: bytes per access
 *
 * Return: the loop for 1, 2, 4, 8, 16, 32 or 64 bytes; NULL otherwise.
 */
static inline cp_access_load_fn cp_access_load_of(unsigned int width)
{
	switch (width) {
	case 1:
		return cp_access_load_1;
	case 2:
		return cp_access_load_2;
	case 4:
		return cp_access_load_4;
	case 8:
		return cp_access_load_8;
	case 16:
		return cp_access_load_16;
	case 32:
		return cp_access_load_32;
	case 64:
		return cp_access_load_64;
	default:
		return (cp_access_load_fn)0;
	}
}

/**
 * cp_access_store_of() - the independent stores of a width
 * @width: bytes per access
 *
 * Return: the loop for 1, 2, 4, 8, 16, 32 or 64 bytes; NULL otherwise.
 */
static inline cp_access_store_fn cp_access_store_of(unsigned int width)
{
	switch (width) {
	case 1:
		return cp_access_store_1;
	case 2:
		return cp_access_store_2;
	case 4:
		return cp_access_store_4;
	case 8:
		return cp_access_store_8;
	case 16:
		return cp_access_store_16;
	case 32:
		return cp_access_store_32;
	case 64:
		return cp_access_store_64;
	default:
		return (cp_access_store_fn)0;
	}
}

#endif
