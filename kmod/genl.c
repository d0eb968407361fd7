// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink transport: decode attributes, call the core, encode
 * the reply.  Every request attribute has a policy; the core rejects
 * anything else with a reason that reaches the caller as extended ack.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include "cacheprobe.h"

static struct genl_family cp_genl_family;

static void cp_genl_report(struct genl_info *info, const struct cp_err *err)
{
	if (err->attr && info->attrs && info->attrs[err->attr])
		NL_SET_BAD_ATTR(info->extack, info->attrs[err->attr]);
#ifdef NL_SET_ERR_MSG_FMT
	/* The buffer is short; cut the text rather than warn in the log. */
	NL_SET_ERR_MSG_FMT(info->extack, "%.*s", NETLINK_MAX_FMTMSG_LEN - 1,
			   err->detail);
#else
	/*
	 * Older kernels keep only a pointer to a string literal; err->msg is
	 * one, but NL_SET_ERR_MSG() there accepts nothing but a literal.
	 */
	if (info->extack)
		info->extack->_msg = err->msg;
#endif
}

static int cp_genl_put_mask(struct sk_buff *msg, int attr,
			    const struct cpumask *mask)
{
	struct nlattr *nla;

	nla = nla_reserve(msg, attr, cp_cpumask_abi_bytes());
	if (!nla)
		return -EMSGSIZE;
	cp_cpumask_to_abi(nla_data(nla), mask);
	return 0;
}

static int cp_genl_put_info(struct sk_buff *msg)
{
	struct cp_info ci;
	int ret;

	/* Counts and masks from one moment: no CPU comes or goes between. */
	cpus_read_lock();
	cp_get_info(&ci);
	ret = cp_genl_put_mask(msg, CACHEPROBE_ATTR_POSSIBLE_CPUS,
			       cpu_possible_mask) ?:
	      cp_genl_put_mask(msg, CACHEPROBE_ATTR_ONLINE_CPUS,
			       cpu_online_mask);
	cpus_read_unlock();
	if (ret)
		return ret;

	return nla_put_string(msg, CACHEPROBE_ATTR_MODULE_VERSION,
			      CACHEPROBE_VERSION) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_ABI_VERSION, ci.abi_version) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_NR_CPU_IDS, ci.nr_cpu_ids) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_NR_POSSIBLE_CPUS,
			   ci.nr_possible_cpus) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_NR_ONLINE_CPUS,
			   ci.nr_online_cpus) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_TSC_KHZ, ci.tsc_khz) ?:
	       nla_put_u64_64bit(msg, CACHEPROBE_ATTR_FEATURES, ci.features,
				 CACHEPROBE_ATTR_PAD) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_CACHE_LINE_SIZE,
			   ci.cache_line_size) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_MAX_CPUS, ci.max_cpus) ?:
	       nla_put_u64_64bit(msg, CACHEPROBE_ATTR_MAX_IRQOFF_NS,
				 ci.max_irqoff_ns, CACHEPROBE_ATTR_PAD) ?:
	       nla_put_u64_64bit(msg, CACHEPROBE_ATTR_MAX_BUFFER_BYTES,
				 ci.max_buffer_bytes, CACHEPROBE_ATTR_PAD) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_PARTNER_TIMEOUT_MS,
			   ci.partner_timeout_ms) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_MAX_VALUES,
			   CACHEPROBE_MAX_VALUES) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_RUN_MAX_CPUS,
			   CACHEPROBE_RUN_MAX_CPUS) ?:
	       nla_put_u32(msg, CACHEPROBE_ATTR_MAX_CHASES,
			   CACHEPROBE_MAX_CHASES);
}

static int cp_genl_get_info(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;
	int ret;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE +
			  2 * nla_total_size(cp_cpumask_abi_bytes()),
			  GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &cp_genl_family, 0,
				CACHEPROBE_CMD_GET_INFO);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto err_free;
	}
	ret = cp_genl_put_info(msg);
	if (ret)
		goto err_free;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return ret;
}

static size_t cp_genl_cpu_time_size(void)
{
	return nla_total_size(0) + nla_total_size(sizeof(u32)) +
	       2 * nla_total_size_64bit(sizeof(u64));
}

static int cp_genl_put_cpu_time(struct sk_buff *msg, int attr,
				const struct cacheprobe_cpu_time *t)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, attr);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, CACHEPROBE_RESULT_CPU, t->cpu) ||
	    nla_put_u64_64bit(msg, CACHEPROBE_RESULT_CYCLES, t->cycles,
			      CACHEPROBE_RESULT_PAD) ||
	    nla_put_u64_64bit(msg, CACHEPROBE_RESULT_NSEC, t->nsec,
			      CACHEPROBE_RESULT_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int cp_genl_reply_cpu_times(struct genl_info *info, u8 cmd, int attr,
				   const struct cp_cpu_times *res)
{
	struct sk_buff *msg;
	unsigned int i;
	void *hdr;
	int ret = 0;

	msg = genlmsg_new(res->nr * cp_genl_cpu_time_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &cp_genl_family, 0, cmd);
	if (!hdr)
		ret = -EMSGSIZE;
	for (i = 0; !ret && i < res->nr; i++)
		ret = cp_genl_put_cpu_time(msg, attr, &res->times[i]);
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * netlink_rcv_skb() sends no ack for a request that fails with -EINTR (that
 * code means "dump started"), so a caller that survives the signal would
 * wait for ever.  Interrupted requests fail with ECANCELED here instead.
 */
static int cp_genl_errno(int ret, struct cp_err *err)
{
	if (ret != -EINTR)
		return ret;
	if (!err->msg)
		cp_fail(err, ECANCELED, 0, "interrupted by a signal",
			"the operation stopped, nothing kept");
	return -ECANCELED;
}

/* --- measurement commands --- */

/* Literals: the 6.1 extack keeps the message by pointer. */
static const char *const cp_genl_missing[CACHEPROBE_ATTR_MAX + 1] = {
	[CACHEPROBE_ATTR_CPU_LIST] = "missing attribute CPU_LIST",
	[CACHEPROBE_ATTR_SAMPLES] = "missing attribute SAMPLES",
	[CACHEPROBE_ATTR_SIZE] = "missing attribute SIZE",
	[CACHEPROBE_ATTR_OPS] = "missing attribute OPS",
	[CACHEPROBE_ATTR_WIDTH] = "missing attribute WIDTH",
	[CACHEPROBE_ATTR_VARIANT] = "missing attribute VARIANT",
	[CACHEPROBE_ATTR_DISTANCE] = "missing attribute DISTANCE",
};

static int cp_genl_need(struct genl_info *info, int attr, struct cp_err *err)
{
	if (info->attrs[attr])
		return 0;
	NL_SET_ERR_ATTR_MISS(info->extack, NULL, attr);
	return cp_fail(err, EINVAL, 0, cp_genl_missing[attr],
		       "the request lacks it");
}

static u32 cp_genl_u32(struct genl_info *info, int attr)
{
	return info->attrs[attr] ? nla_get_u32(info->attrs[attr]) : 0;
}

static int cp_genl_parse_run(struct sk_buff *skb, struct genl_info *info,
			     u32 *cpus, struct cp_run_req *run,
			     struct cp_err *err)
{
	struct nlattr *list = info->attrs[CACHEPROBE_ATTR_CPU_LIST];
	int ret, len;

	if (!netlink_capable(skb, CAP_SYS_ADMIN))
		return cp_fail(err, EPERM, 0,
			       "this command needs CAP_SYS_ADMIN",
			       "the caller lacks it");
	ret = cp_genl_need(info, CACHEPROBE_ATTR_CPU_LIST, err) ?:
	      cp_genl_need(info, CACHEPROBE_ATTR_SAMPLES, err);
	if (ret)
		return ret;
	len = nla_len(list);
	if (!len || len % sizeof(u32))
		return cp_fail(err, EINVAL, CACHEPROBE_ATTR_CPU_LIST,
			       "CPU_LIST must hold whole u32 CPU ids",
			       "%d bytes", len);
	memcpy(cpus, nla_data(list), len);
	run->cpus = cpus;
	run->nr_cpus = len / sizeof(u32);
	run->samples = nla_get_u32(info->attrs[CACHEPROBE_ATTR_SAMPLES]);
	return 0;
}

static size_t cp_genl_run_size(const struct cp_run_res *res)
{
	size_t series = nla_total_size(0) + nla_total_size(sizeof(u32)) +
			nla_total_size(res->samples * sizeof(u64));

	return 5 * nla_total_size(sizeof(u32)) +
	       4 * nla_total_size_64bit(sizeof(u64)) + res->nr_series * series;
}

static int cp_genl_put_series(struct sk_buff *msg, const struct cp_run_res *res,
			      unsigned int i)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, CACHEPROBE_ATTR_SERIES);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, CACHEPROBE_SERIES_CPU, res->series_cpus[i]) ||
	    nla_put(msg, CACHEPROBE_SERIES_VALUES,
		    res->samples * sizeof(u64),
		    &res->values[(size_t)i * res->samples])) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int cp_genl_put_run(struct sk_buff *msg, const struct cp_run_res *res)
{
	unsigned int i;
	int ret;

	ret = nla_put_u32(msg, CACHEPROBE_ATTR_OPS, res->ops) ?:
	      nla_put_u32(msg, CACHEPROBE_ATTR_SAMPLES, res->samples) ?:
	      nla_put_u64_64bit(msg, CACHEPROBE_ATTR_WINDOW_MAX_CYCLES,
				res->window_max_cycles, CACHEPROBE_ATTR_PAD) ?:
	      nla_put_u64_64bit(msg, CACHEPROBE_ATTR_WINDOW_MAX_NSEC,
				res->window_max_nsec, CACHEPROBE_ATTR_PAD) ?:
	      nla_put_u64_64bit(msg, CACHEPROBE_ATTR_WINDOWS, res->windows,
				CACHEPROBE_ATTR_PAD) ?:
	      nla_put_u32(msg, CACHEPROBE_ATTR_RETRIES, res->retries) ?:
	      nla_put_u32(msg, CACHEPROBE_ATTR_MISSED_ROUNDS,
			  res->missed_rounds) ?:
	      nla_put_u32(msg, CACHEPROBE_ATTR_DISTURBED, res->disturbed);
	if (!ret && res->page_bytes)
		ret = nla_put_u64_64bit(msg, CACHEPROBE_ATTR_PAGE_BYTES,
					res->page_bytes, CACHEPROBE_ATTR_PAD);
	for (i = 0; !ret && i < res->nr_series; i++)
		ret = cp_genl_put_series(msg, res, i);
	return ret;
}

static int cp_genl_reply_run(struct genl_info *info, u8 cmd,
			     const struct cp_run_res *res)
{
	struct sk_buff *msg;
	void *hdr;
	int ret;

	msg = genlmsg_new(cp_genl_run_size(res), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &cp_genl_family, 0, cmd);
	ret = hdr ? cp_genl_put_run(msg, res) : -EMSGSIZE;
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* Reply with the run's result or its error; frees @buf. */
static int cp_genl_finish(struct genl_info *info, u8 cmd, int ret,
			  struct cp_run_buf *buf, struct cp_err *err)
{
	if (!ret)
		ret = cp_genl_reply_run(info, cmd, &buf->res);
	ret = cp_genl_errno(ret, err);
	if (ret && err->msg)
		cp_genl_report(info, err);
	cp_run_res_free(&buf->res);
	cp_live_dec(buf);
	kfree(buf);
	return ret;
}

static int cp_genl_chase(struct genl_info *info, const struct cp_run_req *run,
			 struct cp_run_res *res, struct cp_err *err)
{
	struct cp_chase_req req = {
		.run = *run,
		.size = nla_get_u64(info->attrs[CACHEPROBE_ATTR_SIZE]),
		.hops = cp_genl_u32(info, CACHEPROBE_ATTR_OPS),
		.stride = cp_genl_u32(info, CACHEPROBE_ATTR_STRIDE),
		.order = cp_genl_u32(info, CACHEPROBE_ATTR_ORDER),
		.prepare = cp_genl_u32(info, CACHEPROBE_ATTR_PREPARE),
		.pages = cp_genl_u32(info, CACHEPROBE_ATTR_PAGES),
		.chases = cp_genl_u32(info, CACHEPROBE_ATTR_CHASES),
	};
	struct nlattr *seed = info->attrs[CACHEPROBE_ATTR_SEED];

	/* Present, any value is a seed, 0 included. */
	if (seed) {
		req.seed = nla_get_u64(seed);
		req.has_seed = true;
	}
	return cp_chase(&req, res, err);
}

static int cp_genl_access(struct genl_info *info,
			  const struct cp_run_req *run, struct cp_run_res *res,
			  struct cp_err *err)
{
	struct cp_access_req req = {
		.run = *run,
		.size = nla_get_u64(info->attrs[CACHEPROBE_ATTR_SIZE]),
		.accesses = cp_genl_u32(info, CACHEPROBE_ATTR_OPS),
		.width = cp_genl_u32(info, CACHEPROBE_ATTR_WIDTH),
		.variant = cp_genl_u32(info, CACHEPROBE_ATTR_VARIANT),
		.offset = cp_genl_u32(info, CACHEPROBE_ATTR_OFFSET),
		.stride = cp_genl_u32(info, CACHEPROBE_ATTR_STRIDE),
	};
	struct nlattr *seed = info->attrs[CACHEPROBE_ATTR_SEED];

	/* Present, any value is a seed, 0 included. */
	if (seed) {
		req.seed = nla_get_u64(seed);
		req.has_seed = true;
	}
	return cp_access(&req, res, err);
}

static int cp_genl_pingpong(struct genl_info *info,
			    const struct cp_run_req *run,
			    struct cp_run_res *res, struct cp_err *err)
{
	struct cp_pingpong_req req = {
		.run = *run,
		.round_trips = cp_genl_u32(info, CACHEPROBE_ATTR_OPS),
		.variant = cp_genl_u32(info, CACHEPROBE_ATTR_VARIANT),
	};

	return cp_pingpong(&req, res, err);
}

static int cp_genl_bounce(struct genl_info *info,
			  const struct cp_run_req *run, struct cp_run_res *res,
			  struct cp_err *err)
{
	struct cp_bounce_req req = {
		.run = *run,
		.increments = cp_genl_u32(info, CACHEPROBE_ATTR_OPS),
		.variant = cp_genl_u32(info, CACHEPROBE_ATTR_VARIANT),
		.width = cp_genl_u32(info, CACHEPROBE_ATTR_WIDTH),
		.distance = cp_genl_u32(info, CACHEPROBE_ATTR_DISTANCE),
	};

	return cp_bounce(&req, res, err);
}

static int cp_genl_xfer(struct genl_info *info, const struct cp_run_req *run,
			struct cp_run_res *res, struct cp_err *err)
{
	struct cp_xfer_req req = {
		.run = *run,
		.size = nla_get_u64(info->attrs[CACHEPROBE_ATTR_SIZE]),
		.variant = cp_genl_u32(info, CACHEPROBE_ATTR_VARIANT),
		.order = cp_genl_u32(info, CACHEPROBE_ATTR_ORDER),
		.delay = cp_genl_u32(info, CACHEPROBE_ATTR_DELAY),
	};

	return cp_xfer(&req, res, err);
}

/**
 * struct cp_genl_run_cmd - a measurement command over netlink
 * @run: fills the command's request from the attributes and runs it.
 * @need: the attributes it requires besides CPU_LIST and SAMPLES, checked
 *	in this order; 0 ends the list.
 */
struct cp_genl_run_cmd {
	int (*run)(struct genl_info *info, const struct cp_run_req *run,
		   struct cp_run_res *res, struct cp_err *err);
	u16 need[4];
};

static const struct cp_genl_run_cmd cp_genl_run_cmds[] = {
	[CACHEPROBE_CMD_CHASE] = {
		cp_genl_chase, { CACHEPROBE_ATTR_SIZE, CACHEPROBE_ATTR_OPS },
	},
	[CACHEPROBE_CMD_ACCESS] = {
		cp_genl_access, { CACHEPROBE_ATTR_SIZE, CACHEPROBE_ATTR_OPS,
				  CACHEPROBE_ATTR_WIDTH,
				  CACHEPROBE_ATTR_VARIANT },
	},
	[CACHEPROBE_CMD_PINGPONG] = {
		cp_genl_pingpong, { CACHEPROBE_ATTR_OPS,
				    CACHEPROBE_ATTR_VARIANT },
	},
	[CACHEPROBE_CMD_BOUNCE] = {
		cp_genl_bounce, { CACHEPROBE_ATTR_OPS, CACHEPROBE_ATTR_VARIANT,
				  CACHEPROBE_ATTR_WIDTH,
				  CACHEPROBE_ATTR_DISTANCE },
	},
	[CACHEPROBE_CMD_XFER] = {
		cp_genl_xfer, { CACHEPROBE_ATTR_SIZE, CACHEPROBE_ATTR_VARIANT },
	},
};

/*
 * The doit of every measurement command.  A netlink request holds no
 * reference on the module, so rmmod during a long measurement would block
 * in genl_unregister_family() with the genetlink lock held for writing,
 * stalling every family on the machine until the measurement ends.  With
 * a reference per measurement, rmmod refuses instead, as it does while
 * /dev/cacheprobe is open.  Returning after module_put() is safe:
 * unregistering waits for the request to end.
 */
static int cp_genl_run(struct sk_buff *skb, struct genl_info *info)
{
	u8 cmd = info->genlhdr->cmd;
	const struct cp_genl_run_cmd *c = &cp_genl_run_cmds[cmd];
	struct cp_run_req run = {};
	struct cp_err err = {};
	struct cp_run_buf *buf;
	unsigned int i;
	int ret;

	if (!try_module_get(THIS_MODULE)) {
		NL_SET_ERR_MSG(info->extack, "cacheprobe is being unloaded");
		return -ENODEV;
	}
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	cp_live_inc(buf);
	ret = cp_genl_parse_run(skb, info, buf->cpus, &run, &err);
	for (i = 0; !ret && i < ARRAY_SIZE(c->need) && c->need[i]; i++)
		ret = cp_genl_need(info, c->need[i], &err);
	if (!ret)
		ret = c->run(info, &run, &buf->res, &err);
	ret = cp_genl_finish(info, cmd, ret, buf, &err);
out:
	module_put(THIS_MODULE);
	return ret;
}

static int cp_genl_flush(struct sk_buff *skb, struct genl_info *info)
{
	struct cp_flush_req req = {
		.method_attr = CACHEPROBE_ATTR_FLUSH_METHOD,
		.cpus_attr = CACHEPROBE_ATTR_CPUS,
	};
	struct nlattr *cpus_attr = info->attrs[CACHEPROBE_ATTR_CPUS];
	struct cp_cpu_times res = { .cap = nr_cpu_ids };
	struct cp_err err = {};
	cpumask_var_t cpus;
	int ret;

	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack, "FLUSH needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	if (!info->attrs[CACHEPROBE_ATTR_FLUSH_METHOD]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL,
				     CACHEPROBE_ATTR_FLUSH_METHOD);
		NL_SET_ERR_MSG(info->extack, "missing attribute FLUSH_METHOD");
		return -EINVAL;
	}
	req.method = nla_get_u32(info->attrs[CACHEPROBE_ATTR_FLUSH_METHOD]);

	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	res.times = kvcalloc(res.cap, sizeof(*res.times), GFP_KERNEL);
	if (!res.times) {
		ret = -ENOMEM;
		goto out;
	}
	if (cpus_attr) {
		ret = cp_cpumask_from_abi(cpus, nla_data(cpus_attr),
					  nla_len(cpus_attr),
					  CACHEPROBE_ATTR_CPUS, &err);
		if (ret)
			goto out;
		req.cpus = cpus;
	}
	ret = cp_flush(&req, &res, &err);
	if (!ret)
		ret = cp_genl_reply_cpu_times(info, CACHEPROBE_CMD_FLUSH,
					      CACHEPROBE_ATTR_FLUSH_RESULT,
					      &res);
out:
	ret = cp_genl_errno(ret, &err);
	if (ret && err.msg)
		cp_genl_report(info, &err);
	kvfree(res.times);
	free_cpumask_var(cpus);
	return ret;
}

static const struct nla_policy cp_flush_policy[CACHEPROBE_ATTR_MAX + 1] = {
	/* Values are the core's to judge, so both transports agree. */
	[CACHEPROBE_ATTR_FLUSH_METHOD] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_CPUS] = { .type = NLA_BINARY,
				   .len = CACHEPROBE_CPUMASK_MAX_BYTES },
};

/* Every measurement names its CPUs and samples. */
#define CP_RUN_POLICY							\
	[CACHEPROBE_ATTR_CPU_LIST] = {					\
		.type = NLA_BINARY,					\
		.len = CACHEPROBE_RUN_MAX_CPUS * sizeof(u32),		\
	},								\
	[CACHEPROBE_ATTR_SAMPLES] = { .type = NLA_U32 }

static const struct nla_policy cp_chase_policy[CACHEPROBE_ATTR_MAX + 1] = {
	CP_RUN_POLICY,
	[CACHEPROBE_ATTR_SIZE] = { .type = NLA_U64 },
	[CACHEPROBE_ATTR_OPS] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_STRIDE] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_ORDER] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_PREPARE] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_PAGES] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_CHASES] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_SEED] = { .type = NLA_U64 },
};

static const struct nla_policy cp_access_policy[CACHEPROBE_ATTR_MAX + 1] = {
	CP_RUN_POLICY,
	[CACHEPROBE_ATTR_SIZE] = { .type = NLA_U64 },
	[CACHEPROBE_ATTR_OPS] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_STRIDE] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_WIDTH] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_OFFSET] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_VARIANT] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_SEED] = { .type = NLA_U64 },
};

static const struct nla_policy cp_pingpong_policy[CACHEPROBE_ATTR_MAX + 1] = {
	CP_RUN_POLICY,
	[CACHEPROBE_ATTR_OPS] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_VARIANT] = { .type = NLA_U32 },
};

static const struct nla_policy cp_bounce_policy[CACHEPROBE_ATTR_MAX + 1] = {
	CP_RUN_POLICY,
	[CACHEPROBE_ATTR_OPS] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_VARIANT] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_WIDTH] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_DISTANCE] = { .type = NLA_U32 },
};

static const struct nla_policy cp_xfer_policy[CACHEPROBE_ATTR_MAX + 1] = {
	CP_RUN_POLICY,
	[CACHEPROBE_ATTR_SIZE] = { .type = NLA_U64 },
	[CACHEPROBE_ATTR_VARIANT] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_ORDER] = { .type = NLA_U32 },
	[CACHEPROBE_ATTR_DELAY] = { .type = NLA_U32 },
};

static const struct genl_ops cp_genl_ops[] = {
	{
		.cmd = CACHEPROBE_CMD_GET_INFO,
		.doit = cp_genl_get_info,
	},
	{
		.cmd = CACHEPROBE_CMD_FLUSH,
		.doit = cp_genl_flush,
		.policy = cp_flush_policy,
		.maxattr = CACHEPROBE_ATTR_MAX,
	},
	{
		.cmd = CACHEPROBE_CMD_CHASE,
		.doit = cp_genl_run,
		.policy = cp_chase_policy,
		.maxattr = CACHEPROBE_ATTR_MAX,
	},
	{
		.cmd = CACHEPROBE_CMD_ACCESS,
		.doit = cp_genl_run,
		.policy = cp_access_policy,
		.maxattr = CACHEPROBE_ATTR_MAX,
	},
	{
		.cmd = CACHEPROBE_CMD_PINGPONG,
		.doit = cp_genl_run,
		.policy = cp_pingpong_policy,
		.maxattr = CACHEPROBE_ATTR_MAX,
	},
	{
		.cmd = CACHEPROBE_CMD_BOUNCE,
		.doit = cp_genl_run,
		.policy = cp_bounce_policy,
		.maxattr = CACHEPROBE_ATTR_MAX,
	},
	{
		.cmd = CACHEPROBE_CMD_XFER,
		.doit = cp_genl_run,
		.policy = cp_xfer_policy,
		.maxattr = CACHEPROBE_ATTR_MAX,
	},
};

static struct genl_family cp_genl_family __ro_after_init = {
	.name = CACHEPROBE_GENL_NAME,
	.version = CACHEPROBE_GENL_VERSION,
	.module = THIS_MODULE,
	.ops = cp_genl_ops,
	.n_ops = ARRAY_SIZE(cp_genl_ops),
	/* Strict validation of every command, reserved header included. */
	.resv_start_op = 0,
	/* Long operations must not hold the global genetlink lock. */
	.parallel_ops = true,
};

int cp_genl_register(void)
{
	return genl_register_family(&cp_genl_family);
}

void cp_genl_unregister(void)
{
	genl_unregister_family(&cp_genl_family);
}
