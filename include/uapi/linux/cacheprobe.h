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
 * Only root can open the device, so users other than root reach GET_INFO
 * (open to every user) over netlink; an ioctl GET_INFO needs a file
 * descriptor that root opened.
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
 *   EINTR      (ioctl) a signal arrived while waiting for another
 *              operation to end (operations run one at a time; the
 *              message then says "while waiting for another operation"),
 *              or a signal ended a measurement (every kernel thread
 *              stopped, nothing kept).
 *   ECANCELED  (netlink) the same: netlink sends no ack for a
 *              request that fails with EINTR, so the module reports
 *              ECANCELED there, with the message "interrupted by a
 *              signal".
 *   ENOMEM     the module could not allocate what the request needs.
 *   ENODEV     (netlink) a measurement command arrived while the module
 *              is being unloaded.  A running measurement holds a module
 *              reference on either transport, so rmmod refuses (EAGAIN)
 *              rather than waits while one runs.
 *
 * The measurement commands (CHASE, ACCESS, PINGPONG, BOUNCE, XFER; ABI 2)
 * share more rules, described before enum cacheprobe_cmd ("Measurement
 * commands").
 */
#ifndef _UAPI_LINUX_CACHEPROBE_H
#define _UAPI_LINUX_CACHEPROBE_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define CACHEPROBE_GENL_NAME		"cacheprobe"
#define CACHEPROBE_GENL_VERSION		1
#define CACHEPROBE_DEVICE_NAME		"cacheprobe"

/*
 * Reported by CACHEPROBE_CMD_GET_INFO; raised when the ABI gains anything.
 * 1: GET_INFO, FLUSH.  2: CHASE, ACCESS, PINGPONG, BOUNCE, XFER and the
 * limits GET_INFO reports for them.  3: XFER's DELAY (CACHEPROBE_ATTR_DELAY,
 * struct cacheprobe_xfer.delay) and CACHEPROBE_MAX_DELAY.  4: CHASE's
 * PAGES, CHASES and SEED (struct cacheprobe_chase.pages, .chases, .seed),
 * its reply's PAGE_BYTES (struct cacheprobe_run.page_bytes),
 * CACHEPROBE_MAX_CHASES and GET_INFO's MAX_CHASES
 * (struct cacheprobe_info.max_chases); every measurement reply's
 * MISSED_ROUNDS and DISTURBED (struct cacheprobe_run.missed_rounds,
 * .disturbed).  5: ACCESS runs the tool's loops (include/measure/access.h):
 * LOAD_LATENCY follows a random cycle drawn from ACCESS's SEED (struct
 * cacheprobe_access.seed), OPS is done in whole loop steps and the reply
 * says how many, the throughput variants need four slots.  6: CHASE's
 * PREPARE WARM.
 */
#define CACHEPROBE_ABI_VERSION		6

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

/*
 * Limits of the measurement commands (ABI 2), fixed by the ABI.  The limits
 * that a module parameter sets are reported by GET_INFO instead.
 *
 * CACHEPROBE_RUN_MAX_CPUS: most CPUs one request may name (BOUNCE).
 * CACHEPROBE_MAX_SAMPLES: most samples one request may ask for, so that
 *	one series of u64 values fits a netlink attribute (whose length is
 *	16 bits) with room to spare.
 * CACHEPROBE_MAX_VALUES: most sample values one reply carries: samples
 *	times the number of timed CPUs (series); 64 KiB of u64.
 * CACHEPROBE_MAX_OPS: most operations (hops, accesses, round trips,
 *	increments) one sample may ask for.
 * CACHEPROBE_MAX_DELAY: (ABI 3) most dependent instructions XFER's
 *	consumer may run after each load (CACHEPROBE_ATTR_DELAY).
 * CACHEPROBE_MAX_CHASES: (ABI 4) most independent chases one CHASE
 *	request may follow at once (CACHEPROBE_ATTR_CHASES).
 */
#define CACHEPROBE_RUN_MAX_CPUS		64
#define CACHEPROBE_MAX_SAMPLES		4096
#define CACHEPROBE_MAX_VALUES		8192
#define CACHEPROBE_MAX_OPS		(1U << 24)
#define CACHEPROBE_MAX_DELAY		4096
#define CACHEPROBE_MAX_CHASES		16

/*
 * Measurement commands (ABI 2): CHASE, ACCESS, PINGPONG, BOUNCE, XFER.
 *
 * Each needs CAP_SYS_ADMIN.  The module runs the measurement on kernel
 * threads bound to the requested CPUs and started together.  Work is cut
 * into windows, one sample per window; in a window the thread's CPU has
 * preemption and interrupts off, and the CPUs of a multi-CPU command enter
 * it together.  No window lasts longer than the module parameter
 * max_irqoff_us (GET_INFO: MAX_IRQOFF_NS); between windows the threads
 * reschedule.  A sample that cannot finish inside one window is tried
 * again in a fresh window, a few times (8), then the request fails with
 * EOVERFLOW: ask for fewer operations per sample.  The work of a window
 * stops at 7/8 of the bound, the clock being read at least every 64
 * operations and at every wait; only what the module cannot see (SMIs,
 * NMIs, a hypervisor or emulator running something else) can stretch a
 * window beyond it, and WINDOW_MAX_* report the length measured.  (ABI 4)
 * A sample that overran a window more than twice the bound long was
 * disturbed that way: it is taken again without counting as one of the
 * tries, up to 64 times per sample (DISTURBED counts them).
 *
 * (ABI 4) Before each sample of a multi-CPU command the leading thread
 * (the first CPU) offers a round that the others join from their own
 * windows.  A round not every thread joins in time (a busy or
 * descheduled CPU) is missed and offered again, the wait for the next
 * one growing up to half a window and shrinking again once rounds are
 * joined; MISSED_ROUNDS counts them.  A thread that runs (joins rounds,
 * waits for them, offers them, waits for reports) is answering: ETIMEDOUT
 * comes when one has shown no sign of life for partner_timeout_ms (it
 * stopped running), or when rounds have kept missing for ten times that.
 *
 * Common request attributes: CPU_LIST (the CPUs, in the command's role
 * order), SAMPLES (1 or more; SAMPLES times the number of series at most
 * CACHEPROBE_MAX_VALUES).  Optional attributes are absent or 0 for their
 * default.  Buffers are the module's own (vmalloc, 4 KiB pages unless
 * CHASE's PAGES asks for 2 MiB ones, zeroed), allocated for the request
 * and freed before the reply.
 *
 * Common reply ("the run attributes"): OPS (operations each sample value
 * covers: divide a value by it for the cost of one), SAMPLES,
 * WINDOW_MAX_CYCLES and WINDOW_MAX_NSEC (the longest interrupt-off window
 * any of the threads used, in TSC ticks and nanoseconds), WINDOWS (windows
 * used, retries included), RETRIES (samples run again because they
 * overran a window), (ABI 4) MISSED_ROUNDS and DISTURBED (see above), and
 * one SERIES per timed CPU: SERIES_CPU and
 * SERIES_VALUES, SAMPLES u64 values of TSC ticks, in sample order.
 * SERIES_CPU is the CPU the request gave that role; every thread checks
 * at the start of each window that it runs on its CPU, and the request
 * fails with EIO if it does not, so no value comes from another CPU.
 *
 * Common errors of the measurement commands:
 *   EINVAL     a missing required attribute, a CPU id that is not possible
 *              or not online, a CPU listed twice where the command needs
 *              distinct CPUs, the wrong number of CPUs, a zero or
 *              out-of-range count, size, width or offset, an unknown
 *              variant, order or preparation.
 *   E2BIG      a buffer larger than the module parameter max_buffer_mb
 *              (GET_INFO: MAX_BUFFER_BYTES), a chain of more than 2^32 - 1
 *              slots, or SAMPLES times the number of series above
 *              CACHEPROBE_MAX_VALUES.
 *   ENOMEM     the buffer or the result arrays could not be allocated.
 *   ETIMEDOUT  a partner CPU's thread did not answer within the module
 *              parameter partner_timeout_ms (GET_INFO:
 *              PARTNER_TIMEOUT_MS), the message saying "the thread on
 *              CPU N did not answer"; or (ABI 4) it answered but joined
 *              too few rounds for ten times that, "CPU N joined X of Y
 *              rounds (busy or descheduled)".  Every thread was stopped.
 *   EOVERFLOW  a sample did not fit in a max_irqoff_us window.
 *   EINTR      a signal reached the caller (a fatal one, or one it has a
 *              handler for): the measurement stopped within about one
 *              window, every thread stopped, nothing kept.  ECANCELED
 *              over netlink (see above).
 *   EIO        a thread found itself on another CPU than the one the
 *              request gave it (see SERIES_CPU); the measurement stopped,
 *              nothing kept.  Threads are bound with CPU hotplug held off,
 *              so only the module's fault-injection test build, which can
 *              bind a thread elsewhere on purpose, is expected to show it.
 * Messages name the offending attribute (netlink) or field (ioctl).
 */

/**
 * enum cacheprobe_cmd - operations (netlink commands and ioctl numbers)
 * @CACHEPROBE_CMD_UNSPEC: never valid.
 * @CACHEPROBE_CMD_GET_INFO: describe the module and the machine.  Open to
 *	every user (over netlink: the device is root's, mode 0600).
 *	Request: no attributes.  Reply: MODULE_VERSION,
 *	ABI_VERSION, NR_CPU_IDS, NR_POSSIBLE_CPUS, NR_ONLINE_CPUS,
 *	POSSIBLE_CPUS, ONLINE_CPUS, TSC_KHZ, FEATURES, CACHE_LINE_SIZE,
 *	MAX_CPUS; since ABI 2 also MAX_IRQOFF_NS, MAX_BUFFER_BYTES,
 *	PARTNER_TIMEOUT_MS, MAX_VALUES, RUN_MAX_CPUS; since ABI 4 also
 *	MAX_CHASES.
 *	ioctl: CACHEPROBE_IOC_GET_INFO.
 * @CACHEPROBE_CMD_FLUSH: write back and invalidate the caches of a set of
 *	CPUs (WBINVD), or write back without invalidating (WBNOINVD), and time
 *	the instruction on each CPU.  Needs CAP_SYS_ADMIN.  Request:
 *	FLUSH_METHOD (required), CPUS (optional; absent means every online
 *	CPU).  Reply: one message holding one FLUSH_RESULT per flushed CPU,
 *	in increasing CPU order (about 48 bytes per CPU: receive with a
 *	buffer sized for NR_CPU_IDS CPUs, or peek at the length first).
 *	Errors: EINVAL for a missing or unknown method, an empty set, a CPU
 *	id that is not below NR_CPU_IDS or not online; EOPNOTSUPP for
 *	WBNOINVD on a CPU without it (no CPU is flushed then).
 *	ioctl: CACHEPROBE_IOC_FLUSH.
 * @CACHEPROBE_CMD_CHASE: (ABI 2) on one CPU, dependent pointer chases over
 *	a module-owned buffer.  Request: CPU_LIST (1 CPU), SAMPLES, SIZE
 *	(buffer bytes), OPS (loads per sample, over all chases); optional
 *	STRIDE (bytes between chased slots: a multiple of 8, at least 8, at
 *	most SIZE; default the cache line size), ORDER (enum
 *	cacheprobe_order, default RANDOM), PREPARE (enum cacheprobe_prepare,
 *	what to do before every sample, default NONE); since ABI 4 PAGES
 *	(enum cacheprobe_pages, default 4K), CHASES (independent chases
 *	followed at once, 1 to CACHEPROBE_MAX_CHASES, default 1) and SEED
 *	(of the random order; absent: the module draws one).  The n = SIZE /
 *	STRIDE slots are put in one order: increasing addresses
 *	(SEQUENTIAL) or a random permutation drawn from SEED (RANDOM); the
 *	order is cut into CHASES cycles, cycle k linking positions k * n /
 *	CHASES up to (k + 1) * n / CHASES - 1 of it in turn and back to the
 *	first, where its chase starts.  So one chase (the default) visits
 *	every slot once per lap, and with SEQUENTIAL and several chases each
 *	chase walks its own contiguous part of the buffer.  The chases are
 *	followed in turn, one load each: the loads of a chase depend on each
 *	other, those of different chases do not.  OPS must be a multiple of
 *	CHASES (each chase does OPS / CHASES loads per sample), and CHASES at
 *	most n.  Every sample goes on where the previous one stopped.
 *	Every sample starts after a wait of 0 to 127 empty iterations
 *	drawn from SEED, outside the timed part, so that samples of one
 *	load do not lock onto a TSC that advances in steps longer than
 *	the loads (include/measure/dither.h).  Modules of ABI 6 built
 *	before this wait did not wait; nothing a caller sends or reads
 *	differs, so the ABI version does not say which.
 *	(ABI 6) PREPARE WARM walks the chases before the first sample (see
 *	enum cacheprobe_prepare), and the samples go on where that walk
 *	stopped.
 *	Reply: the run attributes (see "Measurement commands"), one SERIES
 *	for the CPU, and (ABI 4) PAGE_BYTES; a value is the TSC ticks of OPS
 *	loads.  Errors: EINVAL for an unknown PAGES, CHASES 17 or more or
 *	above n / 2 (each chase needs two slots), OPS not a multiple of
 *	CHASES (the message names OPS and CHASES); E2BIG for more than
 *	U32_MAX slots; EOPNOTSUPP for PREPARE CLFLUSH without CLFLUSH.  A module of
 *	ABI 3 or older refuses PAGES, CHASES and SEED (EINVAL, an unknown
 *	attribute; over ioctl, reserved fields not zero) and sends no
 *	PAGE_BYTES.  ioctl: CACHEPROBE_IOC_CHASE.
 * @CACHEPROBE_CMD_ACCESS: (ABI 2) on one CPU, loads or stores of WIDTH
 *	bytes at OFFSET bytes from a cache-line boundary, repeated over a
 *	buffer.  Request: CPU_LIST (1 CPU), SAMPLES, SIZE, OPS (accesses per
 *	sample), WIDTH (bytes per access: a power of two, 1, 2, 4, 8, 16,
 *	32 or 64; each access is one load or one store instruction of that
 *	width, and any other width is EINVAL), VARIANT (enum
 *	cacheprobe_access_variant: loads as latency or throughput, stores
 *	as throughput only); optional OFFSET (bytes from the start of
 *	each slot, below 4096; default 0), STRIDE (bytes between slots, at
 *	least WIDTH; default OFFSET + WIDTH rounded up to the line size),
 *	(ABI 5) SEED.  Slot k starts at k * STRIDE from the page-aligned
 *	buffer.  The loops are the tool's own (include/measure/access.h),
 *	so both modes run the same instructions.  Since ABI 5, LOAD_LATENCY
 *	visits the slots in one random cycle drawn from SEED as CHASE's
 *	random order is (SIZE must hold one slot; below 8 bytes the cycle's
 *	next addresses repeat to a multiple of 16, so a lap may visit some
 *	slots twice), and the throughput
 *	variants walk the slots in address order, over and over, in groups
 *	of four (SIZE must hold four slots; the slots beyond the last whole
 *	group are not used).  OPS is rounded up to whole loop steps, 16
 *	accesses for LOAD_LATENCY and 4 for the others; the reply's OPS is
 *	the count done.  (ABI 2 to 4: the slots in address order for every
 *	variant, exactly OPS accesses, one slot enough.)  16-byte accesses use SSE,
 *	32-byte AVX, 64-byte AVX-512F, inside kernel_fpu_begin()/end() taken
 *	around the interrupt-off window.  Every slot is read once before the
 *	first sample.  Reply: the run attributes, one SERIES; a value is the
 *	TSC ticks of OPS accesses.  Errors: EOPNOTSUPP for a width the CPU or
 *	kernel cannot do (CACHEPROBE_FEAT_AVX, CACHEPROBE_FEAT_AVX512F);
 *	(ABI 5) E2BIG for more than U32_MAX slots, or when LOAD_LATENCY's
 *	bookkeeping besides the buffer (4 bytes a slot, 12 below 8 bytes)
 *	exceeds max_buffer_mb.
 *	ioctl: CACHEPROBE_IOC_ACCESS.
 * @CACHEPROBE_CMD_PINGPONG: (ABI 2) two CPUs bounce one cache line.
 *	Request: CPU_LIST (2 distinct CPUs: initiator, responder), SAMPLES,
 *	OPS (round trips per sample), VARIANT (enum
 *	cacheprobe_pingpong_variant).  Reply: the run attributes, one SERIES
 *	for the initiator; a value is the TSC ticks of OPS round trips.
 *	ioctl: CACHEPROBE_IOC_PINGPONG.
 * @CACHEPROBE_CMD_BOUNCE: (ABI 2) 2 to CACHEPROBE_RUN_MAX_CPUS CPUs each
 *	increment their own counter, the counters DISTANCE bytes apart (0:
 *	one shared counter), all CPUs starting together.  Request: CPU_LIST
 *	(distinct CPUs), SAMPLES, OPS (increments per CPU and sample), VARIANT
 *	(enum cacheprobe_bounce_variant), WIDTH (counter bytes, 4 or 8),
 *	DISTANCE (a multiple of WIDTH, at most 65536; required: 0 has a
 *	meaning).  Reply: the run attributes, one SERIES per CPU, in
 *	CPU_LIST order; a value is that CPU's TSC ticks for OPS increments.
 *	ioctl: CACHEPROBE_IOC_BOUNCE.
 * @CACHEPROBE_CMD_XFER: (ABI 2) cache-to-cache transfer.  Per sample the
 *	producer reads (VARIANT READ: lines end Shared/Exclusive) or
 *	reads and modifies (MODIFY: lines end Modified) every line of a
 *	block, then the consumer walks the block as a dependent chain (one
 *	pointer per line, ORDER) and times the walk; before each sample the
 *	consumer CLFLUSHes the block.  Request: CPU_LIST (2 CPUs: producer,
 *	consumer; the same CPU twice gives the same-core baseline, run by one
 *	thread), SAMPLES, SIZE (block bytes, a multiple of the line size),
 *	VARIANT (enum cacheprobe_xfer_variant); optional ORDER (default
 *	RANDOM), DELAY (ABI 3; default 0: dependent adds after each load of
 *	the walk, see CACHEPROBE_ATTR_DELAY).  Reply: the run attributes
 *	with OPS the number of lines, one SERIES for the consumer; a value
 *	is the TSC ticks of its walk over OPS lines, the delays included.
 *	Errors: EINVAL for DELAY above CACHEPROBE_MAX_DELAY; EOPNOTSUPP
 *	without CLFLUSH.  A module of ABI 2 refuses DELAY (EINVAL, an
 *	unknown attribute; over ioctl, reserved fields not zero).
 *	ioctl: CACHEPROBE_IOC_XFER.
 * @__CACHEPROBE_CMD_MAX: one past the last command.
 * @CACHEPROBE_CMD_MAX: the last command.
 */
enum cacheprobe_cmd {
	CACHEPROBE_CMD_UNSPEC,
	CACHEPROBE_CMD_GET_INFO,
	CACHEPROBE_CMD_FLUSH,
	CACHEPROBE_CMD_CHASE,
	CACHEPROBE_CMD_ACCESS,
	CACHEPROBE_CMD_PINGPONG,
	CACHEPROBE_CMD_BOUNCE,
	CACHEPROBE_CMD_XFER,

	__CACHEPROBE_CMD_MAX,
	CACHEPROBE_CMD_MAX = __CACHEPROBE_CMD_MAX - 1
};

/**
 * enum cacheprobe_attr - top-level netlink attributes
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
 * @CACHEPROBE_ATTR_MAX_IRQOFF_NS: (ABI 2) GET_INFO reply, u64: the longest
 *	interrupt-off window a measurement may use (module parameter
 *	max_irqoff_us, in ns).
 * @CACHEPROBE_ATTR_MAX_BUFFER_BYTES: (ABI 2) GET_INFO reply, u64: the
 *	largest buffer a measurement may ask for (max_buffer_mb, in bytes).
 * @CACHEPROBE_ATTR_PARTNER_TIMEOUT_MS: (ABI 2) GET_INFO reply, u32: how long
 *	a thread waits for a partner before the request fails with ETIMEDOUT.
 * @CACHEPROBE_ATTR_MAX_VALUES: (ABI 2) GET_INFO reply, u32:
 *	CACHEPROBE_MAX_VALUES.
 * @CACHEPROBE_ATTR_RUN_MAX_CPUS: (ABI 2) GET_INFO reply, u32:
 *	CACHEPROBE_RUN_MAX_CPUS.
 * @CACHEPROBE_ATTR_CPU_LIST: (ABI 2) request, binary: u32 CPU ids in native
 *	byte order, in the order the command gives them roles; 1 to
 *	CACHEPROBE_RUN_MAX_CPUS of them.
 * @CACHEPROBE_ATTR_SAMPLES: (ABI 2) request and reply, u32: samples, 1 to
 *	CACHEPROBE_MAX_SAMPLES (E2BIG beyond), and samples times series at
 *	most CACHEPROBE_MAX_VALUES (E2BIG).
 * @CACHEPROBE_ATTR_OPS: (ABI 2) request and reply, u32: operations per
 *	sample, 1 to CACHEPROBE_MAX_OPS (XFER: reply only, lines per walk).
 * @CACHEPROBE_ATTR_SIZE: (ABI 2) request, u64: buffer or block bytes.
 * @CACHEPROBE_ATTR_STRIDE: (ABI 2) request, u32: bytes between slots.
 * @CACHEPROBE_ATTR_ORDER: (ABI 2) request, u32: enum cacheprobe_order.
 * @CACHEPROBE_ATTR_PREPARE: (ABI 2) request, u32: enum cacheprobe_prepare.
 * @CACHEPROBE_ATTR_VARIANT: (ABI 2) request, u32: the command's variant
 *	enum (cacheprobe_access_variant, cacheprobe_pingpong_variant,
 *	cacheprobe_bounce_variant, cacheprobe_xfer_variant).
 * @CACHEPROBE_ATTR_WIDTH: (ABI 2) request, u32: access or counter bytes.
 * @CACHEPROBE_ATTR_OFFSET: (ABI 2) request, u32: bytes from a line start.
 * @CACHEPROBE_ATTR_DISTANCE: (ABI 2) request, u32: bytes between counters.
 * @CACHEPROBE_ATTR_WINDOW_MAX_CYCLES: (ABI 2) reply, u64: the longest
 *	interrupt-off window the request used, TSC ticks.
 * @CACHEPROBE_ATTR_WINDOW_MAX_NSEC: (ABI 2) reply, u64: the same in ns (0
 *	when TSC_KHZ is 0).
 * @CACHEPROBE_ATTR_WINDOWS: (ABI 2) reply, u64: interrupt-off windows used
 *	by the thread that leads the run.
 * @CACHEPROBE_ATTR_RETRIES: (ABI 2) reply, u32: samples run again after
 *	overrunning a window.
 * @CACHEPROBE_ATTR_SERIES: (ABI 2) reply, nested, once per timed CPU:
 *	attributes from enum cacheprobe_series_attr.
 * @CACHEPROBE_ATTR_DELAY: (ABI 3) XFER request, u32: dependent
 *	single-cycle instructions (register adds of a zero on the loaded
 *	pointer, so the next load's address waits for them) the consumer
 *	runs after each load of its walk; 0 (the default) for none, at most
 *	CACHEPROBE_MAX_DELAY (EINVAL, naming DELAY, beyond).
 * @CACHEPROBE_ATTR_PAGES: (ABI 4) CHASE request, u32: enum
 *	cacheprobe_pages, the pages that should map the buffer; 0 (the
 *	default) for CACHEPROBE_PAGES_4K.  Other values are EINVAL, naming
 *	PAGES.
 * @CACHEPROBE_ATTR_PAGE_BYTES: (ABI 4) CHASE reply, u64: the smallest page
 *	size that maps the buffer, read from the kernel's page tables once it
 *	is allocated: 4096, or 2097152 when 2 MiB pages map all of it.  A
 *	CACHEPROBE_PAGES_2M request the kernel served with small pages
 *	replies 4096.
 * @CACHEPROBE_ATTR_CHASES: (ABI 4) CHASE request, u32: independent chases
 *	followed at once, 1 to CACHEPROBE_MAX_CHASES and at most half the
 *	number of slots (two slots a chase); 0 (the default) for 1.  EINVAL,
 *	naming CHASES, otherwise.
 * @CACHEPROBE_ATTR_SEED: (ABI 4) CHASE request, u64: the seed of the
 *	random order (ORDER RANDOM; SEQUENTIAL ignores it).  The order is the
 *	identity 0 .. n - 1 shuffled with Sattolo's algorithm (positions n - 1
 *	down to 1, each swapped with a position below it drawn uniformly by
 *	Lemire's multiply-and-shift with rejection) from SplitMix64 seeded
 *	with SEED, as the project's include/measure/rng.h and chase.h do it:
 *	a chain built in user mode from the same seed, SIZE, STRIDE and
 *	CHASES is the same chain.  Any value, 0 included, is a seed; absent,
 *	the module draws one (the ioctl cannot ask for seed 0, see struct
 *	cacheprobe_chase).  (ABI 5) ACCESS request: the seed of
 *	LOAD_LATENCY's cycle, drawn the same way (the other variants ignore
 *	it); a cycle built in user mode from the same seed, SIZE, STRIDE,
 *	OFFSET and WIDTH is the same cycle.  A module of ABI 4 or older
 *	refuses it with ACCESS (EINVAL, an unknown attribute).
 * @CACHEPROBE_ATTR_MAX_CHASES: (ABI 4) GET_INFO reply, u32:
 *	CACHEPROBE_MAX_CHASES.
 * @CACHEPROBE_ATTR_MISSED_ROUNDS: (ABI 4) reply of every measurement
 *	command, u32: rounds the leading thread offered that not every
 *	partner joined in time (a partner busy with another task, or a
 *	virtual CPU its host did not run), each offered again; 0 for a
 *	one-CPU command.  Saturates at 0xffffffff.  A module of ABI 3 or
 *	older does not send it.
 * @CACHEPROBE_ATTR_DISTURBED: (ABI 4) reply of every measurement command,
 *	u32: samples taken again because a window overran after lasting
 *	more than twice max_irqoff_us (interrupts off, so the CPU was taken
 *	away by something the module cannot see: a hypervisor, an SMI).
 *	Not counted in RETRIES.  A module of ABI 3 or older does not send
 *	it.
 * @__CACHEPROBE_ATTR_MAX: one past the last attribute.
 * @CACHEPROBE_ATTR_MAX: the last attribute.
 *
 * "Reply" attributes are rejected (EINVAL) when a request carries them.
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
	CACHEPROBE_ATTR_MAX_IRQOFF_NS,
	CACHEPROBE_ATTR_MAX_BUFFER_BYTES,
	CACHEPROBE_ATTR_PARTNER_TIMEOUT_MS,
	CACHEPROBE_ATTR_MAX_VALUES,
	CACHEPROBE_ATTR_RUN_MAX_CPUS,
	CACHEPROBE_ATTR_CPU_LIST,
	CACHEPROBE_ATTR_SAMPLES,
	CACHEPROBE_ATTR_OPS,
	CACHEPROBE_ATTR_SIZE,
	CACHEPROBE_ATTR_STRIDE,
	CACHEPROBE_ATTR_ORDER,
	CACHEPROBE_ATTR_PREPARE,
	CACHEPROBE_ATTR_VARIANT,
	CACHEPROBE_ATTR_WIDTH,
	CACHEPROBE_ATTR_OFFSET,
	CACHEPROBE_ATTR_DISTANCE,
	CACHEPROBE_ATTR_WINDOW_MAX_CYCLES,
	CACHEPROBE_ATTR_WINDOW_MAX_NSEC,
	CACHEPROBE_ATTR_WINDOWS,
	CACHEPROBE_ATTR_RETRIES,
	CACHEPROBE_ATTR_SERIES,
	CACHEPROBE_ATTR_DELAY,
	CACHEPROBE_ATTR_PAGES,
	CACHEPROBE_ATTR_PAGE_BYTES,
	CACHEPROBE_ATTR_CHASES,
	CACHEPROBE_ATTR_SEED,
	CACHEPROBE_ATTR_MAX_CHASES,
	CACHEPROBE_ATTR_MISSED_ROUNDS,
	CACHEPROBE_ATTR_DISTURBED,

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
 * enum cacheprobe_series_attr - attributes nested in a CACHEPROBE_ATTR_SERIES
 * @CACHEPROBE_SERIES_UNSPEC: never valid.
 * @CACHEPROBE_SERIES_CPU: u32, the CPU whose times these are.
 * @CACHEPROBE_SERIES_VALUES: binary, SAMPLES u64 values in native byte
 *	order: TSC ticks of each sample's OPS operations, in sample order.
 * @__CACHEPROBE_SERIES_MAX: one past the last attribute.
 * @CACHEPROBE_SERIES_MAX: the last attribute.
 */
enum cacheprobe_series_attr {
	CACHEPROBE_SERIES_UNSPEC,
	CACHEPROBE_SERIES_CPU,
	CACHEPROBE_SERIES_VALUES,

	__CACHEPROBE_SERIES_MAX,
	CACHEPROBE_SERIES_MAX = __CACHEPROBE_SERIES_MAX - 1
};

/**
 * enum cacheprobe_order - the order a chain visits its slots (0: RANDOM)
 * @CACHEPROBE_ORDER_SEQUENTIAL: increasing addresses, wrapping around.
 * @CACHEPROBE_ORDER_RANDOM: one random cycle through every slot, so
 *	hardware prefetchers cannot guess the next address.
 */
enum cacheprobe_order {
	CACHEPROBE_ORDER_SEQUENTIAL = 1,
	CACHEPROBE_ORDER_RANDOM = 2,
};

/**
 * enum cacheprobe_prepare - what CHASE does before each sample (0: NONE)
 * @CACHEPROBE_PREPARE_NONE: nothing: the buffer stays as warm as the
 *	previous sample left it.
 * @CACHEPROBE_PREPARE_WBINVD: WBINVD on the measuring CPU, interrupts on,
 *	just before the sample's window.
 * @CACHEPROBE_PREPARE_CLFLUSH: CLFLUSH every line of the buffer, then
 *	MFENCE, just before the sample's window.
 * @CACHEPROBE_PREPARE_WARM: (ABI 6) before the first sample only, on the
 *	measuring CPU with interrupts on, follow every chase for
 *	CP_CHASE_WARM_LAPS (4) times as many rounds as the longest cycle
 *	has slots (DIV_ROUND_UP(n, CHASES)): four laps of each cycle, a
 *	shorter one going a few steps further; then nothing, as NONE.  So
 *	the samples find the buffer as repeated use leaves it in the caches:
 *	a non-inclusive last level may not keep lines written only once, as
 *	building the chain writes them.  The walk costs 4 * n dependent
 *	loads (about a second over 256 MiB of 64-byte slots in memory); a
 *	signal ends it as it ends a measurement.  A module of ABI 5 or older
 *	refuses it (EINVAL, unknown preparation).
 */
enum cacheprobe_prepare {
	CACHEPROBE_PREPARE_NONE = 1,
	CACHEPROBE_PREPARE_WBINVD = 2,
	CACHEPROBE_PREPARE_CLFLUSH = 3,
	CACHEPROBE_PREPARE_WARM = 4,
};

/**
 * enum cacheprobe_pages - the pages that map CHASE's buffer (ABI 4; 0: 4K)
 * @CACHEPROBE_PAGES_4K: 4 KiB pages (__vmalloc()), what every buffer got
 *	before ABI 4: a TLB entry per 4 KiB, so a large working set adds page
 *	walks to its loads.
 * @CACHEPROBE_PAGES_2M: 2 MiB pages where the kernel gives them
 *	(vmalloc_huge()): for a buffer of 2 MiB or more, rounded up to whole
 *	2 MiB pages, when free physically contiguous 2 MiB blocks exist and
 *	huge vmalloc is not turned off (nohugevmalloc).  Otherwise the kernel
 *	falls back to 4 KiB pages without failing: CACHEPROBE_ATTR_PAGE_BYTES
 *	says which pages the buffer got.
 */
enum cacheprobe_pages {
	CACHEPROBE_PAGES_4K = 1,
	CACHEPROBE_PAGES_2M = 2,
};

/**
 * enum cacheprobe_access_variant - what ACCESS does
 * @CACHEPROBE_ACCESS_LOAD_LATENCY: loads, each address depending on the
 *	previous load's value: latency.  From 8 bytes up each slot holds the
 *	address of the next at OFFSET (for 16 to 64 bytes it reaches a
 *	general register through a MOVQ from the vector register, which the
 *	time includes); 1 to 4 bytes load a zero that is added to the next
 *	slot's address, read from a table off the dependent path.  (ABI 2 to
 *	4: every width added the loaded zero to the next address.)
 * @CACHEPROBE_ACCESS_LOAD_THROUGHPUT: independent loads: throughput.
 * @CACHEPROBE_ACCESS_STORE_THROUGHPUT: independent stores of zeros.
 *	Stores are measured as throughput only: there is no store-latency
 *	variant.
 */
enum cacheprobe_access_variant {
	CACHEPROBE_ACCESS_LOAD_LATENCY = 1,
	CACHEPROBE_ACCESS_LOAD_THROUGHPUT = 2,
	CACHEPROBE_ACCESS_STORE_THROUGHPUT = 3,
};

/**
 * enum cacheprobe_pingpong_variant - how PINGPONG passes the line
 * @CACHEPROBE_PINGPONG_CAS: each side waits for its turn with LOCK CMPXCHG
 *	on the line (a failed CAS also pulls the line over).
 * @CACHEPROBE_PINGPONG_FLAG: each side spins reading the line until it
 *	sees its turn, then stores the next value.
 */
enum cacheprobe_pingpong_variant {
	CACHEPROBE_PINGPONG_CAS = 1,
	CACHEPROBE_PINGPONG_FLAG = 2,
};

/**
 * enum cacheprobe_bounce_variant - how BOUNCE increments
 * @CACHEPROBE_BOUNCE_PLAIN: INC on memory, no LOCK (a shared counter
 *	loses increments; that is not measured).
 * @CACHEPROBE_BOUNCE_ATOMIC: LOCK INC.
 */
enum cacheprobe_bounce_variant {
	CACHEPROBE_BOUNCE_PLAIN = 1,
	CACHEPROBE_BOUNCE_ATOMIC = 2,
};

/**
 * enum cacheprobe_xfer_variant - what the XFER producer does to the block
 * @CACHEPROBE_XFER_READ: reads every line.
 * @CACHEPROBE_XFER_MODIFY: reads and writes back every line (ADD $0).
 */
enum cacheprobe_xfer_variant {
	CACHEPROBE_XFER_READ = 1,
	CACHEPROBE_XFER_MODIFY = 2,
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
/* (ABI 2) ACCESS can do 32-byte accesses (AVX, YMM state enabled). */
#define CACHEPROBE_FEAT_AVX		(1ULL << 7)
/* (ABI 2) ACCESS can do 64-byte accesses (AVX-512F, ZMM state enabled). */
#define CACHEPROBE_FEAT_AVX512F		(1ULL << 8)

/* ioctl interface */

#define CACHEPROBE_IOC_MAGIC		0xCE

/**
 * struct cacheprobe_ioc_head - first member of every ioctl argument
 * @msg: in, user pointer to a buffer that receives a NUL-terminated message
 *	explaining the error when the ioctl fails with EINVAL, EOPNOTSUPP or
 *	EPERM, with EINTR (FLUSH and the measurement ioctls), and with E2BIG,
 *	ENOMEM, ETIMEDOUT, EOVERFLOW and EIO (the measurement ioctls); 0 for
 *	no message.  Untouched on success and on EFAULT or ENOTTY.  An
 *	ENOMEM before the request is decoded may come without a message.
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
 * @max_irqoff_ns: out (ABI 2), as CACHEPROBE_ATTR_MAX_IRQOFF_NS; ignored on
 *	input.  Was reserved[0] in ABI 1, which wrote 0 there.
 * @max_buffer_bytes: out (ABI 2), as CACHEPROBE_ATTR_MAX_BUFFER_BYTES;
 *	ignored on input (was reserved[1]).
 * @partner_timeout_ms: out (ABI 2), as CACHEPROBE_ATTR_PARTNER_TIMEOUT_MS;
 *	ignored on input (was half of reserved[2]).
 * @max_values: out (ABI 2), CACHEPROBE_MAX_VALUES; ignored on input.
 * @max_chases: out (ABI 4), as CACHEPROBE_ATTR_MAX_CHASES; ignored on input
 *	(was the first half of the __u64 reserved, which an older module
 *	leaves 0).
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
	__u64 max_irqoff_ns;
	__u64 max_buffer_bytes;
	__u32 partner_timeout_ms;
	__u32 max_values;
	__u32 max_chases;
	__u32 reserved;
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

/**
 * struct cacheprobe_run - the part every measurement ioctl shares (ABI 2)
 * @cpus: in, user pointer to @nr_cpus __u32 CPU ids (CPU_LIST); EINVAL
 *	when 0, EFAULT when unreadable.
 * @nr_cpus: in, their number, 1 to CACHEPROBE_RUN_MAX_CPUS (EINVAL).
 * @samples: in, as CACHEPROBE_ATTR_SAMPLES.
 * @values: in, user pointer to a __u64 array receiving the samples:
 *	@nr_series series of @samples values each, series after series, in
 *	the order of the netlink SERIES (see each command).
 * @values_cap: in, entries @values can hold; EINVAL, before anything runs,
 *	when 0 (or @values is 0) or smaller than @samples times the number of
 *	series.
 * @nr_values: out, entries written.
 * @ops: out, as the reply's CACHEPROBE_ATTR_OPS.
 * @window_max_cycles: out, as CACHEPROBE_ATTR_WINDOW_MAX_CYCLES.
 * @window_max_nsec: out, as CACHEPROBE_ATTR_WINDOW_MAX_NSEC.
 * @windows: out, as CACHEPROBE_ATTR_WINDOWS.
 * @retries: out, as CACHEPROBE_ATTR_RETRIES.
 * @nr_series: out, series written (timed CPUs).
 * @page_bytes: out (ABI 4), as CACHEPROBE_ATTR_PAGE_BYTES (CHASE); 0 from
 *	the other commands and from an older module.  Ignored on input; it
 *	was reserved[0], which a module of ABI 3 or older wants 0: clear it
 *	before reusing a struct with such a module.
 * @missed_rounds: out (ABI 4), as CACHEPROBE_ATTR_MISSED_ROUNDS.  Ignored
 *	on input; it and @disturbed were reserved[1] (later reserved), which
 *	a module of ABI 3 or older wants 0 and leaves 0: clear both before
 *	reusing a struct with such a module.
 * @disturbed: out (ABI 4), as CACHEPROBE_ATTR_DISTURBED.  Ignored on
 *	input.
 *
 * Output fields are ignored on input, so a struct may be reused.  Unlike
 * netlink's SERIES_CPU, the ioctl reports no CPU per series: series i is
 * the CPU each command names for it, from @cpus; the module checks that
 * the values were measured there (EIO otherwise, see "Measurement
 * commands").
 */
struct cacheprobe_run {
	__u64 cpus;
	__u32 nr_cpus;
	__u32 samples;
	__u64 values;
	__u32 values_cap;
	__u32 nr_values;
	__u64 ops;
	__u64 window_max_cycles;
	__u64 window_max_nsec;
	__u64 windows;
	__u32 retries;
	__u32 nr_series;
	__u64 page_bytes;
	__u32 missed_rounds;
	__u32 disturbed;
};

/**
 * struct cacheprobe_chase - argument of CACHEPROBE_IOC_CHASE (ABI 2)
 * @head: see struct cacheprobe_ioc_head.
 * @run: see struct cacheprobe_run; one CPU, one series; @run.page_bytes
 *	receives CACHEPROBE_ATTR_PAGE_BYTES (ABI 4).
 * @size: in, as CACHEPROBE_ATTR_SIZE.
 * @stride: in, as CACHEPROBE_ATTR_STRIDE; 0 for the default.
 * @order: in, enum cacheprobe_order; 0 for the default.
 * @hops: in, loads per sample over all chases (CACHEPROBE_ATTR_OPS).
 * @prepare: in, enum cacheprobe_prepare; 0 for the default.
 * @pages: in (ABI 4), enum cacheprobe_pages; 0 for the default (4K).
 * @chases: in (ABI 4), as CACHEPROBE_ATTR_CHASES; 0 for the default (1).
 * @seed: in (ABI 4), as CACHEPROBE_ATTR_SEED, except that 0 means no seed:
 *	the module draws one, as for an absent SEED.  So the ioctl cannot
 *	ask for seed 0; netlink can.
 *
 * @pages, @chases and @seed were reserved[2] in ABI 2 and 3, whose module
 * refuses them unless 0; zeros give those ABIs' chase: 4 KiB pages, one
 * chase, a seed the module draws.
 *
 * Errors as CACHEPROBE_CMD_CHASE.
 */
struct cacheprobe_chase {
	struct cacheprobe_ioc_head head;
	struct cacheprobe_run run;
	__u64 size;
	__u32 stride;
	__u32 order;
	__u32 hops;
	__u32 prepare;
	__u32 pages;
	__u32 chases;
	__u64 seed;
};

/**
 * struct cacheprobe_access - argument of CACHEPROBE_IOC_ACCESS (ABI 2)
 * @head: see struct cacheprobe_ioc_head.
 * @run: see struct cacheprobe_run; one CPU, one series.
 * @size: in, as CACHEPROBE_ATTR_SIZE.
 * @stride: in, as CACHEPROBE_ATTR_STRIDE; 0 for the default.
 * @width: in, as CACHEPROBE_ATTR_WIDTH.
 * @offset: in, as CACHEPROBE_ATTR_OFFSET.
 * @variant: in, enum cacheprobe_access_variant.
 * @accesses: in, accesses per sample (CACHEPROBE_ATTR_OPS).
 * @reserved0: must be 0.
 * @seed: in (ABI 5), as CACHEPROBE_ATTR_SEED, except that 0 means no seed:
 *	the module draws one, as for an absent SEED.
 * @reserved: must be 0.
 *
 * @reserved0, @seed and @reserved were reserved[5] in ABI 2 to 4, whose
 * module refuses them unless 0.
 *
 * Errors as CACHEPROBE_CMD_ACCESS.
 */
struct cacheprobe_access {
	struct cacheprobe_ioc_head head;
	struct cacheprobe_run run;
	__u64 size;
	__u32 stride;
	__u32 width;
	__u32 offset;
	__u32 variant;
	__u32 accesses;
	__u32 reserved0;
	__u64 seed;
	__u32 reserved[2];
};

/**
 * struct cacheprobe_pingpong - argument of CACHEPROBE_IOC_PINGPONG (ABI 2)
 * @head: see struct cacheprobe_ioc_head.
 * @run: see struct cacheprobe_run; two CPUs, one series (the initiator).
 * @variant: in, enum cacheprobe_pingpong_variant.
 * @round_trips: in, round trips per sample (CACHEPROBE_ATTR_OPS).
 * @reserved: must be 0.
 *
 * Errors as CACHEPROBE_CMD_PINGPONG.
 */
struct cacheprobe_pingpong {
	struct cacheprobe_ioc_head head;
	struct cacheprobe_run run;
	__u32 variant;
	__u32 round_trips;
	__u64 reserved[2];
};

/**
 * struct cacheprobe_bounce - argument of CACHEPROBE_IOC_BOUNCE (ABI 2)
 * @head: see struct cacheprobe_ioc_head.
 * @run: see struct cacheprobe_run; one series per CPU, in @run.cpus order.
 * @variant: in, enum cacheprobe_bounce_variant.
 * @width: in, counter bytes (4 or 8).
 * @distance: in, bytes between counters (0: one shared counter).
 * @increments: in, increments per CPU and sample (CACHEPROBE_ATTR_OPS).
 * @reserved: must be 0.
 *
 * Errors as CACHEPROBE_CMD_BOUNCE.
 */
struct cacheprobe_bounce {
	struct cacheprobe_ioc_head head;
	struct cacheprobe_run run;
	__u32 variant;
	__u32 width;
	__u32 distance;
	__u32 increments;
	__u64 reserved[2];
};

/**
 * struct cacheprobe_xfer - argument of CACHEPROBE_IOC_XFER (ABI 2)
 * @head: see struct cacheprobe_ioc_head.
 * @run: see struct cacheprobe_run; two CPUs (producer, consumer), one
 *	series (the consumer).
 * @size: in, block bytes.
 * @variant: in, enum cacheprobe_xfer_variant.
 * @order: in, enum cacheprobe_order; 0 for the default.
 * @delay: in (ABI 3), as CACHEPROBE_ATTR_DELAY: dependent adds after each
 *	load, 0 to CACHEPROBE_MAX_DELAY.  Was the first half of reserved[0]
 *	in ABI 2, whose module refuses a non-zero value (reserved fields
 *	must be zero).
 * @reserved: must be 0.
 *
 * Errors as CACHEPROBE_CMD_XFER.
 */
struct cacheprobe_xfer {
	struct cacheprobe_ioc_head head;
	struct cacheprobe_run run;
	__u64 size;
	__u32 variant;
	__u32 order;
	__u32 delay;
	__u32 reserved[3];
};

#define CACHEPROBE_IOC_GET_INFO	_IOWR(CACHEPROBE_IOC_MAGIC, \
				      CACHEPROBE_CMD_GET_INFO, \
				      struct cacheprobe_info)
#define CACHEPROBE_IOC_FLUSH	_IOWR(CACHEPROBE_IOC_MAGIC, \
				      CACHEPROBE_CMD_FLUSH, \
				      struct cacheprobe_flush)
#define CACHEPROBE_IOC_CHASE	_IOWR(CACHEPROBE_IOC_MAGIC, \
				      CACHEPROBE_CMD_CHASE, \
				      struct cacheprobe_chase)
#define CACHEPROBE_IOC_ACCESS	_IOWR(CACHEPROBE_IOC_MAGIC, \
				      CACHEPROBE_CMD_ACCESS, \
				      struct cacheprobe_access)
#define CACHEPROBE_IOC_PINGPONG	_IOWR(CACHEPROBE_IOC_MAGIC, \
				      CACHEPROBE_CMD_PINGPONG, \
				      struct cacheprobe_pingpong)
#define CACHEPROBE_IOC_BOUNCE	_IOWR(CACHEPROBE_IOC_MAGIC, \
				      CACHEPROBE_CMD_BOUNCE, \
				      struct cacheprobe_bounce)
#define CACHEPROBE_IOC_XFER	_IOWR(CACHEPROBE_IOC_MAGIC, \
				      CACHEPROBE_CMD_XFER, \
				      struct cacheprobe_xfer)

#endif /* _UAPI_LINUX_CACHEPROBE_H */
