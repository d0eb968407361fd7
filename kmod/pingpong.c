// SPDX-License-Identifier: GPL-2.0
/* CACHEPROBE_CMD_PINGPONG: two CPUs pass one cache line back and forth. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/mm.h>
#include "measure/pingpong.h"
#include "runner.h"

/*
 * Spins before a waiting side starts to PAUSE (which lets an emulator's
 * other virtual CPUs run, and costs real CPUs a little latency).
 */
#define CP_PP_TIGHT_SPINS	256

struct cp_pingpong {
	u64 *line;
	u32 variant;
	u32 round_trips;
};

/* Wait until the line holds @v, then make it @v + 1. */
static int cp_pp_turn(struct cp_worker *w, u64 *line, u64 v, bool cas,
		      u64 deadline)
{
	unsigned long i;
	int ret;

	for (i = 0;; i++) {
		if (cp_pingpong_try(line, v, cas))
			return 0;
		/* PAUSE may yield an emulated CPU: look at the clock after. */
		if (i >= CP_PP_TIGHT_SPINS || i % 64 == 63) {
			ret = cp_run_check(w, deadline);
			if (ret)
				return ret;
		}
		if (i >= CP_PP_TIGHT_SPINS)
			cpu_relax();
	}
}

/* Wait until the line holds @v. */
static int cp_pp_wait(struct cp_worker *w, u64 *line, u64 v, u64 deadline)
{
	unsigned long i;
	int ret;

	for (i = 0; cp_pingpong_look(line) != v; i++) {
		/* PAUSE may yield an emulated CPU: look at the clock after. */
		if (i >= CP_PP_TIGHT_SPINS || i % 64 == 63) {
			ret = cp_run_check(w, deadline);
			if (ret)
				return ret;
		}
		if (i >= CP_PP_TIGHT_SPINS)
			cpu_relax();
	}
	return 0;
}

static int cp_pp_prepare(struct cp_worker *w)
{
	struct cp_pingpong *pp = cp_run_ctx(w);

	/* The leader resets the line before it offers the round. */
	if (!w->index)
		WRITE_ONCE(*pp->line, 0);
	return 0;
}

static int cp_pp_sample(struct cp_worker *w, u64 round, u64 deadline,
			u64 *value)
{
	struct cp_pingpong *pp = cp_run_ctx(w);
	bool cas = pp->variant == CACHEPROBE_PINGPONG_CAS;
	u64 start, end, k, first = w->index;
	int ret;

	start = rdtsc_ordered();
	for (k = 0; k < pp->round_trips; k++) {
		ret = cp_pp_turn(w, pp->line, 2 * k + first, cas, deadline);
		if (ret)
			return ret;
	}
	if (!w->index) {
		/* The last round trip ends when the answer arrives. */
		ret = cp_pp_wait(w, pp->line, 2 * k, deadline);
		if (ret)
			return ret;
	}
	end = rdtsc_ordered();
	*value = end - start;
	return 0;
}

static const struct cp_run_ops cp_pp_ops = {
	.prepare = cp_pp_prepare,
	.sample = cp_pp_sample,
};

/**
 * cp_pingpong() - time round trips of one cache line between two CPUs
 * @req: the request
 * @res: receives one series, the initiator's
 * @err: filled on failure
 *
 * Return: 0 or a negative errno with @err filled (see the UAPI header).
 */
int cp_pingpong(const struct cp_pingpong_req *req, struct cp_run_res *res,
		struct cp_err *err)
{
	struct cp_pingpong pp = {
		.variant = req->variant,
		.round_trips = req->round_trips,
	};
	struct cp_run_spec spec = {
		.ops = &cp_pp_ops,
		.ctx = &pp,
		.cpus = req->run.cpus,
		.nr_cpus = 2,
		.samples = req->run.samples,
		.timed = 1,
		.ops_per_sample = req->round_trips,
	};
	int ret;

	if (req->variant != CACHEPROBE_PINGPONG_CAS &&
	    req->variant != CACHEPROBE_PINGPONG_FLAG)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_VARIANT,
			       "unknown variant",
			       "pingpong variant %u; CAS %u or FLAG %u",
			       req->variant, CACHEPROBE_PINGPONG_CAS,
			       CACHEPROBE_PINGPONG_FLAG);
	if (!req->round_trips || req->round_trips > CACHEPROBE_MAX_OPS)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_OPS,
			       "OPS out of range", "%u round trips; 1 to %u",
			       req->round_trips, CACHEPROBE_MAX_OPS);
	ret = cp_run_lock(&req->run, 2, 2, true, 1, res, err);
	if (ret)
		return ret;
	pp.line = cp_buf_alloc(PAGE_SIZE, "ping-pong line", 0, err);
	if (IS_ERR(pp.line)) {
		ret = PTR_ERR(pp.line);
	} else {
		ret = cp_run(&spec, res, err);
		cp_buf_free(pp.line);
	}
	cp_run_unlock();
	return ret;
}
