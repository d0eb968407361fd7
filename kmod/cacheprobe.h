/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of cacheprobe.ko.
 *
 * Each operation has one core function (info.c, flush.c) that both
 * transports (genl.c, ioctl.c) call after parsing their own encoding of the
 * request.  Validation that does not depend on the encoding lives in the
 * core, so both transports reject the same inputs with the same messages.
 */
#ifndef CACHEPROBE_INTERNAL_H
#define CACHEPROBE_INTERNAL_H

#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <uapi/linux/cacheprobe.h>

/**
 * struct cp_err - why a request was refused
 * @msg: a fixed text, for kernels whose netlink extack cannot carry a
 *	formatted message (it must outlive the request).
 * @detail: the same reason with the offending values, NUL-terminated.
 * @attr: the netlink attribute that was wrong, or 0 when no single one was.
 */
struct cp_err {
	const char *msg;
	char detail[CACHEPROBE_MSG_MAX];
	int attr;
};

__printf(5, 6)
int cp_fail(struct cp_err *err, int errno_val, int attr, const char *text,
	    const char *fmt, ...);

/* Serialises operations: one runs at a time, the others wait. */
extern struct mutex cp_op_lock;

/**
 * struct cp_info - what CACHEPROBE_CMD_GET_INFO reports, masks aside
 * @abi_version: CACHEPROBE_ABI_VERSION.
 * @nr_cpu_ids: every CPU id is below this.
 * @nr_possible_cpus: CPUs that may ever be online.
 * @nr_online_cpus: CPUs online when the snapshot was taken.
 * @tsc_khz: TSC frequency in kHz, 0 if unknown.
 * @cache_line_size: CLFLUSH line size in bytes.
 * @features: CACHEPROBE_FEAT_* bits.
 * @max_cpus: CACHEPROBE_MAX_CPUS.
 */
struct cp_info {
	u32 abi_version;
	u32 nr_cpu_ids;
	u32 nr_possible_cpus;
	u32 nr_online_cpus;
	u32 tsc_khz;
	u32 cache_line_size;
	u64 features;
	u32 max_cpus;
};

void cp_get_info(struct cp_info *info);
u64 cp_tsc_to_ns(u64 cycles);

/* Bytes of an ABI bitmap covering every CPU id of this machine. */
static inline unsigned int cp_cpumask_abi_bytes(void)
{
	return DIV_ROUND_UP(nr_cpu_ids, 64) * sizeof(u64);
}

int cp_cpumask_from_abi(struct cpumask *mask, const void *bitmap,
			size_t bytes, int attr, struct cp_err *err);
void cp_cpumask_to_abi(void *bitmap, const struct cpumask *mask);

/**
 * struct cp_flush_req - a flush request, decoded
 * @method: enum cacheprobe_flush_method.
 * @cpus: CPUs to flush; NULL for every online CPU.
 * @method_attr: netlink attribute carrying @method, for error reports.
 * @cpus_attr: netlink attribute carrying @cpus, for error reports.
 */
struct cp_flush_req {
	u32 method;
	const struct cpumask *cpus;
	int method_attr;
	int cpus_attr;
};

/**
 * struct cp_cpu_times - per-CPU results of an operation
 * @times: room for @cap results.
 * @cap: capacity of @times.
 * @nr: results written.
 */
struct cp_cpu_times {
	struct cacheprobe_cpu_time *times;
	unsigned int cap;
	unsigned int nr;
};

int cp_flush(const struct cp_flush_req *req, struct cp_cpu_times *res,
	     struct cp_err *err);

int cp_genl_register(void);
void cp_genl_unregister(void);
int cp_ioctl_register(void);
void cp_ioctl_unregister(void);

#endif /* CACHEPROBE_INTERNAL_H */
