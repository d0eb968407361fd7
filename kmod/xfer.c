// SPDX-License-Identifier: GPL-2.0
/*
 * CACHEPROBE_CMD_XFER: a producer CPU touches a block, a consumer CPU then
 * walks it as a dependent chain and times the walk.  The touch and the
 * walk are include/measure/xfer.h's, which the tool's user mode runs too.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <asm/cpufeature.h>
#include "measure/xfer.h"
#include "chain.h"
#include "runner.h"

#define CP_XFER_CHUNK	64
/*
 * Loads plus delay adds between two clock checks of the consumer: with a
 * delay the walk checks more often, so a check still comes every few
 * thousand cycles and costs the timed walk about as little as without.
 */
#define CP_XFER_CHECK_STEPS	(CP_XFER_CHUNK * CP_XFER_CHUNK)

/**
 * struct cp_xfer - the state of one XFER request
 * @block: the block; each line starts with a pointer to the next line.
 * @size: its bytes.
 * @lines: its lines.
 * @line: line size.
 * @flag: the round the producer finished (its own page, away from @block).
 * @variant: enum cacheprobe_xfer_variant.
 * @delay: dependent adds after each load of the consumer's walk.
 * @chunk: lines the consumer walks between clock checks.
 * @one_cpu: producer and consumer are the same thread.
 */
struct cp_xfer {
	void *block;
	u64 size;
	u64 lines;
	u32 line;
	u64 *flag;
	u32 variant;
	u32 delay;
	u32 chunk;
	bool one_cpu;
};

static bool cp_xfer_consumes(const struct cp_worker *w)
{
	const struct cp_xfer *x = cp_run_ctx(w);

	return x->one_cpu || w->index == 1;
}

static int cp_xfer_prepare(struct cp_worker *w)
{
	struct cp_xfer *x = cp_run_ctx(w);

	if (!cp_xfer_consumes(w))
		return 0;
	return cp_clflush_range(w, x->block, x->size);
}

static int cp_xfer_produce(struct cp_worker *w, struct cp_xfer *x,
			   u64 deadline)
{
	u64 i, sum = 0;
	int ret;

	for (i = 0; i < x->lines; i++) {
		void *p = x->block + i * x->line;

		if (x->variant == CACHEPROBE_XFER_MODIFY)
			cp_xfer_modify(p);
		else
			sum += cp_xfer_read(p);
		if (i % CP_XFER_CHUNK == CP_XFER_CHUNK - 1) {
			ret = cp_run_check(w, deadline);
			if (ret)
				return ret;
		}
	}
	/* Keep the reads. */
	OPTIMIZER_HIDE_VAR(sum);
	return 0;
}

static int cp_xfer_consume(struct cp_worker *w, struct cp_xfer *x,
			   u64 deadline, u64 *value)
{
	unsigned long zero = 0;
	void **p = x->block;
	u64 left = x->lines, n, start, end;
	int ret;

	/* The compiler must not know the adds add nothing. */
	OPTIMIZER_HIDE_VAR(zero);
	start = rdtsc_ordered();
	while (left) {
		n = min_t(u64, left, x->chunk);
		left -= n;
		if (x->delay)
			p = cp_xfer_walk(p, n, x->delay, zero);
		else
			p = cp_xfer_walk(p, n, 0, zero);
		ret = cp_run_check(w, deadline);
		if (ret)
			return ret;
	}
	end = rdtsc_ordered();
	OPTIMIZER_HIDE_VAR(p);
	*value = end - start;
	return 0;
}

static int cp_xfer_sample(struct cp_worker *w, u64 round, u64 deadline,
			  u64 *value)
{
	struct cp_xfer *x = cp_run_ctx(w);
	unsigned long i;
	int ret;

	*value = 0;
	if (!cp_xfer_consumes(w) || x->one_cpu) {
		ret = cp_xfer_produce(w, x, deadline);
		if (ret || !x->one_cpu) {
			if (!ret)
				/* The block is touched before the flag. */
				smp_store_release(x->flag, round);
			return ret;
		}
		return cp_xfer_consume(w, x, deadline, value);
	}
	/* Pairs with the producer's release of the flag. */
	for (i = 0; smp_load_acquire(x->flag) != round; i++) {
		ret = cp_run_check(w, deadline);
		if (ret)
			return ret;
		cpu_relax();
	}
	return cp_xfer_consume(w, x, deadline, value);
}

static const struct cp_run_ops cp_xfer_ops = {
	.prepare = cp_xfer_prepare,
	.sample = cp_xfer_sample,
};

static int cp_xfer_check(const struct cp_xfer_req *req, u32 line,
			 struct cp_err *err)
{
	if (req->variant != CACHEPROBE_XFER_READ &&
	    req->variant != CACHEPROBE_XFER_MODIFY)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_VARIANT,
			       "unknown variant",
			       "xfer variant %u; READ %u or MODIFY %u",
			       req->variant, CACHEPROBE_XFER_READ,
			       CACHEPROBE_XFER_MODIFY);
	if (!req->size || req->size % line)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_SIZE,
			       "bad SIZE",
			       "block of %llu bytes: need a non-zero multiple of the line size %u",
			       req->size, line);
	if (req->delay > CACHEPROBE_MAX_DELAY)
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_DELAY,
			       "DELAY too large",
			       "%u dependent adds after each load; at most %u",
			       req->delay, CACHEPROBE_MAX_DELAY);
	if (!boot_cpu_has(X86_FEATURE_CLFLUSH))
		return cp_fail(err, EOPNOTSUPP, 0, "CLFLUSH not supported",
			       "the consumer cannot flush the block");
	return 0;
}

/**
 * cp_xfer() - time a consumer's walk over lines a producer touched
 * @req: the request
 * @res: receives one series, the consumer's
 * @err: filled on failure
 *
 * Return: 0 or a negative errno with @err filled (see the UAPI header).
 */
int cp_xfer(const struct cp_xfer_req *req, struct cp_run_res *res,
	    struct cp_err *err)
{
	u32 line = boot_cpu_data.x86_clflush_size;
	struct cp_xfer x = { .size = req->size, .line = line,
			     .variant = req->variant, .delay = req->delay };
	struct cp_run_spec spec = {
		.ops = &cp_xfer_ops,
		.ctx = &x,
		.cpus = req->run.cpus,
		.samples = req->run.samples,
	};
	struct cp_chain chain;
	u32 order = req->order;
	void *first;
	int ret;

	ret = cp_xfer_check(req, line, err) ?:
	      cp_chain_check_order(&order, err) ?:
	      cp_run_lock(&req->run, 2, 2, false, 1, res, err);
	if (ret)
		return ret;
	x.one_cpu = req->run.cpus[0] == req->run.cpus[1];
	x.lines = req->size / line;
	x.chunk = clamp_t(u32, CP_XFER_CHECK_STEPS / (x.delay + 1), 1,
			  CP_XFER_CHUNK);
	spec.nr_cpus = x.one_cpu ? 1 : 2;
	spec.timed = x.one_cpu ? 1 : 2;
	spec.ops_per_sample = x.lines;
	if (x.one_cpu)
		spec.cpus = &req->run.cpus[1];
	x.block = cp_buf_alloc(req->size, "xfer block", CACHEPROBE_ATTR_SIZE,
			       err);
	if (IS_ERR(x.block)) {
		ret = PTR_ERR(x.block);
		goto out_unlock;
	}
	x.flag = cp_buf_alloc(PAGE_SIZE, "xfer flag", 0, err);
	if (IS_ERR(x.flag)) {
		ret = PTR_ERR(x.flag);
		goto out_block;
	}
	/* One cycle from a seed of its own: XFER takes no SEED. */
	chain.nr_slots = x.lines;
	chain.stride = line;
	chain.order = order;
	chain.chases = 1;
	chain.seed = get_random_u64();
	ret = cp_chain_build(x.block, &chain, &first, err);
	if (!ret)
		ret = cp_run(&spec, res, err);
	cp_buf_free(x.flag);
out_block:
	cp_buf_free(x.block);
out_unlock:
	cp_run_unlock();
	return ret;
}
