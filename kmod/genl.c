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
	       nla_put_u32(msg, CACHEPROBE_ATTR_MAX_CPUS, ci.max_cpus);
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
