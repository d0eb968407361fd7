// SPDX-License-Identifier: GPL-2.0
/* CACHEPROBE_CMD_CHASE: a dependent pointer chase on one CPU. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <asm/cpufeature.h>
#include <asm/special_insns.h>
#include "chain.h"
#include "runner.h"

/* Hops between two looks at the clock. */
#define CP_CHASE_CHUNK	64

struct cp_chase {
	void *buf;
	u64 size;
	void **cur;
	u32 hops;
	u32 prepare;
};

static int cp_chase_prepare(struct cp_worker *w)
{
	struct cp_chase *c = cp_run_ctx(w);

	switch (c->prepare) {
	case CACHEPROBE_PREPARE_WBINVD:
		wbinvd();
		return 0;
	case CACHEPROBE_PREPARE_CLFLUSH:
		return cp_clflush_range(w, c->buf, c->size);
	default:
		return 0;
	}
}

static int cp_chase_sample(struct cp_worker *w, u64 round, u64 deadline,
			   u64 *value)
{
	struct cp_chase *c = cp_run_ctx(w);
	void **p = c->cur;
	u32 left = c->hops, n;
	u64 start, end;
	int ret;

	start = rdtsc_ordered();
	while (left) {
		n = min_t(u32, left, CP_CHASE_CHUNK);
		left -= n;
		while (n--)
			p = *p;
		ret = cp_run_check(w, deadline);
		if (ret) {
			c->cur = p;
			return ret;
		}
	}
	end = rdtsc_ordered();
	/* Where the next sample goes on: the compiler must keep every hop. */
	WRITE_ONCE(c->cur, p);
	*value = end - start;
	return 0;
}

static const struct cp_run_ops cp_chase_ops = {
	.prepare = cp_chase_prepare,
	.sample = cp_chase_sample,
};

static int cp_chase_check(const struct cp_chase_req *req, u32 *stride,
			  u32 *order, u32 *prepare, struct cp_err *err)
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
			       "OPS out of range", "%u hops; 1 to %u",
			       req->hops, CACHEPROBE_MAX_OPS);
	*order = req->order;
	ret = cp_chain_check_order(order, err);
	if (ret)
		return ret;
	*prepare = req->prepare ? req->prepare : CACHEPROBE_PREPARE_NONE;
	if (*prepare < CACHEPROBE_PREPARE_NONE ||
	    *prepare > CACHEPROBE_PREPARE_CLFLUSH)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_PREPARE,
			       "unknown preparation",
			       "prepare %u; NONE %u, WBINVD %u or CLFLUSH %u",
			       *prepare, CACHEPROBE_PREPARE_NONE,
			       CACHEPROBE_PREPARE_WBINVD,
			       CACHEPROBE_PREPARE_CLFLUSH);
	if (*prepare == CACHEPROBE_PREPARE_CLFLUSH &&
	    !boot_cpu_has(X86_FEATURE_CLFLUSH))
		return cp_fail(err, EOPNOTSUPP, CACHEPROBE_ATTR_PREPARE,
			       "CLFLUSH not supported", "the CPU lacks it");
	return 0;
}

/**
 * cp_chase() - time a dependent pointer chase on one CPU
 * @req: the request
 * @res: receives one series
 * @err: filled on failure
 *
 * Return: 0 or a negative errno with @err filled (see the UAPI header).
 */
int cp_chase(const struct cp_chase_req *req, struct cp_run_res *res,
	     struct cp_err *err)
{
	struct cp_chase c = { .size = req->size, .hops = req->hops };
	struct cp_run_spec spec = {
		.ops = &cp_chase_ops,
		.ctx = &c,
		.cpus = req->run.cpus,
		.nr_cpus = 1,
		.samples = req->run.samples,
		.timed = 1,
		.ops_per_sample = req->hops,
	};
	u32 stride, order;
	int ret;

	ret = cp_chase_check(req, &stride, &order, &c.prepare, err);
	if (ret)
		return ret;
	ret = cp_run_lock(&req->run, 1, 1, true, 1, res, err);
	if (ret)
		return ret;
	c.buf = cp_buf_alloc(req->size, "chase buffer", CACHEPROBE_ATTR_SIZE,
			     err);
	if (IS_ERR(c.buf)) {
		ret = PTR_ERR(c.buf);
		goto out_unlock;
	}
	ret = cp_chain_build(c.buf, req->size / stride, stride, order, err);
	if (!ret) {
		c.cur = c.buf;
		ret = cp_run(&spec, res, err);
	}
	cp_buf_free(c.buf);
out_unlock:
	cp_run_unlock();
	return ret;
}
