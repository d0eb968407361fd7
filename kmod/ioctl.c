// SPDX-License-Identifier: GPL-2.0
/*
 * The misc-device transport: /dev/cacheprobe, one _IOWR ioctl per command.
 * Structs are copied in whole, their reserved fields checked, then the core
 * does the work; refusals are explained in the caller's message buffer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "cacheprobe.h"

static void cp_ioc_report(const struct cacheprobe_ioc_head *head,
			  const struct cp_err *err)
{
	char text[CACHEPROBE_MSG_MAX];
	size_t len;

	if (!head->msg || !head->msg_len)
		return;
	len = min_t(size_t, head->msg_len, sizeof(text));
	strscpy(text, err->detail, len);
	/* A bad message pointer must not hide the error being reported. */
	if (copy_to_user(u64_to_user_ptr(head->msg), text, strlen(text) + 1))
		pr_debug("message buffer not writable\n");
}

static bool cp_ioc_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

static int cp_ioc_check_head(const struct cacheprobe_ioc_head *head,
			     struct cp_err *err)
{
	if (head->flags)
		return cp_fail(err, EINVAL, 0, "unknown flags in head.flags",
			       "0x%x", head->flags);
	return 0;
}

static void cp_ioc_fill_info(struct cacheprobe_info *arg)
{
	struct cp_info ci;

	cp_get_info(&ci);
	arg->abi_version = ci.abi_version;
	arg->nr_cpu_ids = ci.nr_cpu_ids;
	arg->nr_possible_cpus = ci.nr_possible_cpus;
	arg->nr_online_cpus = ci.nr_online_cpus;
	arg->tsc_khz = ci.tsc_khz;
	arg->cache_line_size = ci.cache_line_size;
	arg->features = ci.features;
	arg->max_cpus = ci.max_cpus;
	arg->max_irqoff_ns = ci.max_irqoff_ns;
	arg->max_buffer_bytes = ci.max_buffer_bytes;
	arg->partner_timeout_ms = ci.partner_timeout_ms;
	arg->max_values = CACHEPROBE_MAX_VALUES;
	arg->max_chases = CACHEPROBE_MAX_CHASES;
}

static int cp_ioc_get_info(struct cacheprobe_info __user *uarg,
			   struct cp_err *err)
{
	unsigned int bytes = cp_cpumask_abi_bytes();
	struct cacheprobe_info arg;
	bool want_masks;
	void *mask;
	int ret = 0;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	ret = cp_ioc_check_head(&arg.head, err);
	if (ret)
		goto out_report;
	if (arg.reserved) {
		ret = cp_fail(err, EINVAL, 0, "reserved fields must be zero",
			      "struct cacheprobe_info.reserved");
		goto out_report;
	}
	want_masks = arg.possible_cpus || arg.online_cpus;
	if ((!want_masks && arg.mask_bytes) ||
	    (want_masks && (arg.mask_bytes < bytes || arg.mask_bytes % 8 ||
			    arg.mask_bytes > CACHEPROBE_CPUMASK_MAX_BYTES))) {
		ret = cp_fail(err, EINVAL, 0, "bad mask_bytes",
			      "%u; need a multiple of 8 from %u to %u with buffers, 0 without",
			      arg.mask_bytes, bytes,
			      CACHEPROBE_CPUMASK_MAX_BYTES);
		goto out_report;
	}

	mask = kzalloc(bytes, GFP_KERNEL);
	if (!mask)
		return -ENOMEM;

	cpus_read_lock();
	cp_ioc_fill_info(&arg);
	cp_cpumask_to_abi(mask, cpu_possible_mask);
	if (arg.possible_cpus &&
	    copy_to_user(u64_to_user_ptr(arg.possible_cpus), mask, bytes))
		ret = -EFAULT;
	cp_cpumask_to_abi(mask, cpu_online_mask);
	if (!ret && arg.online_cpus &&
	    copy_to_user(u64_to_user_ptr(arg.online_cpus), mask, bytes))
		ret = -EFAULT;
	cpus_read_unlock();
	kfree(mask);
	if (ret)
		return ret;

	strscpy(arg.module_version, CACHEPROBE_VERSION,
		sizeof(arg.module_version));
	arg.mask_bytes = want_masks ? bytes : 0;
	if (copy_to_user(uarg, &arg, sizeof(arg)))
		return -EFAULT;
	return 0;

out_report:
	cp_ioc_report(&arg.head, err);
	return ret;
}

static int cp_ioc_check_flush(const struct cacheprobe_flush *arg,
			      struct cp_err *err)
{
	int ret = cp_ioc_check_head(&arg->head, err);

	if (ret)
		return ret;
	if (arg->nr_results || !cp_ioc_zero(arg->reserved,
					    sizeof(arg->reserved)))
		return cp_fail(err, EINVAL, 0, "reserved fields must be zero",
			       "struct cacheprobe_flush: nr_results and reserved are outputs or unused");
	if (!arg->cpus && arg->cpus_bytes)
		return cp_fail(err, EINVAL, 0, "cpus_bytes without cpus",
			       "cpus_bytes %u given with a NULL cpus pointer",
			       arg->cpus_bytes);
	if (!arg->results || !arg->results_cap)
		return cp_fail(err, EINVAL, 0, "no result array",
			       "results pointer and results_cap are required");
	return 0;
}

static int cp_ioc_read_cpus(const struct cacheprobe_flush *arg,
			    struct cpumask *cpus, struct cp_err *err)
{
	void *bitmap;
	int ret;

	if (arg->cpus_bytes % 8 || !arg->cpus_bytes ||
	    arg->cpus_bytes > CACHEPROBE_CPUMASK_MAX_BYTES)
		return cp_fail(err, EINVAL, 0, "bad cpus_bytes",
			       "%u; need a multiple of 8 from 8 to %u",
			       arg->cpus_bytes, CACHEPROBE_CPUMASK_MAX_BYTES);
	bitmap = memdup_user(u64_to_user_ptr(arg->cpus), arg->cpus_bytes);
	if (IS_ERR(bitmap))
		return PTR_ERR(bitmap);
	ret = cp_cpumask_from_abi(cpus, bitmap, arg->cpus_bytes, 0, err);
	kfree(bitmap);
	return ret;
}

static int cp_ioc_flush(struct cacheprobe_flush __user *uarg,
			struct cp_err *err)
{
	struct cacheprobe_flush arg;
	struct cp_flush_req req = {};
	struct cp_cpu_times res = {};
	cpumask_var_t cpus;
	int ret;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (!capable(CAP_SYS_ADMIN)) {
		ret = cp_fail(err, EPERM, 0, "FLUSH needs CAP_SYS_ADMIN",
			      "the caller lacks it");
		goto out_report;
	}
	ret = cp_ioc_check_flush(&arg, err);
	if (ret)
		goto out_report;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	if (arg.cpus) {
		ret = cp_ioc_read_cpus(&arg, cpus, err);
		if (ret)
			goto out_free;
		req.cpus = cpus;
	}
	req.method = arg.method;
	res.cap = min_t(u32, arg.results_cap, nr_cpu_ids);
	res.times = kvcalloc(res.cap, sizeof(*res.times), GFP_KERNEL);
	if (!res.times) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = cp_flush(&req, &res, err);
	if (ret)
		goto out_free;
	arg.nr_results = res.nr;
	if (copy_to_user(u64_to_user_ptr(arg.results), res.times,
			 array_size(res.nr, sizeof(*res.times))) ||
	    copy_to_user(uarg, &arg, sizeof(arg)))
		ret = -EFAULT;
out_free:
	kvfree(res.times);
	free_cpumask_var(cpus);
out_report:
	if (ret && err->msg)
		cp_ioc_report(&arg.head, err);
	return ret;
}

/* --- measurement commands --- */

/*
 * The shared part of a measurement ioctl: head and struct cacheprobe_run
 * checked, CPU ids copied in.
 */
static int cp_ioc_run_in(const struct cacheprobe_ioc_head *head,
			 const struct cacheprobe_run *run, u32 *cpus,
			 struct cp_run_req *req, struct cp_run_res *res,
			 struct cp_err *err)
{
	int ret = cp_ioc_check_head(head, err);

	if (ret)
		return ret;
	if (!capable(CAP_SYS_ADMIN))
		return cp_fail(err, EPERM, 0, "this command needs CAP_SYS_ADMIN",
			       "the caller lacks it");
	if (!run->cpus || !run->nr_cpus ||
	    run->nr_cpus > CACHEPROBE_RUN_MAX_CPUS)
		return cp_fail(err, EINVAL, 0, "bad CPU list",
			       "cpus must point to 1 to %u CPU ids, nr_cpus is %u",
			       CACHEPROBE_RUN_MAX_CPUS, run->nr_cpus);
	if (!run->values || !run->values_cap)
		return cp_fail(err, EINVAL, 0, "no value array",
			       "values pointer and values_cap are required");
	if (copy_from_user(cpus, u64_to_user_ptr(run->cpus),
			   run->nr_cpus * sizeof(u32)))
		return -EFAULT;
	req->cpus = cpus;
	req->nr_cpus = run->nr_cpus;
	req->samples = run->samples;
	res->values_cap = run->values_cap;
	return 0;
}

static int cp_ioc_run_out(struct cacheprobe_run *run,
			  const struct cp_run_res *res)
{
	size_t nr = (size_t)res->nr_series * res->samples;

	run->nr_values = nr;
	run->ops = res->ops;
	run->window_max_cycles = res->window_max_cycles;
	run->window_max_nsec = res->window_max_nsec;
	run->windows = res->windows;
	run->retries = res->retries;
	run->nr_series = res->nr_series;
	run->page_bytes = res->page_bytes;
	run->missed_rounds = res->missed_rounds;
	run->disturbed = res->disturbed;
	if (copy_to_user(u64_to_user_ptr(run->values), res->values,
			 array_size(nr, sizeof(u64))))
		return -EFAULT;
	return 0;
}

/* Every measurement ioctl's argument starts with a head and a run. */
union cp_ioc_run_arg {
	struct cacheprobe_chase chase;
	struct cacheprobe_access access;
	struct cacheprobe_pingpong pingpong;
	struct cacheprobe_bounce bounce;
	struct cacheprobe_xfer xfer;
};

/**
 * struct cp_ioc_run_cmd - one measurement ioctl
 * @size: its struct's size.
 * @reserved: offset of its trailing reserved fields (@size: none).
 * @name: its struct's name, for messages.
 * @call: decodes the struct and calls the core.
 */
struct cp_ioc_run_cmd {
	size_t size;
	size_t reserved;
	const char *name;
	int (*call)(const union cp_ioc_run_arg *arg,
		    const struct cp_run_req *run, struct cp_run_res *res,
		    struct cp_err *err);
};

static int cp_ioc_call_chase(const union cp_ioc_run_arg *arg,
			     const struct cp_run_req *run,
			     struct cp_run_res *res, struct cp_err *err)
{
	const struct cacheprobe_chase *a = &arg->chase;
	struct cp_chase_req req = {
		.run = *run,
		.size = a->size,
		.stride = a->stride,
		.order = a->order,
		.hops = a->hops,
		.prepare = a->prepare,
		.pages = a->pages,
		.chases = a->chases,
		/* The ioctl's 0 is "no seed": ABI 3 callers pass zeros. */
		.seed = a->seed,
		.has_seed = a->seed != 0,
	};

	return cp_chase(&req, res, err);
}

static int cp_ioc_call_access(const union cp_ioc_run_arg *arg,
			      const struct cp_run_req *run,
			      struct cp_run_res *res, struct cp_err *err)
{
	const struct cacheprobe_access *a = &arg->access;
	struct cp_access_req req = {
		.run = *run,
		.size = a->size,
		.stride = a->stride,
		.width = a->width,
		.offset = a->offset,
		.variant = a->variant,
		.accesses = a->accesses,
		/* As CHASE's: 0 is "no seed", what ABI 4 callers pass. */
		.seed = a->seed,
		.has_seed = a->seed != 0,
	};

	if (a->reserved0)
		return cp_fail(err, EINVAL, 0, "reserved fields must be zero",
			       "struct cacheprobe_access.reserved0");
	return cp_access(&req, res, err);
}

static int cp_ioc_call_pingpong(const union cp_ioc_run_arg *arg,
				const struct cp_run_req *run,
				struct cp_run_res *res, struct cp_err *err)
{
	struct cp_pingpong_req req = {
		.run = *run,
		.variant = arg->pingpong.variant,
		.round_trips = arg->pingpong.round_trips,
	};

	return cp_pingpong(&req, res, err);
}

static int cp_ioc_call_bounce(const union cp_ioc_run_arg *arg,
			      const struct cp_run_req *run,
			      struct cp_run_res *res, struct cp_err *err)
{
	const struct cacheprobe_bounce *a = &arg->bounce;
	struct cp_bounce_req req = {
		.run = *run,
		.variant = a->variant,
		.width = a->width,
		.distance = a->distance,
		.increments = a->increments,
	};

	return cp_bounce(&req, res, err);
}

static int cp_ioc_call_xfer(const union cp_ioc_run_arg *arg,
			    const struct cp_run_req *run,
			    struct cp_run_res *res, struct cp_err *err)
{
	struct cp_xfer_req req = {
		.run = *run,
		.size = arg->xfer.size,
		.variant = arg->xfer.variant,
		.order = arg->xfer.order,
		.delay = arg->xfer.delay,
	};

	return cp_xfer(&req, res, err);
}

static const struct cp_ioc_run_cmd cp_ioc_chase_cmd = {
	.size = sizeof(struct cacheprobe_chase),
	/* ABI 4 gave the last reserved field a meaning: none is left. */
	.reserved = sizeof(struct cacheprobe_chase),
	.name = "cacheprobe_chase",
	.call = cp_ioc_call_chase,
};

static const struct cp_ioc_run_cmd cp_ioc_access_cmd = {
	.size = sizeof(struct cacheprobe_access),
	.reserved = offsetof(struct cacheprobe_access, reserved),
	.name = "cacheprobe_access",
	.call = cp_ioc_call_access,
};

static const struct cp_ioc_run_cmd cp_ioc_pingpong_cmd = {
	.size = sizeof(struct cacheprobe_pingpong),
	.reserved = offsetof(struct cacheprobe_pingpong, reserved),
	.name = "cacheprobe_pingpong",
	.call = cp_ioc_call_pingpong,
};

static const struct cp_ioc_run_cmd cp_ioc_bounce_cmd = {
	.size = sizeof(struct cacheprobe_bounce),
	.reserved = offsetof(struct cacheprobe_bounce, reserved),
	.name = "cacheprobe_bounce",
	.call = cp_ioc_call_bounce,
};

static const struct cp_ioc_run_cmd cp_ioc_xfer_cmd = {
	.size = sizeof(struct cacheprobe_xfer),
	.reserved = offsetof(struct cacheprobe_xfer, reserved),
	.name = "cacheprobe_xfer",
	.call = cp_ioc_call_xfer,
};

/* Copy in, check, run the core on the decoded request, copy out. */
static int cp_ioc_run(void __user *uarg, const struct cp_ioc_run_cmd *cmd,
		      struct cp_err *err)
{
	union cp_ioc_run_arg arg;
	/* Every member starts with the head, then the run. */
	struct cacheprobe_ioc_head *head = &arg.chase.head;
	struct cacheprobe_run *run = &arg.chase.run;
	struct cp_run_req req = {};
	struct cp_run_buf *buf;
	struct cp_run_res *res;
	int ret;

	if (copy_from_user(&arg, uarg, cmd->size))
		return -EFAULT;
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	cp_live_inc(buf);
	res = &buf->res;
	ret = cp_ioc_run_in(head, run, buf->cpus, &req, res, err);
	if (!ret && !cp_ioc_zero((char *)&arg + cmd->reserved,
				 cmd->size - cmd->reserved))
		ret = cp_fail(err, EINVAL, 0, "reserved fields must be zero",
			      "struct %s.reserved", cmd->name);
	if (!ret)
		ret = cmd->call(&arg, &req, res, err);
	if (!ret)
		ret = cp_ioc_run_out(run, res);
	if (!ret && copy_to_user(uarg, &arg, cmd->size))
		ret = -EFAULT;
	cp_run_res_free(res);
	cp_live_dec(buf);
	kfree(buf);
	if (ret && err->msg)
		cp_ioc_report(head, err);
	return ret;
}

static long cp_ioc_dispatch(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct cp_err err = {};
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case CACHEPROBE_IOC_GET_INFO:
		return cp_ioc_get_info(uarg, &err);
	case CACHEPROBE_IOC_FLUSH:
		return cp_ioc_flush(uarg, &err);
	case CACHEPROBE_IOC_CHASE:
		return cp_ioc_run(uarg, &cp_ioc_chase_cmd, &err);
	case CACHEPROBE_IOC_ACCESS:
		return cp_ioc_run(uarg, &cp_ioc_access_cmd, &err);
	case CACHEPROBE_IOC_PINGPONG:
		return cp_ioc_run(uarg, &cp_ioc_pingpong_cmd, &err);
	case CACHEPROBE_IOC_BOUNCE:
		return cp_ioc_run(uarg, &cp_ioc_bounce_cmd, &err);
	case CACHEPROBE_IOC_XFER:
		return cp_ioc_run(uarg, &cp_ioc_xfer_cmd, &err);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations cp_ioc_fops = {
	.owner = THIS_MODULE,
	.open = nonseekable_open,
	.unlocked_ioctl = cp_ioc_dispatch,
	/* Fixed-width, naturally aligned structs read the same for 32-bit. */
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice cp_ioc_device = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = CACHEPROBE_DEVICE_NAME,
	.fops = &cp_ioc_fops,
	.mode = 0600,
};

int cp_ioctl_register(void)
{
	return misc_register(&cp_ioc_device);
}

void cp_ioctl_unregister(void)
{
	misc_deregister(&cp_ioc_device);
}
