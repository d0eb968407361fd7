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
int cp_op_lock_interruptible(struct cp_err *err);

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
 * @max_irqoff_ns: longest interrupt-off window (max_irqoff_us).
 * @max_buffer_bytes: largest measurement buffer (max_buffer_mb).
 * @partner_timeout_ms: how long a thread waits for a partner.
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
	u64 max_irqoff_ns;
	u64 max_buffer_bytes;
	u32 partner_timeout_ms;
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

/* --- measurements (runner.c and one file per experiment) --- */

/* Module parameters, read once per request (params.c). */
unsigned int cp_param_max_irqoff_us(void);
u64 cp_param_max_buffer_bytes(void);
unsigned int cp_param_partner_timeout_ms(void);
/* CP_FAULT_* bits of the fault_inject parameter (test builds only). */
#define CP_FAULT_SILENT_PARTNER	0x1	/* the last thread never answers */
#define CP_FAULT_NOMEM		0x2	/* buffer allocations fail */
/*
 * WBNOINVD treated as present: its encoding runs as WBINVD on CPUs without
 * it, and no emulator the guest tests use offers it, so this is how its
 * success path gets exercised at all.
 */
#define CP_FAULT_ASSUME_WBNOINVD	0x4
/* The last thread is bound to a CPU the request did not name. */
#define CP_FAULT_WRONG_CPU	0x8
/* A run holds after its first sample until the bit is cleared. */
#define CP_FAULT_HOLD		0x10
#ifdef CACHEPROBE_FAULT_INJECT
bool cp_fault(unsigned int bit);
void cp_live_inc(const void *obj);
void cp_live_dec(const void *obj);
void cp_lost_place(void);
void cp_warm_rounds(u64 rounds);
void cp_dither_spins(u64 spins);
#else
static inline bool cp_fault(unsigned int bit)
{
	return false;
}

static inline void cp_live_inc(const void *obj)
{
}

static inline void cp_live_dec(const void *obj)
{
}

static inline void cp_lost_place(void)
{
}

static inline void cp_warm_rounds(u64 rounds)
{
}

static inline void cp_dither_spins(u64 spins)
{
}
#endif

/**
 * struct cp_run_req - what every measurement request names
 * @cpus: CPU ids in role order.
 * @nr_cpus: their number.
 * @samples: samples to take.
 */
struct cp_run_req {
	const u32 *cpus;
	unsigned int nr_cpus;
	u32 samples;
};

/**
 * struct cp_run_res - what every measurement reply carries
 * @values: @nr_series series of @samples values (kvmalloc'ed; free with
 *	cp_run_res_free()).
 * @series_cpus: the CPU of each series.
 * @nr_series: series in @values.
 * @samples: values per series.
 * @ops: operations each value covers.
 * @window_max_cycles: longest interrupt-off window, TSC ticks.
 * @window_max_nsec: the same in ns.
 * @windows: windows the leading thread used.
 * @retries: samples run again after overrunning a window.
 * @values_cap: the most values the caller can take (ioctl), checked before
 *	the run; 0 for no limit but CACHEPROBE_MAX_VALUES.
 * @page_bytes: the smallest page size mapping the buffer (CHASE); 0 when
 *	the command does not report it.
 * @missed_rounds: rounds the leading thread offered that not every
 *	partner joined in time (saturates at U32_MAX).
 * @disturbed: samples run again because something the module cannot see
 *	stretched a window far past its bound (not counted in @retries).
 */
struct cp_run_res {
	u64 *values;
	u32 series_cpus[CACHEPROBE_RUN_MAX_CPUS];
	unsigned int nr_series;
	u32 samples;
	u64 ops;
	u64 window_max_cycles;
	u64 window_max_nsec;
	u64 windows;
	u32 retries;
	u32 values_cap;
	u64 page_bytes;
	u32 missed_rounds;
	u32 disturbed;
};

void cp_run_res_free(struct cp_run_res *res);

/**
 * struct cp_run_buf - the CPU list and result of one run request
 * @cpus: the CPU ids the request names (&cp_run_req.cpus points here).
 * @res: the result.
 *
 * Allocated per request: together over half a KiB, which put the netlink
 * and ioctl handlers' frames over 1 KiB with KASAN and broke -Werror
 * builds against kernels with CONFIG_FRAME_WARN=1024.
 */
struct cp_run_buf {
	u32 cpus[CACHEPROBE_RUN_MAX_CPUS];
	struct cp_run_res res;
};

/**
 * struct cp_chase_req - CACHEPROBE_CMD_CHASE, decoded
 * @run: CPU (one) and samples.
 * @size: buffer bytes.
 * @stride: bytes between slots, 0 for the default.
 * @order: enum cacheprobe_order, 0 for the default.
 * @hops: loads per sample, over all chases.
 * @prepare: enum cacheprobe_prepare, 0 for the default.
 * @pages: enum cacheprobe_pages, 0 for the default.
 * @chases: independent chases, 0 for the default (1).
 * @seed: the random order's seed, when @has_seed.
 * @has_seed: false: the module draws the seed.
 */
struct cp_chase_req {
	struct cp_run_req run;
	u64 size;
	u32 stride;
	u32 order;
	u32 hops;
	u32 prepare;
	u32 pages;
	u32 chases;
	u64 seed;
	bool has_seed;
};

/**
 * struct cp_access_req - CACHEPROBE_CMD_ACCESS, decoded
 * @run: CPU (one) and samples.
 * @size: buffer bytes.
 * @stride: bytes between slots, 0 for the default.
 * @width: bytes per access.
 * @offset: bytes from the start of a slot.
 * @variant: enum cacheprobe_access_variant.
 * @accesses: accesses per sample.
 * @seed: LOAD_LATENCY's cycle's seed, when @has_seed.
 * @has_seed: false: the module draws the seed.
 */
struct cp_access_req {
	struct cp_run_req run;
	u64 size;
	u32 stride;
	u32 width;
	u32 offset;
	u32 variant;
	u32 accesses;
	u64 seed;
	bool has_seed;
};

/**
 * struct cp_pingpong_req - CACHEPROBE_CMD_PINGPONG, decoded
 * @run: CPUs (initiator, responder) and samples.
 * @variant: enum cacheprobe_pingpong_variant.
 * @round_trips: round trips per sample.
 */
struct cp_pingpong_req {
	struct cp_run_req run;
	u32 variant;
	u32 round_trips;
};

/**
 * struct cp_bounce_req - CACHEPROBE_CMD_BOUNCE, decoded
 * @run: CPUs and samples.
 * @variant: enum cacheprobe_bounce_variant.
 * @width: counter bytes.
 * @distance: bytes between counters.
 * @increments: increments per CPU and sample.
 */
struct cp_bounce_req {
	struct cp_run_req run;
	u32 variant;
	u32 width;
	u32 distance;
	u32 increments;
};

/**
 * struct cp_xfer_req - CACHEPROBE_CMD_XFER, decoded
 * @run: CPUs (producer, consumer) and samples.
 * @size: block bytes.
 * @variant: enum cacheprobe_xfer_variant.
 * @order: enum cacheprobe_order, 0 for the default.
 * @delay: dependent adds after each load of the walk, 0 for none.
 */
struct cp_xfer_req {
	struct cp_run_req run;
	u64 size;
	u32 variant;
	u32 order;
	u32 delay;
};

bool cp_access_width_ok(u32 width);
int cp_chase(const struct cp_chase_req *req, struct cp_run_res *res,
	     struct cp_err *err);
int cp_access(const struct cp_access_req *req, struct cp_run_res *res,
	      struct cp_err *err);
int cp_pingpong(const struct cp_pingpong_req *req, struct cp_run_res *res,
		struct cp_err *err);
int cp_bounce(const struct cp_bounce_req *req, struct cp_run_res *res,
	      struct cp_err *err);
int cp_xfer(const struct cp_xfer_req *req, struct cp_run_res *res,
	    struct cp_err *err);

int cp_genl_register(void);
void cp_genl_unregister(void);
int cp_ioctl_register(void);
void cp_ioctl_unregister(void);

#endif /* CACHEPROBE_INTERNAL_H */
