// SPDX-License-Identifier: GPL-2.0
/*
 * CACHEPROBE_CMD_ACCESS: loads or stores of 1 to 64 bytes at an offset
 * from a line boundary, as a dependent chain or independent accesses.
 * The loops are include/measure/access.h's, which the tool's user mode
 * runs too; this file lays out what they walk (the same cycle from the
 * same seed) and hands them the interrupt-off window a chunk at a time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/math.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/fpu/types.h>
#include "measure/access.h"
#include "chain.h"
#include "runner.h"

/* Accesses between two looks at the interrupt-off window. */
#define CP_ACCESS_CHUNK		64
#define CP_ACCESS_MAX_OFFSET	4096

static_assert(CP_ACCESS_CHUNK % CP_ACCESS_HOPS == 0 &&
	      CP_ACCESS_CHUNK % CP_ACCESS_UNROLL == 0);

/* What the stores write: zeros, as the UAPI header says. */
static const unsigned char cp_access_zeros[64];

/**
 * struct cp_access - one ACCESS request's buffer and where its walk is
 * @base: slot 0's access, OFFSET bytes into the buffer.
 * @stride: bytes between slots.
 * @nr_slots: slots walked (throughput: a multiple of CP_ACCESS_UNROLL).
 * @accesses: accesses per sample, in whole loop steps.
 * @width: bytes per access.
 * @variant: enum cacheprobe_access_variant.
 * @warm: every slot was read once.
 * @order: LOAD_LATENCY: the cycle, slot indices (cp_chain_order()).
 * @hops: LOAD_LATENCY: hops done so far.
 * @position: LOAD_LATENCY from 8 bytes: the slot the chase is at.
 * @table: LOAD_LATENCY below 8 bytes: the next slot's address of each hop,
 *	@table_len entries (the cycle, repeated to whole calls of 16).
 * @table_len: entries of @table.
 * @table_next: the entry the chain reads next.
 * @chain_position: the slot the chain is at.
 * @sum: what the loads loaded (the chain's zeros, the throughput lanes).
 * @pos: throughput: the next slot, a multiple of CP_ACCESS_UNROLL.
 * @chase: the loop of LOAD_LATENCY from 8 bytes.
 * @chain: the loop of LOAD_LATENCY below 8 bytes.
 * @load: the loop of LOAD_THROUGHPUT.
 * @store: the loop of STORE_THROUGHPUT.
 */
struct cp_access {
	unsigned char *base;
	u32 stride;
	u32 nr_slots;
	u32 accesses;
	u32 width;
	u32 variant;
	bool warm;
	u32 *order;
	u64 hops;
	void *position;
	unsigned long *table;
	u64 table_len;
	const unsigned long *table_next;
	unsigned long chain_position;
	u64 sum;
	u32 pos;
	cp_access_chase_fn chase;
	cp_access_chain_fn chain;
	cp_access_load_fn load;
	cp_access_store_fn store;
};

static unsigned char *cp_access_slot(const struct cp_access *a, u64 k)
{
	return a->base + k * a->stride;
}

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
		READ_ONCE(*cp_access_slot(a, j));
	a->warm = true;
	return 0;
}

/*
 * Test builds check after every call of a loop that it did what it
 * claims: a loop that lost its place (an undeclared register clobber once
 * kept the throughput loop on its first slot) is counted by
 * cp_lost_place().  Compiled out of the module meant for use.
 */
#ifdef CACHEPROBE_FAULT_INJECT
#define CP_ACCESS_TEST_BUILD	true
#else
#define CP_ACCESS_TEST_BUILD	false
#endif

/* A slot's bytes before the first sample of a test build. */
static unsigned char cp_access_test_byte(u64 slot, u32 i)
{
	return (unsigned char)(slot * 151 + i * 29 + 17);
}

/* What the loads of @slots slots from @from add up to. */
static u64 cp_access_lanes(const struct cp_access *a, u32 from, u32 slots)
{
	u64 sum = 0, lane;
	u32 k, i;

	for (k = from; k < from + slots; k++) {
		const unsigned char *p = cp_access_slot(a, k);

		for (i = 0; i < a->width; i += 8) {
			lane = 0;
			memcpy(&lane, p + i, min_t(u32, a->width, 8));
			sum += lane;
		}
	}
	return sum;
}

/*
 * Loads must have read their slots, stores written zeros to them (which
 * the check turns back into non-zero bytes for the next lap).
 */
static void cp_access_check_lap(struct cp_access *a, u32 from, u32 slots,
				u64 loaded)
{
	u32 k, i;

	if (!CP_ACCESS_TEST_BUILD)
		return;
	if (a->variant == CACHEPROBE_ACCESS_LOAD_THROUGHPUT) {
		if (loaded != cp_access_lanes(a, from, slots))
			cp_lost_place();
		return;
	}
	for (k = from; k < from + slots; k++) {
		unsigned char *p = cp_access_slot(a, k);

		if (memchr_inv(p, 0, a->width))
			cp_lost_place();
		for (i = 0; i < a->width; i++)
			p[i] = cp_access_test_byte(k, i) | 1;
	}
}

/*
 * The chase must be on the slot its cycle says, the chain too, having
 * loaded only zeros.
 */
static void cp_access_check_hops(const struct cp_access *a)
{
	u64 at;

	if (!CP_ACCESS_TEST_BUILD)
		return;
	if (a->chase) {
		if (a->position !=
		    cp_access_slot(a, a->order[a->hops % a->nr_slots]))
			cp_lost_place();
		return;
	}
	at = (a->table_next - a->table + a->table_len - 1) % a->table_len;
	if (a->sum || a->chain_position != a->table[at])
		cp_lost_place();
}

/* @n accesses of LOAD_LATENCY, a multiple of CP_ACCESS_HOPS. */
static void cp_access_hop(struct cp_access *a, u32 n)
{
	u32 calls = n / CP_ACCESS_HOPS;

	if (a->chase)
		a->position = a->chase(a->position, calls);
	else
		a->chain(&a->chain_position, &a->table_next, a->table,
			 a->table + a->table_len, calls, &a->sum);
	a->hops += n;
	cp_access_check_hops(a);
}

/*
 * @n accesses of a throughput variant, a multiple of CP_ACCESS_UNROLL:
 * whole groups from the next slot, back to slot 0 at the end.
 */
static void cp_access_walk(struct cp_access *a, u32 n)
{
	u32 slots;
	u64 loaded = 0;

	while (n) {
		slots = min(n, a->nr_slots - a->pos);
		if (a->load)
			loaded = a->load(cp_access_slot(a, a->pos), a->stride,
					 slots / CP_ACCESS_UNROLL, 1);
		else
			a->store(cp_access_slot(a, a->pos), a->stride,
				 slots / CP_ACCESS_UNROLL, 1, cp_access_zeros);
		cp_access_check_lap(a, a->pos, slots, loaded);
		a->sum += loaded;
		a->pos += slots;
		if (a->pos == a->nr_slots)
			a->pos = 0;
		n -= slots;
	}
}

static int cp_access_sample(struct cp_worker *w, u64 round, u64 deadline,
			    u64 *value)
{
	struct cp_access *a = cp_run_ctx(w);
	u32 left = a->accesses, n;
	u64 start, end;
	int ret;

	start = rdtsc_ordered();
	while (left) {
		n = min_t(u32, left, CP_ACCESS_CHUNK);
		left -= n;
		if (a->variant == CACHEPROBE_ACCESS_LOAD_LATENCY)
			cp_access_hop(a, n);
		else
			cp_access_walk(a, n);
		ret = cp_run_check(w, deadline);
		if (ret)
			return ret;
	}
	end = rdtsc_ordered();
	*value = end - start;
	return 0;
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

/*
 * Slots of @a's buffer, and whole steps of accesses; at least four slots
 * for the throughput loops, which walk groups of four.
 */
static int cp_access_shape(struct cp_access *a, const struct cp_access_req *req,
			   struct cp_err *err)
{
	u64 slots = (req->size - req->offset - req->width) / a->stride + 1;
	u64 max = cp_param_max_buffer_bytes();
	/* LOAD_LATENCY's order of the slots, and a narrow chain's table. */
	u64 books = slots * (sizeof(u32) + (a->width < 8 ? 8 : 0));
	u32 step = CP_ACCESS_HOPS;

	/* A SIZE above max_buffer_mb is refused as such, by the allocation. */
	if (req->size <= max && slots > U32_MAX)
		return cp_fail(err, E2BIG, CACHEPROBE_ATTR_SIZE,
			       "too many slots",
			       "%llu slots; at most %u (use a larger stride)",
			       slots, U32_MAX);
	if (req->size <= max && a->variant == CACHEPROBE_ACCESS_LOAD_LATENCY &&
	    books > max)
		return cp_fail(err, E2BIG, CACHEPROBE_ATTR_SIZE,
			       "the cycle's bookkeeping exceeds max_buffer_mb",
			       "%llu slots need %llu bytes besides the buffer; at most %llu (use a larger stride)",
			       slots, books, max);
	a->nr_slots = slots;
	if (a->variant != CACHEPROBE_ACCESS_LOAD_LATENCY) {
		step = CP_ACCESS_UNROLL;
		a->nr_slots -= a->nr_slots % CP_ACCESS_UNROLL;
		if (!a->nr_slots)
			return cp_fail(err, EINVAL, CACHEPROBE_ATTR_SIZE,
				       "SIZE holds fewer than four slots",
				       "size %llu, stride %u: the throughput variants walk slots in groups of %u",
				       req->size, a->stride, CP_ACCESS_UNROLL);
	}
	a->accesses = round_up(req->accesses, step);
	return 0;
}

/*
 * Test builds: slots that are not zeros, so loads and stores show what
 * they touched.
 */
static void cp_access_fill_for_test(struct cp_access *a)
{
	u32 k, i;

	if (!CP_ACCESS_TEST_BUILD)
		return;
	for (k = 0; k < a->nr_slots; k++)
		for (i = 0; i < a->width; i++)
			cp_access_slot(a, k)[i] = cp_access_test_byte(k, i) | 1;
}

/*
 * LOAD_LATENCY below 8 bytes: the next slot's address of each hop, the
 * cycle repeated to whole calls of the loop; the slots stay zeros.
 */
static int cp_access_table(struct cp_access *a, struct cp_err *err)
{
	u64 i, n = a->nr_slots;
	int ret;

	a->table_len = round_up(n, CP_ACCESS_HOPS);
	a->table = kvmalloc_array(a->table_len, sizeof(*a->table),
				  GFP_KERNEL | __GFP_NOWARN);
	if (!a->table)
		return cp_fail(err, ENOMEM, 0, "cannot allocate the chain table",
			       "%llu entries", a->table_len);
	cp_live_inc(a->table);
	for (i = 0; i < a->table_len; i += CP_CHAIN_SLICE) {
		cp_access_chain_table(a->table, i,
				      min_t(u64, a->table_len,
					    i + CP_CHAIN_SLICE),
				      a->order, n, a->base, a->stride);
		ret = cp_chain_pause(err);
		if (ret)
			return ret;
	}
	a->table_next = a->table;
	a->chain_position = (unsigned long)cp_access_slot(a, a->order[0]);
	return 0;
}

/* The loop of the request, and what it walks. */
static int cp_access_build(struct cp_access *a,
			   const struct cp_access_req *req, struct cp_err *err)
{
	struct cp_chain chain = {
		.nr_slots = a->nr_slots, .stride = a->stride,
		.order = CACHEPROBE_ORDER_RANDOM, .chases = 1,
		.seed = req->has_seed ? req->seed : get_random_u64(),
	};
	u32 *order;
	int ret;

	a->load = a->variant == CACHEPROBE_ACCESS_LOAD_THROUGHPUT ?
		  cp_access_load_of(a->width) : NULL;
	a->store = a->variant == CACHEPROBE_ACCESS_STORE_THROUGHPUT ?
		   cp_access_store_of(a->width) : NULL;
	if (a->variant != CACHEPROBE_ACCESS_LOAD_LATENCY) {
		cp_access_fill_for_test(a);
		return 0;
	}
	a->chase = cp_access_chase_of(a->width);
	a->chain = cp_access_chain_of(a->width);
	order = cp_chain_order(&chain, err);
	if (IS_ERR(order))
		return PTR_ERR(order);
	a->order = order;
	/* From 8 bytes each slot holds the next's address. */
	ret = a->chase ? cp_chain_link(a->base, &chain, a->order,
				       &a->position, err) :
			 cp_access_table(a, err);
	/* Only a test build's checks follow the cycle afterwards. */
	if (!CP_ACCESS_TEST_BUILD) {
		cp_chain_order_free(a->order);
		a->order = NULL;
	}
	return ret;
}

static void cp_access_free(struct cp_access *a)
{
	if (a->order)
		cp_chain_order_free(a->order);
	if (a->table) {
		cp_live_dec(a->table);
		kvfree(a->table);
	}
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
	struct cp_access a = { .width = req->width, .variant = req->variant };
	struct cp_run_spec spec = {
		.ctx = &a,
		.cpus = req->run.cpus,
		.nr_cpus = 1,
		.samples = req->run.samples,
		.timed = 1,
	};
	void *buf;
	int ret;

	ret = cp_access_check(req, &a.stride, err) ?:
	      cp_access_shape(&a, req, err);
	if (ret)
		return ret;
	spec.ops_per_sample = a.accesses;
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
		ret = cp_access_build(&a, req, err) ?: cp_run(&spec, res, err);
		cp_access_free(&a);
		cp_buf_free(buf);
	}
	cp_run_unlock();
	return ret;
}
