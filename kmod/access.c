// SPDX-License-Identifier: GPL-2.0
/*
 * CACHEPROBE_CMD_ACCESS: loads or stores of 1 to 64 bytes at an offset
 * from a line boundary, as a dependent chain or independent accesses.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/math.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/fpu/types.h>
#include "runner.h"

#define CP_ACCESS_CHUNK		64
#define CP_ACCESS_MAX_OFFSET	4096

typedef void (*cp_access_fn)(void *base, u32 stride, u32 nr_slots, u32 n,
			     u32 *pos);

/*
 * One width's three loops.  @ld loads (%1) into %0 for the dependent
 * chain, @ldi loads (%1) for throughput (into %0, or a vector register),
 * @st stores to (%0), @zero prepares the stored register.  Slot addresses
 * advance in C; in the chain, the loaded value (always 0) is added to the
 * next address.
 *
 * Every general register an asm writes is an output operand: a load into
 * a hard-coded %eax once overwrote the slot index the compiler kept there,
 * so the throughput loop never left its first slot.  The vector registers
 * cannot be declared clobbered (the kernel is built without SSE, and GCC
 * refuses them); for the same reason the compiler never keeps a value in
 * them, and the FPU runs (cp_access_fpu_ops) save the task's own.
 */
#define CP_ACCESS_LOOPS(w, ld, ldi, st, zero)				\
static void cp_ld_dep_##w(void *base, u32 stride, u32 nr_slots, u32 n,	\
			  u32 *pos)					\
{									\
	u32 j = *pos;							\
	u64 v = 0;							\
									\
	while (n--) {							\
		void *p = base + (u64)j * stride + v;			\
									\
		asm volatile(ld : "=r" (v) : "r" (p) : "memory");	\
		if (++j == nr_slots)					\
			j = 0;						\
	}								\
	*pos = j;							\
}									\
static void cp_ld_ind_##w(void *base, u32 stride, u32 nr_slots, u32 n,	\
			  u32 *pos)					\
{									\
	u32 j = *pos;							\
	u64 sink;							\
									\
	while (n--) {							\
		asm volatile(ldi : "=r" (sink)				\
			     : "r" (base + (u64)j * stride) : "memory");	\
		if (++j == nr_slots)					\
			j = 0;						\
	}								\
	*pos = j;							\
}									\
static void cp_st_##w(void *base, u32 stride, u32 nr_slots, u32 n,	\
		      u32 *pos)						\
{									\
	u32 j = *pos;							\
									\
	asm volatile(zero : : : "memory");				\
	while (n--) {							\
		asm volatile(st : : "r" (base + (u64)j * stride)	\
			     : "memory");				\
		if (++j == nr_slots)					\
			j = 0;						\
	}								\
	*pos = j;							\
}

CP_ACCESS_LOOPS(1, "movzbl (%1), %k0", "movzbl (%1), %k0",
		"movb $0, (%0)", "")
CP_ACCESS_LOOPS(2, "movzwl (%1), %k0", "movzwl (%1), %k0",
		"movw $0, (%0)", "")
CP_ACCESS_LOOPS(4, "movl (%1), %k0", "movl (%1), %k0",
		"movl $0, (%0)", "")
CP_ACCESS_LOOPS(8, "movq (%1), %0", "movq (%1), %0",
		"movq $0, (%0)", "")
CP_ACCESS_LOOPS(16, "movdqu (%1), %%xmm0\n\tmovq %%xmm0, %0",
		"movdqu (%1), %%xmm0", "movdqu %%xmm0, (%0)",
		"pxor %%xmm0, %%xmm0")
CP_ACCESS_LOOPS(32, "vmovdqu (%1), %%ymm0\n\tvmovq %%xmm0, %0",
		"vmovdqu (%1), %%ymm0", "vmovdqu %%ymm0, (%0)",
		"vpxor %%ymm0, %%ymm0, %%ymm0")
CP_ACCESS_LOOPS(64, "vmovdqu64 (%1), %%zmm0\n\tvmovq %%xmm0, %0",
		"vmovdqu64 (%1), %%zmm0", "vmovdqu64 %%zmm0, (%0)",
		"vpxord %%zmm0, %%zmm0, %%zmm0")

/* [log2 width][variant - 1] */
static const cp_access_fn cp_access_fns[7][3] = {
	{ cp_ld_dep_1, cp_ld_ind_1, cp_st_1 },
	{ cp_ld_dep_2, cp_ld_ind_2, cp_st_2 },
	{ cp_ld_dep_4, cp_ld_ind_4, cp_st_4 },
	{ cp_ld_dep_8, cp_ld_ind_8, cp_st_8 },
	{ cp_ld_dep_16, cp_ld_ind_16, cp_st_16 },
	{ cp_ld_dep_32, cp_ld_ind_32, cp_st_32 },
	{ cp_ld_dep_64, cp_ld_ind_64, cp_st_64 },
};

struct cp_access {
	void *base;
	u32 stride;
	u32 nr_slots;
	u32 accesses;
	u32 width;
	u32 pos;
	bool warm;
	cp_access_fn fn;
};

/**
 * cp_access_width_ok() - whether ACCESS can use a width here
 * @width: bytes
 *
 * Return: true for 1, 2, 4, 8 and 16; for 32 with AVX and 64 with
 * AVX-512F when the kernel manages their register state.
 */
bool cp_access_width_ok(u32 width)
{
	switch (width) {
	case 1:
	case 2:
	case 4:
	case 8:
	case 16:
		return true;
	case 32:
		return boot_cpu_has(X86_FEATURE_AVX) &&
		       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM,
					 NULL);
	case 64:
		return boot_cpu_has(X86_FEATURE_AVX512F) &&
		       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
					 XFEATURE_MASK_AVX512, NULL);
	default:
		return false;
	}
}

/* The first sample finds the slots cached: read each once beforehand. */
static int cp_access_prepare(struct cp_worker *w)
{
	struct cp_access *a = cp_run_ctx(w);
	u32 j;

	if (a->warm)
		return 0;
	for (j = 0; j < a->nr_slots; j++)
		READ_ONCE(*(u8 *)(a->base + (u64)j * a->stride));
	a->warm = true;
	return 0;
}

/*
 * Test builds: a loop of @n accesses from slot @from must end @n slots on
 * (modulo the slots); one that lost its index (an undeclared register
 * clobber) does not.  Compiled out of the module meant for use.
 */
static void cp_access_check_walk(const struct cp_access *a, u32 from, u32 n)
{
	if (a->pos != (u32)(((u64)from + n) % a->nr_slots))
		cp_lost_place();
}

static int cp_access_sample(struct cp_worker *w, u64 round, u64 deadline,
			    u64 *value)
{
	struct cp_access *a = cp_run_ctx(w);
	u32 left = a->accesses, n, from;
	u64 start, end;
	int ret;

	start = rdtsc_ordered();
	while (left) {
		n = min_t(u32, left, CP_ACCESS_CHUNK);
		left -= n;
		from = a->pos;
		a->fn(a->base, a->stride, a->nr_slots, n, &a->pos);
		cp_access_check_walk(a, from, n);
		ret = cp_run_check(w, deadline);
		if (ret)
			goto out;
	}
	end = rdtsc_ordered();
	*value = end - start;
out:
	/* Leave no upper vector state behind for SSE code. */
	if (a->width >= 32)
		asm volatile("vzeroupper");
	return ret;
}

static const struct cp_run_ops cp_access_ops = {
	.prepare = cp_access_prepare,
	.sample = cp_access_sample,
};

static const struct cp_run_ops cp_access_fpu_ops = {
	.prepare = cp_access_prepare,
	.sample = cp_access_sample,
	.fpu = true,
};

static int cp_access_check(const struct cp_access_req *req, u32 *stride,
			   struct cp_err *err)
{
	u32 line = boot_cpu_data.x86_clflush_size;

	if (req->variant < CACHEPROBE_ACCESS_LOAD_LATENCY ||
	    req->variant > CACHEPROBE_ACCESS_STORE_THROUGHPUT)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_VARIANT,
			       "unknown variant",
			       "access variant %u; LOAD_LATENCY %u, LOAD_THROUGHPUT %u or STORE_THROUGHPUT %u",
			       req->variant, CACHEPROBE_ACCESS_LOAD_LATENCY,
			       CACHEPROBE_ACCESS_LOAD_THROUGHPUT,
			       CACHEPROBE_ACCESS_STORE_THROUGHPUT);
	if (!req->width || req->width > 64 || !is_power_of_2(req->width))
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_WIDTH,
			       "bad WIDTH", "width %u; 1, 2, 4, 8, 16, 32 or 64",
			       req->width);
	if (!cp_access_width_ok(req->width))
		return cp_fail(err, EOPNOTSUPP, CACHEPROBE_ATTR_WIDTH,
			       "width not supported on this CPU",
			       "%u-byte accesses need %s", req->width,
			       req->width == 32 ? "AVX" : "AVX-512F");
	if (req->offset >= CP_ACCESS_MAX_OFFSET)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_OFFSET,
			       "OFFSET out of range", "offset %u; below %u",
			       req->offset, CP_ACCESS_MAX_OFFSET);
	*stride = req->stride ? req->stride :
		  round_up(req->offset + req->width, line);
	if (*stride < req->width)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_STRIDE,
			       "STRIDE smaller than WIDTH",
			       "stride %u, width %u", *stride, req->width);
	if (req->size < (u64)req->offset + req->width)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_SIZE,
			       "SIZE holds no slot",
			       "size %llu; need at least OFFSET + WIDTH = %u",
			       req->size, req->offset + req->width);
	if (!req->accesses || req->accesses > CACHEPROBE_MAX_OPS)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_OPS,
			       "OPS out of range", "%u accesses; 1 to %u",
			       req->accesses, CACHEPROBE_MAX_OPS);
	return 0;
}

/**
 * cp_access() - time loads or stores of a width at an offset
 * @req: the request
 * @res: receives one series
 * @err: filled on failure
 *
 * Return: 0 or a negative errno with @err filled (see the UAPI header).
 */
int cp_access(const struct cp_access_req *req, struct cp_run_res *res,
	      struct cp_err *err)
{
	struct cp_access a = { .accesses = req->accesses,
			       .width = req->width };
	struct cp_run_spec spec = {
		.ctx = &a,
		.cpus = req->run.cpus,
		.nr_cpus = 1,
		.samples = req->run.samples,
		.timed = 1,
		.ops_per_sample = req->accesses,
	};
	void *buf;
	int ret;

	ret = cp_access_check(req, &a.stride, err);
	if (ret)
		return ret;
	a.nr_slots = min_t(u64, (req->size - req->offset - req->width) /
				a.stride + 1, U32_MAX);
	a.fn = cp_access_fns[ilog2(req->width)][req->variant - 1];
	spec.ops = req->width >= 16 ? &cp_access_fpu_ops : &cp_access_ops;
	ret = cp_run_lock(&req->run, 1, 1, true, 1, res, err);
	if (ret)
		return ret;
	buf = cp_buf_alloc(req->size, "access buffer", CACHEPROBE_ATTR_SIZE,
			   err);
	if (IS_ERR(buf)) {
		ret = PTR_ERR(buf);
	} else {
		a.base = buf + req->offset;
		ret = cp_run(&spec, res, err);
		cp_buf_free(buf);
	}
	cp_run_unlock();
	return ret;
}
