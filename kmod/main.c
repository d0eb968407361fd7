// SPDX-License-Identifier: GPL-2.0
/*
 * cacheprobe.ko: privileged cache flushes, CPU-bound kernel threads and
 * interrupt-free timing for cache experiments, offered over generic netlink
 * and a misc device.  The ABI is include/uapi/linux/cacheprobe.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/genetlink.h>
#include "cacheprobe.h"

/* One operation at a time: they share CPUs, caches and the TSC. */
DEFINE_MUTEX(cp_op_lock);

/**
 * cp_op_lock_interruptible() - wait for the other operations to finish
 * @err: filled when a signal ends the wait
 *
 * Return: 0 with cp_op_lock held, or -EINTR with @err saying so.
 */
int cp_op_lock_interruptible(struct cp_err *err)
{
	if (!mutex_lock_interruptible(&cp_op_lock))
		return 0;
	return cp_fail(err, EINTR, 0,
		       "interrupted by a signal while waiting for another operation",
		       "operations run one at a time");
}

static int __init cp_init(void)
{
	int ret;

	if (!boot_cpu_has(X86_FEATURE_TSC)) {
		pr_err("no TSC: cannot time anything\n");
		return -ENODEV;
	}
	ret = cp_genl_register();
	if (ret) {
		pr_err("cannot register generic netlink family: %d\n", ret);
		return ret;
	}
	ret = cp_ioctl_register();
	if (ret) {
		pr_err("cannot register /dev/%s: %d\n", CACHEPROBE_DEVICE_NAME,
		       ret);
		cp_genl_unregister();
		return ret;
	}
	pr_info("version %s, ABI %u loaded\n", CACHEPROBE_VERSION,
		CACHEPROBE_ABI_VERSION);
	return 0;
}

static void __exit cp_exit(void)
{
	cp_ioctl_unregister();
	cp_genl_unregister();
	pr_info("unloaded\n");
}

module_init(cp_init);
module_exit(cp_exit);

MODULE_DESCRIPTION("Cache experiments: WBINVD/WBNOINVD, bound CPUs, irq-off timing");
MODULE_AUTHOR("cacheprobe developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(CACHEPROBE_VERSION);
MODULE_ALIAS_GENL_FAMILY(CACHEPROBE_GENL_NAME);
