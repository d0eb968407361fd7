// SPDX-License-Identifier: GPL-2.0
/* CACHEPROBE_CMD_FLUSH: WBINVD or WBNOINVD on chosen CPUs, timed on each. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/smp.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/special_insns.h>
#include "cacheprobe.h"

/*
 * Not every supported kernel has a wbnoinvd() helper; the encoding is
 * fixed (F3 0F 09) and assemblers that predate the mnemonic accept bytes.
 */
static inline void cp_wbnoinvd(void)
{
	asm volatile(".byte 0xf3, 0x0f, 0x09" : : : "memory");
}

struct cp_flush_slot {
	u32 method;
	u64 cycles;
};

/* Runs on the target CPU with interrupts off (IPI or local call). */
static void cp_flush_this_cpu(void *arg)
{
	struct cp_flush_slot *slot = arg;
	u64 start, end;

	start = rdtsc_ordered();
	if (slot->method == CACHEPROBE_FLUSH_WBNOINVD)
		cp_wbnoinvd();
	else
		wbinvd();
	end = rdtsc_ordered();
	slot->cycles = end - start;
}

static int cp_flush_check(const struct cp_flush_req *req,
			  const struct cpumask *cpus, unsigned int cap,
			  struct cp_err *err)
{
	unsigned int cpu, count;

	if (req->method != CACHEPROBE_FLUSH_WBINVD &&
	    req->method != CACHEPROBE_FLUSH_WBNOINVD)
		return cp_fail(err, EINVAL, req->method_attr,
			       "unknown flush method",
			       "method %u is neither WBINVD (%u) nor WBNOINVD (%u)",
			       req->method, CACHEPROBE_FLUSH_WBINVD,
			       CACHEPROBE_FLUSH_WBNOINVD);
	if (cpumask_empty(cpus))
		return cp_fail(err, EINVAL, req->cpus_attr, "empty CPU set",
			       "the request names no CPU");
	for_each_cpu(cpu, cpus) {
		if (!cpu_online(cpu))
			return cp_fail(err, EINVAL, req->cpus_attr,
				       "CPU is not online",
				       "CPU %u is not online", cpu);
		if (req->method == CACHEPROBE_FLUSH_WBNOINVD &&
		    !cpu_has(&cpu_data(cpu), X86_FEATURE_WBNOINVD) &&
		    !cp_fault(CP_FAULT_ASSUME_WBNOINVD))
			return cp_fail(err, EOPNOTSUPP, req->method_attr,
				       "WBNOINVD not supported",
				       "CPU %u has no WBNOINVD instruction",
				       cpu);
	}
	count = cpumask_weight(cpus);
	if (count > cap)
		return cp_fail(err, EINVAL, 0, "result array too small",
			       "room for %u results, %u CPUs to flush", cap,
			       count);
	return 0;
}

static int cp_flush_cpus(u32 method, const struct cpumask *cpus,
			 struct cp_cpu_times *res)
{
	struct cp_flush_slot slot = { .method = method };
	unsigned int cpu;
	int ret;

	res->nr = 0;
	for_each_cpu(cpu, cpus) {
		ret = smp_call_function_single(cpu, cp_flush_this_cpu, &slot,
					       true);
		if (ret)
			return ret;
		res->times[res->nr++] = (struct cacheprobe_cpu_time) {
			.cpu = cpu,
			.cycles = slot.cycles,
			.nsec = cp_tsc_to_ns(slot.cycles),
		};
	}
	return 0;
}

/**
 * cp_flush() - flush the caches of a set of CPUs and time each flush
 * @req: method and CPUs
 * @res: receives one result per CPU, in increasing CPU order
 * @err: filled when the request is refused
 *
 * Every CPU is checked before any is flushed, under the hotplug lock so the
 * set cannot change between the check and the flush.
 *
 * Return: 0; -EINVAL or -EOPNOTSUPP for a bad request; -EINTR, with @err
 * filled, when a signal interrupts the wait for another operation.
 */
int cp_flush(const struct cp_flush_req *req, struct cp_cpu_times *res,
	     struct cp_err *err)
{
	const struct cpumask *cpus;
	int ret;

	ret = cp_op_lock_interruptible(err);
	if (ret)
		return ret;
	cpus_read_lock();
	cpus = req->cpus ? req->cpus : cpu_online_mask;
	ret = cp_flush_check(req, cpus, res->cap, err);
	if (!ret)
		ret = cp_flush_cpus(req->method, cpus, res);
	cpus_read_unlock();
	mutex_unlock(&cp_op_lock);
	return ret;
}
