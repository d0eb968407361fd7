// SPDX-License-Identifier: GPL-2.0
/* CACHEPROBE_CMD_CHASE: dependent pointer chases on one CPU. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <asm/cpufeature.h>
#include <asm/special_insns.h>
#include "measure/chase.h"
#include "measure/dither.h"
#include "chain.h"
#include "runner.h"

/* Steps of each chase between two looks at the clock. */
#define CP_CHASE_CHUNK	64

/* Rounds of the warming walk between two looks at signals. */
#define CP_CHASE_WARM_CHUNK	4096

/**
 * struct cp_chase - the state of one CHASE request
 * @buf: the buffer.
 * @size: its bytes.
 * @pos: where each chase is; a sample goes on from there and leaves its
 *	last positions here (stored, so the compiler keeps every load).
 * @chases: chases followed at once.
 * @iterations: whole iterations of cp_chase_follow() per sample.
 * @rounds: rounds (one load per chase) after them, fewer than one
 *	iteration's.
 * @chunk: iterations between two looks at the clock.
 * @prepare: enum cacheprobe_prepare.
 * @warm_left: rounds of PREPARE WARM's walk still to go (0: none, or
 *	done).
 * @dither: the state of the random waits before the samples, drawn from
 *	the chain's seed (never 0).
 */
struct cp_chase {
	void *buf;
	u64 size;
	u64 warm_left;
	u64 dither;
	void *pos[CP_CHASE_MAX_CHASES];
	u32 chases;
	u32 iterations;
	u32 rounds;
	u32 chunk;
	u32 prepare;
};

/*
 * A level keeps lines it has seen reused: a non-inclusive last level
 * takes a line written once and evicted from L2 last, or not at all.
 * Walking every cycle a few times first makes PREPARE WARM's samples
 * time the buffer as a program's repeated use leaves it, not as the
 * chain's writing did.
 */
static int cp_chase_warm(struct cp_worker *w, struct cp_chase *c)
{
	u64 n;
	int ret;

	while (c->warm_left) {
		n = min_t(u64, c->warm_left, CP_CHASE_WARM_CHUNK);
		c->warm_left -= n;
		cp_chase_follow(c->pos, c->chases, n, 0);
		cp_warm_rounds(n);
		ret = cp_run_check(w, 0);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

static int cp_chase_prepare(struct cp_worker *w)
{
	struct cp_chase *c = cp_run_ctx(w);

	switch (c->prepare) {
	case CACHEPROBE_PREPARE_WBINVD:
		wbinvd();
		return 0;
	case CACHEPROBE_PREPARE_CLFLUSH:
		return cp_clflush_range(w, c->buf, c->size);
	case CACHEPROBE_PREPARE_WARM:
		return cp_chase_warm(w, c);
	default:
		return 0;
	}
}

static int cp_chase_sample(struct cp_worker *w, u64 round, u64 deadline,
			   u64 *value)
{
	struct cp_chase *c = cp_run_ctx(w);
	u32 left = c->iterations, n;
	u64 start, end;
	int ret;

	/*
	 * A sample of one load (OPS 1) is shorter than some TSCs' steps: a
	 * steady loop would lock onto them (measure/dither.h).
	 */
	cp_dither_spins(cp_dither_wait(&c->dither));
	start = rdtsc_ordered();
	while (left) {
		n = min(left, c->chunk);
		left -= n;
		cp_chase_follow(c->pos, c->chases, n, 1);
		ret = cp_run_check(w, deadline);
		if (ret)
			return ret;
	}
	if (c->rounds)
		cp_chase_follow(c->pos, c->chases, c->rounds, 0);
	end = rdtsc_ordered();
	*value = end - start;
	return 0;
}

static const struct cp_run_ops cp_chase_ops = {
	.prepare = cp_chase_prepare,
	.sample = cp_chase_sample,
};

static int cp_chase_check_pages(const struct cp_chase_req *req, u32 *pages,
				struct cp_err *err)
{
	*pages = req->pages ? req->pages : CACHEPROBE_PAGES_4K;
	if (*pages != CACHEPROBE_PAGES_4K && *pages != CACHEPROBE_PAGES_2M)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_PAGES,
			       "unknown PAGES",
			       "pages %u; 4K %u or 2M %u (0: 4K)", *pages,
			       CACHEPROBE_PAGES_4K, CACHEPROBE_PAGES_2M);
	return 0;
}

static int cp_chase_check_chases(const struct cp_chase_req *req, u32 stride,
				 u32 *chases, struct cp_err *err)
{
	u64 slots = req->size / stride;

	*chases = req->chases ? req->chases : 1;
	if (*chases > CACHEPROBE_MAX_CHASES)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_CHASES,
			       "CHASES out of range", "%u chases; 1 to %u",
			       *chases, CACHEPROBE_MAX_CHASES);
	/* A SIZE above max_buffer_mb is refused as such, by the allocation. */
	if (slots > U32_MAX && req->size <= cp_param_max_buffer_bytes())
		return cp_fail(err, E2BIG, CACHEPROBE_ATTR_SIZE,
			       "too many slots in the chain",
			       "%llu slots; at most %u (use a larger stride)",
			       slots, U32_MAX);
	/* A cycle of one slot would time the same line over and over. */
	if (*chases > slots / 2)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_CHASES,
			       "fewer than two slots per chase",
			       "%u chases over %llu slots (SIZE / STRIDE)",
			       *chases, slots);
	if (req->hops % *chases)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_OPS,
			       "OPS not a multiple of CHASES",
			       "OPS %u is not a multiple of CHASES %u: each chase does OPS / CHASES loads",
			       req->hops, *chases);
	return 0;
}

static int cp_chase_check(const struct cp_chase_req *req, u32 *stride,
			  u32 *order, u32 *prepare, u32 *pages, u32 *chases,
			  struct cp_err *err)
{
	int ret;

	if (!req->size)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_SIZE,
			       "SIZE must not be 0", "an empty buffer");
	*stride = req->stride ? req->stride : boot_cpu_data.x86_clflush_size;
	if (*stride % 8 || *stride > req->size)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_STRIDE,
			       "bad STRIDE",
			       "stride %u: need a multiple of 8, at most SIZE %llu",
			       *stride, req->size);
	if (!req->hops || req->hops > CACHEPROBE_MAX_OPS)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_OPS,
			       "OPS out of range", "%u loads; 1 to %u",
			       req->hops, CACHEPROBE_MAX_OPS);
	*order = req->order;
	ret = cp_chain_check_order(order, err) ?:
	      cp_chase_check_pages(req, pages, err) ?:
	      cp_chase_check_chases(req, *stride, chases, err);
	if (ret)
		return ret;
	*prepare = req->prepare ? req->prepare : CACHEPROBE_PREPARE_NONE;
	if (*prepare < CACHEPROBE_PREPARE_NONE ||
	    *prepare > CACHEPROBE_PREPARE_WARM)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_PREPARE,
			       "unknown preparation",
			       "prepare %u; NONE %u, WBINVD %u, CLFLUSH %u or WARM %u",
			       *prepare, CACHEPROBE_PREPARE_NONE,
			       CACHEPROBE_PREPARE_WBINVD,
			       CACHEPROBE_PREPARE_CLFLUSH,
			       CACHEPROBE_PREPARE_WARM);
	if (*prepare == CACHEPROBE_PREPARE_CLFLUSH &&
	    !boot_cpu_has(X86_FEATURE_CLFLUSH))
		return cp_fail(err, EOPNOTSUPP, CACHEPROBE_ATTR_PREPARE,
			       "CLFLUSH not supported", "the CPU lacks it");
	return 0;
}

/* How a sample's loads split into cp_chase_follow() calls. */
static void cp_chase_plan(struct cp_chase *c, u32 loads)
{
	u32 rounds = loads / c->chases;
	u32 per = cp_chase_rounds_of(c->chases);

	c->iterations = rounds / per;
	c->rounds = rounds % per;
	/*
	 * Between two looks at the clock each chase goes CP_CHASE_CHUNK
	 * steps, whatever their number: the positions go through memory at
	 * each look, on the path of every chase, so a chunk counted in
	 * loads made many chases pay it every few steps.
	 */
	c->chunk = max_t(u32, 1, CP_CHASE_CHUNK / per);
}

/**
 * cp_chase() - time dependent pointer chases on one CPU
 * @req: the request
 * @res: receives one series and the buffer's page size
 * @err: filled on failure
 *
 * Return: 0 or a negative errno with @err filled (see the UAPI header).
 */
int cp_chase(const struct cp_chase_req *req, struct cp_run_res *res,
	     struct cp_err *err)
{
	struct cp_chase c = { .size = req->size };
	struct cp_chain chain = {};
	struct cp_run_spec spec = {
		.ops = &cp_chase_ops,
		.ctx = &c,
		.cpus = req->run.cpus,
		.nr_cpus = 1,
		.samples = req->run.samples,
		.timed = 1,
		.ops_per_sample = req->hops,
	};
	u32 pages;
	int ret;

	ret = cp_chase_check(req, &chain.stride, &chain.order, &c.prepare,
			     &pages, &chain.chases, err);
	if (ret)
		return ret;
	ret = cp_run_lock(&req->run, 1, 1, true, 1, res, err);
	if (ret)
		return ret;
	c.chases = chain.chases;
	cp_chase_plan(&c, req->hops);
	c.buf = cp_buf_alloc_pages(req->size, pages == CACHEPROBE_PAGES_2M,
				   "chase buffer", CACHEPROBE_ATTR_SIZE, err);
	if (IS_ERR(c.buf)) {
		ret = PTR_ERR(c.buf);
		goto out_unlock;
	}
	res->page_bytes = cp_buf_page_bytes(c.buf, req->size);
	chain.nr_slots = req->size / chain.stride;
	if (c.prepare == CACHEPROBE_PREPARE_WARM)
		c.warm_left = DIV_ROUND_UP(chain.nr_slots, chain.chases) *
			      CP_CHASE_WARM_LAPS;
	chain.seed = req->has_seed ? req->seed : get_random_u64();
	c.dither = chain.seed | 1;
	ret = cp_chain_build(c.buf, &chain, c.pos, err);
	if (!ret)
		ret = cp_run(&spec, res, err);
	cp_buf_free(c.buf);
out_unlock:
	cp_run_unlock();
	return ret;
}
