/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * cacheprobe - the contract between cacheprobe.ko and user space.
 *
 * The module offers the same operations over two transports:
 *
 *  - the generic netlink family CACHEPROBE_GENL_NAME, version
 *    CACHEPROBE_GENL_VERSION, one command per operation, attributes from
 *    enum cacheprobe_attr;
 *  - the misc device /dev/CACHEPROBE_DEVICE_NAME (mode 0600), one _IOWR
 *    ioctl per operation, on the fixed-width structs below.
 *
 * Both transports validate their input and call the same code in the module,
 * so an operation behaves the same whichever is used.  Command numbers are
 * shared: ioctl number N carries the operation of netlink command N.
 *
 * Growing the ABI: new operations get new commands, new results get new
 * attributes, and struct fields named "reserved" must be zero today and may
 * gain a meaning later.  Nothing here is ever renumbered or resized;
 * CACHEPROBE_ABI_VERSION counts additions.
 *
 * Errors common to every operation, on both transports:
 *   EINVAL     malformed input: an unknown or reply-only attribute, a value
 *              out of range, a reserved field or unknown flag that is not
 *              zero, a CPU id that is not possible or not online.  The
 *              module explains which input was wrong: in the netlink extended
 *              ack (with the offending attribute), or in the ioctl's message
 *              buffer (struct cacheprobe_ioc_head).
 *   ERANGE     (netlink) a binary attribute longer than its limit (a
 *              bitmap over CACHEPROBE_CPUMASK_MAX_BYTES); the extended ack
 *              names it.  A fixed-size attribute of the wrong length (a u32
 *              that is not 4 bytes) is EINVAL, "invalid attribute length".
 *   EPERM      a privileged operation without CAP_SYS_ADMIN.
 *   EFAULT     (ioctl) a user pointer that cannot be read or written.
 *   ENOTTY     (ioctl) an ioctl number the module does not know, including
 *              a known command with a struct size of another ABI.
 *   EINTR      a signal arrived while waiting for another operation to end
 *              (operations run one at a time).
 *   ENOMEM     the module could not allocate what the request needs.
 */
#ifndef _UAPI_LINUX_CACHEPROBE_H
#define _UAPI_LINUX_CACHEPROBE_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define CACHEPROBE_GENL_NAME		"cacheprobe"
#define CACHEPROBE_GENL_VERSION		1
#define CACHEPROBE_DEVICE_NAME		"cacheprobe"

/* Reported by CACHEPROBE_CMD_GET_INFO; raised when the ABI gains anything. */
#define CACHEPROBE_ABI_VERSION		1

/*
 * CPU sets ("cpumasks") cross the ABI as bitmaps: an array of __u64 words in
 * native byte order, CPU n being bit (n % 64) of word (n / 64).  A bitmap is
 * a multiple of 8 bytes long and at most CACHEPROBE_CPUMASK_MAX_BYTES; CPUs
 * beyond its end are not in the set.
 */
#define CACHEPROBE_MAX_CPUS		8192
#define CACHEPROBE_CPUMASK_MAX_BYTES	(CACHEPROBE_MAX_CPUS / 8)

/* Size of struct cacheprobe_info.module_version, NUL included. */
#define CACHEPROBE_VERSION_LEN		32

/* Longest error message the module writes, NUL included. */
#define CACHEPROBE_MSG_MAX		256

/**
 * enum cacheprobe_cmd - operations (netlink commands and ioctl numbers)
 * @CACHEPROBE_CMD_UNSPEC: never valid.
 * @CACHEPROBE_CMD_GET_INFO: describe the module and the machine.  Open to
 *	every user.  Request: no attributes.  Reply: MODULE_VERSION,
 *	ABI_VERSION, NR_CPU_IDS, NR_POSSIBLE_CPUS, NR_ONLINE_CPUS,
 *	POSSIBLE_CPUS, ONLINE_CPUS, TSC_KHZ, FEATURES, CACHE_LINE_SIZE,
 *	MAX_CPUS.  ioctl: CACHEPROBE_IOC_GET_INFO.
 * @CACHEPROBE_CMD_FLUSH: write back and invalidate the caches of a set of
 *	CPUs (WBINVD), or write back without invalidating (WBNOINVD), and time
 *	the instruction on each CPU.  Needs CAP_SYS_ADMIN.  Request:
 *	FLUSH_METHOD (required), CPUS (optional; absent means every online
 *	CPU).  Reply: one message holding one FLUSH_RESULT per flushed CPU,
 *	in increasing CPU order (about 48 bytes per CPU: receive with a
 *	buffer sized for NR_CPU_IDS CPUs, or peek at the length first).  Errors: EINVAL for a missing or unknown method, an empty set,
 *	a CPU id that is not below NR_CPU_IDS or not online; EOPNOTSUPP for
 *	WBNOINVD on a CPU without it (no CPU is flushed then).
 *	ioctl: CACHEPROBE_IOC_FLUSH.
 * @__CACHEPROBE_CMD_MAX: one past the last command.
 * @CACHEPROBE_CMD_MAX: the last command.
 */
enum cacheprobe_cmd {
	CACHEPROBE_CMD_UNSPEC,
	CACHEPROBE_CMD_GET_INFO,
	CACHEPROBE_CMD_FLUSH,

	__CACHEPROBE_CMD_MAX,
	CACHEPROBE_CMD_MAX = __CACHEPROBE_CMD_MAX - 1
};

/**
 * enum cacheprobe_attr - top-level netlink attributes
 *
 * "Reply" attributes are rejected (EINVAL) when a request carries them.
 *
 * @CACHEPROBE_ATTR_UNSPEC: never valid.
 * @CACHEPROBE_ATTR_PAD: alignment padding for 64-bit attributes.
 * @CACHEPROBE_ATTR_MODULE_VERSION: reply, NUL-terminated string of at most
 *	CACHEPROBE_VERSION_LEN bytes: the module's release, e.g. "0.1.0".
 * @CACHEPROBE_ATTR_ABI_VERSION: reply, u32: CACHEPROBE_ABI_VERSION of the
 *	module.
 * @CACHEPROBE_ATTR_NR_CPU_IDS: reply, u32: every CPU id is below this.
 * @CACHEPROBE_ATTR_NR_POSSIBLE_CPUS: reply, u32: CPUs that may ever be online.
 * @CACHEPROBE_ATTR_NR_ONLINE_CPUS: reply, u32: CPUs online now.
 * @CACHEPROBE_ATTR_POSSIBLE_CPUS: reply, binary cpumask of possible CPUs,
 *	DIV_ROUND_UP(NR_CPU_IDS, 64) words.
 * @CACHEPROBE_ATTR_ONLINE_CPUS: reply, binary cpumask of online CPUs, same
 *	length.
 * @CACHEPROBE_ATTR_TSC_KHZ: reply, u32: the kernel's TSC frequency in kHz
 *	(0 when the kernel does not know it).  TSC ticks in results convert to
 *	time with it.
 * @CACHEPROBE_ATTR_FEATURES: reply, u64: CACHEPROBE_FEAT_* bits of the boot
 *	CPU.
 * @CACHEPROBE_ATTR_CACHE_LINE_SIZE: reply, u32: bytes flushed by one CLFLUSH
 *	(the CPU's cache line size as CPUID reports it).
 * @CACHEPROBE_ATTR_MAX_CPUS: reply, u32: CACHEPROBE_MAX_CPUS, the largest
 *	CPU id plus one a request may name (the module's limit; the kernel's
 *	NR_CPU_IDS is the machine's).
 * @CACHEPROBE_ATTR_FLUSH_METHOD: request, u32, enum cacheprobe_flush_method.
 * @CACHEPROBE_ATTR_CPUS: request, binary cpumask of the CPUs to act on, 8 to
 *	CACHEPROBE_CPUMASK_MAX_BYTES bytes, a multiple of 8.
 * @CACHEPROBE_ATTR_FLUSH_RESULT: reply, nested, repeated once per CPU:
 *	attributes from enum cacheprobe_result_attr.
 * @__CACHEPROBE_ATTR_MAX: one past the last attribute.
 * @CACHEPROBE_ATTR_MAX: the last attribute.
 */
enum cacheprobe_attr {
	CACHEPROBE_ATTR_UNSPEC,
	CACHEPROBE_ATTR_PAD,
	CACHEPROBE_ATTR_MODULE_VERSION,
	CACHEPROBE_ATTR_ABI_VERSION,
	CACHEPROBE_ATTR_NR_CPU_IDS,
	CACHEPROBE_ATTR_NR_POSSIBLE_CPUS,
	CACHEPROBE_ATTR_NR_ONLINE_CPUS,
	CACHEPROBE_ATTR_POSSIBLE_CPUS,
	CACHEPROBE_ATTR_ONLINE_CPUS,
	CACHEPROBE_ATTR_TSC_KHZ,
	CACHEPROBE_ATTR_FEATURES,
	CACHEPROBE_ATTR_CACHE_LINE_SIZE,
	CACHEPROBE_ATTR_MAX_CPUS,
	CACHEPROBE_ATTR_FLUSH_METHOD,
	CACHEPROBE_ATTR_CPUS,
	CACHEPROBE_ATTR_FLUSH_RESULT,

	__CACHEPROBE_ATTR_MAX,
	CACHEPROBE_ATTR_MAX = __CACHEPROBE_ATTR_MAX - 1
};

/**
 * enum cacheprobe_result_attr - attributes nested in a per-CPU result
 * @CACHEPROBE_RESULT_UNSPEC: never valid.
 * @CACHEPROBE_RESULT_PAD: alignment padding for 64-bit attributes.
 * @CACHEPROBE_RESULT_CPU: u32, the CPU id the result belongs to.
 * @CACHEPROBE_RESULT_CYCLES: u64, TSC ticks (reference cycles, not core
 *	cycles) the operation took on that CPU, read with ordered RDTSC
 *	around it, interrupts off.
 * @CACHEPROBE_RESULT_NSEC: u64, the same duration in nanoseconds, converted
 *	with the kernel's TSC frequency (0 when TSC_KHZ is 0).
 * @__CACHEPROBE_RESULT_MAX: one past the last attribute.
 * @CACHEPROBE_RESULT_MAX: the last attribute.
 */
enum cacheprobe_result_attr {
	CACHEPROBE_RESULT_UNSPEC,
	CACHEPROBE_RESULT_PAD,
	CACHEPROBE_RESULT_CPU,
	CACHEPROBE_RESULT_CYCLES,
	CACHEPROBE_RESULT_NSEC,

	__CACHEPROBE_RESULT_MAX,
	CACHEPROBE_RESULT_MAX = __CACHEPROBE_RESULT_MAX - 1
};

/**
 * enum cacheprobe_flush_method - how CACHEPROBE_CMD_FLUSH flushes
 * @CACHEPROBE_FLUSH_WBINVD: WBINVD: write back dirty lines, then invalidate
 *	every line of every cache level the CPU's caches share.  Under a
 *	hypervisor the instruction is usually intercepted and skipped; see
 *	CACHEPROBE_FEAT_HYPERVISOR.
 * @CACHEPROBE_FLUSH_WBNOINVD: WBNOINVD: write back dirty lines and keep them
 *	cached (clean).  Only where CACHEPROBE_FEAT_WBNOINVD is set.
 */
enum cacheprobe_flush_method {
	CACHEPROBE_FLUSH_WBINVD = 1,
	CACHEPROBE_FLUSH_WBNOINVD = 2,
};

/*
 * CACHEPROBE_FEAT_* - bits of CACHEPROBE_ATTR_FEATURES and
 * struct cacheprobe_info.features, read from the boot CPU's features.
 */
#define CACHEPROBE_FEAT_WBNOINVD	(1ULL << 0)	/* WBNOINVD available */
#define CACHEPROBE_FEAT_CLFLUSH		(1ULL << 1)	/* CLFLUSH */
#define CACHEPROBE_FEAT_CLFLUSHOPT	(1ULL << 2)	/* CLFLUSHOPT */
#define CACHEPROBE_FEAT_CLWB		(1ULL << 3)	/* CLWB */
#define CACHEPROBE_FEAT_RDTSCP		(1ULL << 4)	/* RDTSCP */
/* TSC runs at a constant rate in every P- and C-state (constant+nonstop). */
#define CACHEPROBE_FEAT_INVARIANT_TSC	(1ULL << 5)
/* Running under a hypervisor: WBINVD and timings may not be what they seem. */
#define CACHEPROBE_FEAT_HYPERVISOR	(1ULL << 6)

/* ioctl interface */

#define CACHEPROBE_IOC_MAGIC		0xCE

/**
 * struct cacheprobe_ioc_head - first member of every ioctl argument
 * @msg: in, user pointer to a buffer that receives a NUL-terminated message
 *	explaining the error when the ioctl fails with EINVAL, EOPNOTSUPP or
 *	EPERM; 0 for no message.  Untouched on success.
 * @msg_len: in, size of that buffer in bytes; the module writes at most
 *	min(@msg_len, CACHEPROBE_MSG_MAX) bytes, NUL included, cutting the
 *	message short if it must.
 * @flags: in, must be 0.
 *
 * The message buffer plays the role of netlink's extended ack, so a program
 * using the device gets the same explanation as one using netlink.
 */
struct cacheprobe_ioc_head {
	__u64 msg;
	__u32 msg_len;
	__u32 flags;
};

/**
 * struct cacheprobe_info - argument of CACHEPROBE_IOC_GET_INFO
 * @head: see struct cacheprobe_ioc_head.
 * @module_version: out, as CACHEPROBE_ATTR_MODULE_VERSION.
 * @abi_version: out, as CACHEPROBE_ATTR_ABI_VERSION.
 * @nr_cpu_ids: out, as CACHEPROBE_ATTR_NR_CPU_IDS.
 * @nr_possible_cpus: out, as CACHEPROBE_ATTR_NR_POSSIBLE_CPUS.
 * @nr_online_cpus: out, as CACHEPROBE_ATTR_NR_ONLINE_CPUS.
 * @tsc_khz: out, as CACHEPROBE_ATTR_TSC_KHZ.
 * @cache_line_size: out, as CACHEPROBE_ATTR_CACHE_LINE_SIZE.
 * @features: out, as CACHEPROBE_ATTR_FEATURES.
 * @max_cpus: out, as CACHEPROBE_ATTR_MAX_CPUS.
 * @mask_bytes: in, the size in bytes of each of the two buffers below (a
 *	multiple of 8, at most CACHEPROBE_CPUMASK_MAX_BYTES; 0 when both
 *	pointers are 0); out, the bytes written to each.  EINVAL when a buffer
 *	is given but smaller than DIV_ROUND_UP(nr_cpu_ids, 64) * 8 bytes: call
 *	once without buffers to learn nr_cpu_ids.
 * @possible_cpus: in, user pointer receiving the possible-CPU mask, or 0
 *	(either pointer may be 0 on its own).
 * @online_cpus: in, user pointer receiving the online-CPU mask, or 0.
 * @reserved: must be 0.
 */
struct cacheprobe_info {
	struct cacheprobe_ioc_head head;
	char module_version[CACHEPROBE_VERSION_LEN];
	__u32 abi_version;
	__u32 nr_cpu_ids;
	__u32 nr_possible_cpus;
	__u32 nr_online_cpus;
	__u32 tsc_khz;
	__u32 cache_line_size;
	__u64 features;
	__u32 max_cpus;
	__u32 mask_bytes;
	__u64 possible_cpus;
	__u64 online_cpus;
	__u64 reserved[4];
};

/**
 * struct cacheprobe_cpu_time - one CPU's result of a per-CPU operation
 * @cpu: the CPU id.
 * @reserved: 0.
 * @cycles: TSC ticks, as CACHEPROBE_RESULT_CYCLES.
 * @nsec: nanoseconds, as CACHEPROBE_RESULT_NSEC.
 */
struct cacheprobe_cpu_time {
	__u32 cpu;
	__u32 reserved;
	__u64 cycles;
	__u64 nsec;
};

/**
 * struct cacheprobe_flush - argument of CACHEPROBE_IOC_FLUSH
 * @head: see struct cacheprobe_ioc_head.
 * @method: in, enum cacheprobe_flush_method.
 * @cpus_bytes: in, length of the @cpus bitmap in bytes (a multiple of 8, at
 *	most CACHEPROBE_CPUMASK_MAX_BYTES); 0 with @cpus 0.
 * @cpus: in, user pointer to the cpumask of CPUs to flush; 0 flushes every
 *	online CPU.
 * @results: in, user pointer to an array of struct cacheprobe_cpu_time
 *	receiving one entry per flushed CPU, in increasing CPU order.
 * @results_cap: in, entries @results can hold.  EINVAL, before anything is
 *	flushed, when it is smaller than the number of CPUs to flush.  With
 *	@cpus 0 the online set may change after GET_INFO: size for nr_cpu_ids.
 * @nr_results: out, entries written.
 * @reserved: must be 0.
 *
 * Errors as CACHEPROBE_CMD_FLUSH.
 */
struct cacheprobe_flush {
	struct cacheprobe_ioc_head head;
	__u32 method;
	__u32 cpus_bytes;
	__u64 cpus;
	__u64 results;
	__u32 results_cap;
	__u32 nr_results;
	__u64 reserved[4];
};

#define CACHEPROBE_IOC_GET_INFO	_IOWR(CACHEPROBE_IOC_MAGIC, \
				      CACHEPROBE_CMD_GET_INFO, \
				      struct cacheprobe_info)
#define CACHEPROBE_IOC_FLUSH	_IOWR(CACHEPROBE_IOC_MAGIC, \
				      CACHEPROBE_CMD_FLUSH, \
				      struct cacheprobe_flush)

#endif /* _UAPI_LINUX_CACHEPROBE_H */
