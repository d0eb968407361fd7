/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libcacheprobe: cold caches for anyone's benchmark, checked on the machine
 * it runs on.
 *
 *	struct cacheprobe_ctx *ctx;
 *
 *	if (cacheprobe_open(NULL, &ctx))
 *		errx(1, "%s", cacheprobe_last_error());
 *	for (i = 0; i < runs; i++) {
 *		if (cacheprobe_evict(ctx))
 *			errx(1, "%s", cacheprobe_last_error());
 *		time_one_iteration();
 *	}
 *	cacheprobe_close(ctx);
 *
 * Link with `pkg-config --cflags --libs cacheprobe`; for the static
 * library, with -l:libcacheprobe.a and `pkg-config --static --libs
 * cacheprobe` (where both are installed, -lcacheprobe takes the shared
 * one).  Every function returning int returns 0 or a negative errno, and
 * NULL where a pointer is required is -EINVAL; the sentence behind a
 * failure is cacheprobe_last_error(), per thread, cleared by each call
 * that succeeds.  The library never exits, never prints and installs no
 * signal handler; the threads it starts block every signal, so signals
 * reach the program's own threads.
 *
 * Threads: a context may be used by one thread at a time; separate
 * contexts in separate threads are independent.
 *
 * fork(): a child inherits the context's memory but not its reader threads
 * nor its module connection.  In the child, every int-returning call on an
 * inherited context fails with -ECHILD, and cacheprobe_close() frees what
 * the child inherited without touching the parent's threads or
 * connection; open a new context in the child.
 *
 * The version of this interface is CACHEPROBE_API_VERSION; the shared
 * library's soname changes only when it does so incompatibly.
 */
#ifndef CACHEPROBE_H
#define CACHEPROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CACHEPROBE_API_VERSION 1

/**
 * enum cacheprobe_method - how cacheprobe_evict() empties the caches
 * @CACHEPROBE_METHOD_AUTO: WBINVD through the cacheprobe module when it is
 *	loaded, the caller has CAP_SYS_ADMIN and a check at open shows that
 *	WBINVD really evicts here; otherwise GARBAGE.
 *	cacheprobe_method_reason() says which, and why.
 * @CACHEPROBE_METHOD_WBINVD: write back and invalidate every cache of the
 *	chosen CPUs (the module's WBINVD; needs the module and CAP_SYS_ADMIN).
 * @CACHEPROBE_METHOD_WBNOINVD: write back without invalidating (WBNOINVD,
 *	where the CPU has it): dirty lines become clean, nothing is evicted.
 * @CACHEPROBE_METHOD_GARBAGE: read garbage planned from the cache
 *	topology: one pinned reader per private cache of each last-level
 *	domain of the chosen CPUs, all at once, together reading the garbage
 *	factor times each last-level cache.
 * @CACHEPROBE_METHOD_CLFLUSH: CLFLUSHOPT (else CLFLUSH) over the ranges
 *	given to cacheprobe_add_range(); the caches' other contents stay.
 */
enum cacheprobe_method {
	CACHEPROBE_METHOD_AUTO = 0,
	CACHEPROBE_METHOD_WBINVD = 1,
	CACHEPROBE_METHOD_WBNOINVD = 2,
	CACHEPROBE_METHOD_GARBAGE = 3,
	CACHEPROBE_METHOD_CLFLUSH = 4,
};

/* How many times each last-level cache GARBAGE reads by default. */
#define CACHEPROBE_DEFAULT_GARBAGE_FACTOR 4.0
#define CACHEPROBE_MAX_GARBAGE_FACTOR 64.0

/* Options for cacheprobe_open(); a NULL options pointer means defaults. */
struct cacheprobe_options;

/* An open context: the method, its CPUs, and what it set up at open. */
struct cacheprobe_ctx;

/**
 * cacheprobe_options_new() - options with every default: method AUTO, the
 * CPUs of the affinity mask of the thread that calls cacheprobe_open(),
 * the default garbage factor, the transport "auto".
 *
 * Return: the options, or NULL (-ENOMEM) with cacheprobe_last_error() set.
 */
struct cacheprobe_options *cacheprobe_options_new(void);
void cacheprobe_options_free(struct cacheprobe_options *options);

/* 0, or -EINVAL for a value outside the enum. */
int cacheprobe_options_set_method(struct cacheprobe_options *options,
				  enum cacheprobe_method method);

/*
 * The CPUs whose caches are evicted, as a list ("0-3,8,10-11").  0,
 * -EINVAL for a list that does not parse (CPUs that are not online are
 * refused at open, naming the CPU), or -ENOMEM.
 */
int cacheprobe_options_set_cpus(struct cacheprobe_options *options,
				const char *cpu_list);

/* GARBAGE reads @factor (above 0, at most CACHEPROBE_MAX_GARBAGE_FACTOR)
 * times each last-level cache.  0, or -EINVAL. */
int cacheprobe_options_set_garbage_factor(struct cacheprobe_options *options,
					  double factor);

/*
 * How WBINVD and WBNOINVD reach the module: "auto" (the default: the
 * generic netlink family, else /dev/cacheprobe), "netlink" or "ioctl".
 * 0, or -EINVAL for another name.
 */
int cacheprobe_options_set_transport(struct cacheprobe_options *options,
				     const char *transport);

/**
 * cacheprobe_open() - set up eviction as @options say (NULL: defaults)
 * @options: the method, CPUs and factor; the context keeps a copy
 * @out: the new context, for cacheprobe_close()
 *
 * For GARBAGE this allocates the garbage and starts the pinned readers, so
 * that no eviction allocates or creates a thread.  For AUTO it checks
 * WBINVD on a warmed buffer before choosing it.  Every method: it
 * calibrates the line timer cacheprobe_verify_range() uses, on the CPU
 * the calling thread is on (about 15 ms on the development machine),
 * before the garbage is mapped, as mapping that much can make the first
 * touch of pages mapped before it slow.
 *
 * Return: 0; -EINVAL (bad CPU), -ENOENT (WBINVD/WBNOINVD asked and the
 * module is not loaded, or not over the transport asked for), -EPERM or
 * -EACCES (no CAP_SYS_ADMIN, or no access to /dev/cacheprobe),
 * -EOPNOTSUPP (the CPU lacks the instruction), -ENOMEM, or another -errno.
 * On failure *@out is NULL.
 */
int cacheprobe_open(const struct cacheprobe_options *options,
		    struct cacheprobe_ctx **out);

/* Stop the readers, release the module and the memory.  NULL is a no-op. */
void cacheprobe_close(struct cacheprobe_ctx *ctx);

/*
 * Evict: the caches of the context's CPUs, by its method (for CLFLUSH: the
 * ranges added; -EINVAL when none was).  Returns when the eviction is
 * complete.  0 or -errno.
 */
int cacheprobe_evict(struct cacheprobe_ctx *ctx);

/*
 * Remember [@addr, @addr + @len) for CLFLUSH contexts' cacheprobe_evict().
 * The memory stays the caller's and must stay mapped while it is added.
 * 0, -EINVAL (empty range, or the context's method is not CLFLUSH) or
 * -ENOMEM.
 */
int cacheprobe_add_range(struct cacheprobe_ctx *ctx, const void *addr,
			 size_t len);

/*
 * Flush the lines of [@addr, @addr + @len) from every cache level, by any
 * context's method: CLFLUSHOPT, else CLFLUSH, then a fence.  The cheapest
 * cold for one data set.  0, -EINVAL (empty range) or -EOPNOTSUPP.
 */
int cacheprobe_evict_range(struct cacheprobe_ctx *ctx, const void *addr,
			   size_t len);

#define CACHEPROBE_MAX_LEVELS 8
#define CACHEPROBE_LEVEL_NAME_LEN 24

/**
 * struct cacheprobe_warmth - where a range's lines were served from
 * @lines_timed: lines timed (at most one per 4 KiB page for ranges of 64
 *	pages or more, so no hardware prefetch inflates the count)
 * @cached_ppm: parts per million of @lines_timed served from a cache level
 *	the timer tells apart from memory
 * @nr_levels: entries of @levels
 * @levels: innermost first, memory last; levels the timer cannot tell
 *	apart are one entry ("L3+memory": lines served by L3 then count as
 *	memory, so @cached_ppm cannot see them)
 * @levels.name: "L1d", "L2", "L3+memory", ...
 * @levels.ppm: parts per million of @lines_timed served there
 */
struct cacheprobe_warmth {
	uint32_t lines_timed;
	uint32_t cached_ppm;
	uint32_t nr_levels;
	struct cacheprobe_level_share {
		char name[CACHEPROBE_LEVEL_NAME_LEN];
		uint32_t ppm;
	} levels[CACHEPROBE_MAX_LEVELS];
};

/**
 * cacheprobe_verify_range() - how much of a range is still cached
 * @ctx: the context, whose line timer cacheprobe_open() calibrated
 * @addr: the range, only read; call from the thread (CPU) that uses it
 * @len: its bytes
 * @out: filled on success
 *
 * Times a sample of the range's lines one load at a time, in random order,
 * and classifies each by cache level; the calling thread stays on its
 * CPU meanwhile (its affinity is restored).  Reading is what is measured:
 * the lines timed are cached afterwards.  A line of a page the TLB no
 * longer maps pays the page walk too, and counts as memory when that
 * makes it as slow; steps far slower than the rest (interruptions) are
 * left out of @lines_timed.
 *
 * Return: 0; -EINVAL (empty range, or no whole cache line in it);
 * -EOPNOTSUPP when the timer cannot tell any cache level from memory here
 * (an emulator, for one) or the calibration at open failed, so no verdict
 * could be given; -EINTR when interruptions spoiled more than half of the
 * sample; -ECHILD (after fork()); or another -errno.
 */
int cacheprobe_verify_range(struct cacheprobe_ctx *ctx, const void *addr,
			    size_t len, struct cacheprobe_warmth *out);

/* The method the context uses: for AUTO, the one it chose.  This and the
 * two below cannot fail; on a context inherited through fork() they
 * describe the parent's. */
enum cacheprobe_method cacheprobe_method(const struct cacheprobe_ctx *ctx);

/* Why that method: one sentence, valid until cacheprobe_close(). */
const char *cacheprobe_method_reason(const struct cacheprobe_ctx *ctx);

/* Bytes one cacheprobe_evict() reads as garbage (0 for other methods). */
uint64_t cacheprobe_garbage_bytes(const struct cacheprobe_ctx *ctx);

/* "auto", "wbinvd", "wbnoinvd", "garbage", "clflush"; NULL if unknown. */
const char *cacheprobe_method_name(enum cacheprobe_method method);

/* The reverse: 0, or -EINVAL for an unknown name. */
int cacheprobe_method_from_name(const char *name,
				enum cacheprobe_method *method);

/*
 * The sentence behind the calling thread's last failure ("" if none),
 * valid until its next call into the library.
 */
const char *cacheprobe_last_error(void);

/* The library's version, "0.1.0". */
const char *cacheprobe_version(void);

#ifdef __cplusplus
}
#endif

#endif
