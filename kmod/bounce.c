// SPDX-License-Identifier: GPL-2.0
/* CACHEPROBE_CMD_BOUNCE: CPUs increment counters d bytes apart. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include "measure/bounce.h"
#include "runner.h"

#define CP_BOUNCE_CHUNK		64
#define CP_BOUNCE_MAX_DISTANCE	65536

struct cp_bounce {
	void *buf;
	u32 variant;
	u32 width;
	u32 distance;
	u32 increments;
};

/* measure/bounce.h's loops: the instructions user mode runs. */
static void cp_bounce_inc(void *p, u32 n, u32 width, bool atomic)
{
	if (width == 8 && atomic)
		cp_bounce_add_atomic64(p, n);
	else if (width == 8)
		cp_bounce_add_plain64(p, n);
	else if (atomic)
		cp_bounce_add_atomic32(p, n);
	else
		cp_bounce_add_plain32(p, n);
}

static int cp_bounce_sample(struct cp_worker *w, u64 round, u64 deadline,
			    u64 *value)
{
	struct cp_bounce *b = cp_run_ctx(w);
	void *counter = b->buf + (u64)w->index * b->distance;
	bool atomic = b->variant == CACHEPROBE_BOUNCE_ATOMIC;
	u32 left = b->increments, n;
	u64 start, end;
	int ret;

	start = rdtsc_ordered();
	while (left) {
		n = min_t(u32, left, CP_BOUNCE_CHUNK);
		left -= n;
		cp_bounce_inc(counter, n, b->width, atomic);
		ret = cp_run_check(w, deadline);
		if (ret)
			return ret;
	}
	end = rdtsc_ordered();
	*value = end - start;
	return 0;
}

static const struct cp_run_ops cp_bounce_ops = {
	.sample = cp_bounce_sample,
};

static int cp_bounce_check(const struct cp_bounce_req *req,
			   struct cp_err *err)
{
	if (req->variant != CACHEPROBE_BOUNCE_PLAIN &&
	    req->variant != CACHEPROBE_BOUNCE_ATOMIC)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_VARIANT,
			       "unknown variant",
			       "bounce variant %u; PLAIN %u or ATOMIC %u",
			       req->variant, CACHEPROBE_BOUNCE_PLAIN,
			       CACHEPROBE_BOUNCE_ATOMIC);
	if (req->width != 4 && req->width != 8)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_WIDTH,
			       "WIDTH must be 4 or 8", "width %u", req->width);
	if (req->distance % req->width ||
	    req->distance > CP_BOUNCE_MAX_DISTANCE)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_DISTANCE,
			       "bad DISTANCE",
			       "distance %u: need a multiple of WIDTH %u, at most %u",
			       req->distance, req->width,
			       CP_BOUNCE_MAX_DISTANCE);
	if (!req->increments || req->increments > CACHEPROBE_MAX_OPS)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_OPS,
			       "OPS out of range", "%u increments; 1 to %u",
			       req->increments, CACHEPROBE_MAX_OPS);
	return 0;
}

/**
 * cp_bounce() - time increments of counters placed d bytes apart
 * @req: the request
 * @res: receives one series per CPU, in request order
 * @err: filled on failure
 *
 * Return: 0 or a negative errno with @err filled (see the UAPI header).
 */
int cp_bounce(const struct cp_bounce_req *req, struct cp_run_res *res,
	      struct cp_err *err)
{
	struct cp_bounce b = {
		.variant = req->variant,
		.width = req->width,
		.distance = req->distance,
		.increments = req->increments,
	};
	unsigned int nr = req->run.nr_cpus;
	struct cp_run_spec spec = {
		.ops = &cp_bounce_ops,
		.ctx = &b,
		.cpus = req->run.cpus,
		.nr_cpus = nr,
		.samples = req->run.samples,
		.ops_per_sample = req->increments,
	};
	int ret;

	ret = cp_bounce_check(req, err);
	if (ret)
		return ret;
	if (nr >= 2 && nr <= CACHEPROBE_RUN_MAX_CPUS)
		spec.timed = nr == 64 ? ~0ULL : BIT_ULL(nr) - 1;
	ret = cp_run_lock(&req->run, 2, CACHEPROBE_RUN_MAX_CPUS, true, nr,
			  res, err);
	if (ret)
		return ret;
	b.buf = cp_buf_alloc((u64)(nr - 1) * req->distance + req->width,
			     "counters", CACHEPROBE_ATTR_DISTANCE, err);
	if (IS_ERR(b.buf)) {
		ret = PTR_ERR(b.buf);
	} else {
		ret = cp_run(&spec, res, err);
		cp_buf_free(b.buf);
	}
	cp_run_unlock();
	return ret;
}
