// SPDX-License-Identifier: GPL-2.0
/*
 * iocfuzz: random ioctls on /dev/cacheprobe inside a test guest, then a
 * check that the module still answers GET_INFO correctly.
 *
 *   iocfuzz [--count N] [--seed S] [--as root|nobody|both] [--dump I]
 *
 * --count: ioctl calls per identity (default 100000).  --as both (the
 * default) fuzzes as root, then in a forked child that opens the device as
 * root and drops to uid/gid 65534 without groups (as rawtest unpriv does:
 * the device is mode 0600).  --seed reproduces a run; --dump I prints call
 * I's number, argument and struct before making it.
 *
 * Numbers: the real GET_INFO and FLUSH numbers with random struct contents
 * (most calls), CHASE (ABI 4) with contents in its layout (pages, chases,
 * seed and the output page_bytes among them), the header's other real
 * numbers (ABI 2 measurement commands) with contents made without knowing
 * their layout, the real
 * numbers with a wrong direction or size, random
 * direction/size/nr with magic CACHEPROBE_IOC_MAGIC and its neighbours, a
 * few generic ioctls the VFS handles, and random numbers.  Pointers (the
 * argument and every pointer inside the structs): valid buffers, NULL,
 * misaligned, ending just before a PROT_NONE page, read-only, unmapped,
 * kernel addresses, non-canonical and random.  Sizes: msg_len, mask_bytes,
 * cpus_bytes and results_cap around and far past their limits.
 *
 * Failures (exit 1), besides the module not answering afterwards: a return
 * value other than 0 or -1, a kernel-internal errno, ENOTTY not returned for
 * a number the module cannot know, a privileged call succeeding for nobody,
 * a success whose output breaks the ABI (wrong counts, CPU order, an
 * unterminated version), and a write outside what the ABI allows: past
 * min(msg_len, CACHEPROBE_MSG_MAX) of the message buffer or into it on
 * success, past mask_bytes of a mask, past results_cap entries of the
 * results, into the CPU set, or past the struct.  Buffers are surrounded by
 * canary bytes to see that.
 */
#include <fcntl.h>
#include <linux/cacheprobe.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <termios.h>

#include "common.h"

#define PAGE 4096
#define CANARY 0xa5
#define CANARY_SPAN 256		/* bytes checked past an allowed region */
#define FAIL_REPORTS 20

/* One page per role, so that what the kernel writes can be attributed. */
enum slot {
	SLOT_ARG,
	SLOT_MSG,
	SLOT_MASK_A,
	SLOT_MASK_B,
	SLOT_RESULTS,
	SLOT_CPUS,
	NR_SLOTS
};

/*
 * The arena: NR_SLOTS pages, a tail page whose end meets a PROT_NONE guard
 * page, a read-only page and an unmapped hole.
 */
struct arena {
	unsigned char *base;
	unsigned char *tail_end;	/* first byte of the guard page */
	unsigned char *ro;
	uintptr_t hole;
};

/* Where a pointer went: a slot (with offset) or anywhere else. */
struct ptr {
	uint64_t addr;
	int slot;	/* enum slot, or -1 */
	size_t off;
};

struct ioc_stats {
	unsigned long calls, ok, failures;
	unsigned long ok_info, ok_flush, ok_chase;
	struct errno_hist err;
};

struct iocf {
	int dev;
	bool unpriv;
	const char *who;
	uint64_t seed;
	struct rng rng;
	long index, dump;
	unsigned int nr_cpu_ids, online;
	struct arena ar;
	struct ioc_stats st;
	/* This call: pointers per role, the struct as sent. */
	struct ptr p[NR_SLOTS];
	unsigned long cmd;
	union {
		struct cacheprobe_info info;
		struct cacheprobe_flush flush;
#if CACHEPROBE_ABI_VERSION >= 4
		struct cacheprobe_chase chase;
#endif
		unsigned char raw[512];
	} in;
	/* The argument's slot as placed, for numbers nothing may write to. */
	unsigned char arg_copy[64 + 512 + CANARY_SPAN];
	size_t arg_copy_len;
	unsigned char cpus_copy[2 * CACHEPROBE_CPUMASK_MAX_BYTES];
	size_t cpus_copy_len;
};

static void fuzz_fail(struct iocf *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fuzz_fail(struct iocf *f, const char *fmt, ...)
{
	va_list ap;

	if (++f->st.failures > FAIL_REPORTS)
		return;
	printf("FUZZ-FAIL iocfuzz[%s] call %ld, ioctl %#lx (--seed %#" PRIx64
	       " --as %s --count %ld --dump %ld): ", f->who, f->index, f->cmd,
	       f->seed, f->who, f->index + 1, f->index);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int arena_init(struct arena *ar)
{
	const size_t pages = NR_SLOTS + 4;
	unsigned char *m = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	ar->base = m;
	ar->tail_end = m + (NR_SLOTS + 1) * PAGE;
	ar->ro = m + (NR_SLOTS + 2) * PAGE;
	ar->hole = (uintptr_t)(m + (NR_SLOTS + 3) * PAGE);
	if (mprotect(ar->tail_end, PAGE, PROT_NONE) ||
	    mprotect(ar->ro, PAGE, PROT_READ) ||
	    munmap((void *)ar->hole, PAGE))
		return -1;
	return 0;
}

static unsigned char *slot_base(const struct iocf *f, int slot)
{
	return f->ar.base + (size_t)slot * PAGE;
}

/* Addresses no user pointer may reach: direct map, text, vmalloc,
 * vmemmap, vsyscall, the top page, non-canonical holes. */
static const uint64_t kernel_addrs[] = {
	0xffff888000000000ULL, 0xffffffff81000000ULL, 0xffffc90000000000ULL,
	0xffffea0000000000ULL, 0xffffffffff600000ULL, 0xfffffffffffff000ULL,
	0xffffffffffffffffULL, 0x8000000000000000ULL, 0x0000800000000000ULL,
	0x00007ffffffff000ULL, 0xffff800000000000ULL,
};

/* A pointer for @slot's role that needs @need bytes. */
static struct ptr pick_ptr(struct iocf *f, int slot, size_t need)
{
	struct rng *r = &f->rng;
	struct ptr p = { .slot = -1 };
	uint32_t k = rng_below(r, 100);

	if (k < 60) {
		p.slot = slot;
		p.off = 8 * rng_below(r, 8);
	} else if (k < 65) {
		p.slot = slot;
		p.off = 1 + rng_below(r, 7);
	} else if (k < 73) {
		p.addr = 0;
	} else if (k < 79) {	/* straddles the guard page */
		need = need && need < PAGE ? need : PAGE;
		p.addr = (uintptr_t)(f->ar.tail_end - 1 -
				     rng_below(r, (uint32_t)need));
	} else if (k < 81) {
		p.addr = (uintptr_t)f->ar.tail_end;
	} else if (k < 84) {
		p.addr = (uintptr_t)f->ar.ro + 8 * rng_below(r, 8);
	} else if (k < 87) {
		p.addr = f->ar.hole + rng_below(r, PAGE);
	} else if (k < 94) {
		p.addr = RNG_PICK(r, kernel_addrs) + rng_below(r, 2) * 8;
	} else if (k < 97) {
		p.addr = 1 + rng_below(r, 0x10000);
	} else {
		p.addr = rng_next(r);
	}
	if (p.slot >= 0)
		p.addr = (uintptr_t)(slot_base(f, slot) + p.off);
	f->p[slot] = p;
	return p;
}

static const uint32_t sizes[] = {
	0, 1, 2, 4, 7, 8, 8, 8, 12, 16, 16, 24, 32, 255, 256, 257,
	CACHEPROBE_CPUMASK_MAX_BYTES - 8, CACHEPROBE_CPUMASK_MAX_BYTES,
	CACHEPROBE_CPUMASK_MAX_BYTES + 8, 4096, 0x7fffffff, 0xfffffff8,
	0xffffffff,
};

static uint32_t pick_size(struct rng *r)
{
	return rng_pct(r, 85) ? RNG_PICK(r, sizes) : (uint32_t)rng_next(r);
}

/*
 * Reserved fields: zero (the rule) or, now and then, one byte set (must be
 * refused).  Taken as bytes so that a header turning an array into a
 * scalar or shrinking it needs no change here.
 */
static void gen_reserved(struct rng *r, void *p, size_t len)
{
	memset(p, 0, len);
	if (rng_pct(r, 5))
		((unsigned char *)p)[rng_below(r, (uint32_t)len)] =
			(unsigned char)(1 + rng_below(r, 255));
}

/* Mostly zero (the rule), sometimes anything (must be refused). */
static uint64_t mostly_zero(struct rng *r, unsigned int percent_nonzero)
{
	if (!rng_pct(r, percent_nonzero))
		return 0;
	return rng_pct(r, 50) ? 1ULL << rng_below(r, 64) : rng_next(r);
}

static void gen_head(struct iocf *f, struct cacheprobe_ioc_head *h)
{
	struct rng *r = &f->rng;

	h->msg_len = rng_pct(r, 60) ? CACHEPROBE_MSG_MAX : pick_size(r);
	h->msg = rng_pct(r, 15) ? 0 : pick_ptr(f, SLOT_MSG, h->msg_len).addr;
	h->flags = (uint32_t)mostly_zero(r, 5);
}

static void gen_info(struct iocf *f, struct cacheprobe_info *in)
{
	struct rng *r = &f->rng;

	if (rng_pct(r, 10))	/* outputs carry garbage in: ignored */
		rng_fill(r, in, sizeof(*in));
	gen_head(f, &in->head);
	in->mask_bytes = rng_pct(r, 50) ? 8 * rng_below(r, 3) : pick_size(r);
	in->possible_cpus = rng_pct(r, 50) ? 0 :
			    pick_ptr(f, SLOT_MASK_A, in->mask_bytes).addr;
	in->online_cpus = rng_pct(r, 50) ? 0 :
			  pick_ptr(f, SLOT_MASK_B, in->mask_bytes).addr;
	gen_reserved(r, &in->reserved, sizeof(in->reserved));
}

/* The CPU set's bytes in the cpus slot: often CPUs 0..3 (valid). */
static void gen_cpus_content(struct iocf *f, uint32_t bytes)
{
	unsigned char *p = slot_base(f, SLOT_CPUS) + f->p[SLOT_CPUS].off;
	size_t len = bytes < PAGE - f->p[SLOT_CPUS].off ?
		     bytes : PAGE - f->p[SLOT_CPUS].off;
	uint32_t bit;

	memset(p, 0, len);
	switch (rng_below(&f->rng, 4)) {
	case 0:
	case 1:
		if (len)
			p[0] = (unsigned char)rng_below(&f->rng, 16);
		break;
	case 2:
		bit = len ? rng_below(&f->rng, (uint32_t)len * 8) : 0;
		if (len)
			p[bit / 8] |= (unsigned char)(1u << (bit % 8));
		break;
	default:
		rng_fill(&f->rng, p, len);
	}
	f->cpus_copy_len = len < sizeof(f->cpus_copy) ? len : sizeof(f->cpus_copy);
	memcpy(f->cpus_copy, p, f->cpus_copy_len);
}

static void gen_flush(struct iocf *f, struct cacheprobe_flush *in)
{
	static const uint32_t methods[] = {
		0, CACHEPROBE_FLUSH_WBINVD, CACHEPROBE_FLUSH_WBINVD,
		CACHEPROBE_FLUSH_WBINVD, CACHEPROBE_FLUSH_WBNOINVD, 3,
		0xffffffff,
	};
	static const uint32_t caps[] = {
		0, 1, 2, 3, 4, 4, 4, 8, 64, 8192, 0x7fffffff, 0xffffffff,
	};
	struct rng *r = &f->rng;

	gen_head(f, &in->head);
	in->method = RNG_PICK(r, methods);
	in->cpus_bytes = rng_pct(r, 50) ? 0 : pick_size(r);
	in->cpus = rng_pct(r, 50) ? 0 :
		   pick_ptr(f, SLOT_CPUS, in->cpus_bytes).addr;
	if (in->cpus && in->cpus_bytes == 0 && rng_pct(r, 70))
		in->cpus_bytes = 8 * (1 + rng_below(r, 2));
	if (f->p[SLOT_CPUS].slot >= 0)
		gen_cpus_content(f, in->cpus_bytes);
	in->results_cap = rng_pct(r, 85) ? RNG_PICK(r, caps) : (uint32_t)rng_next(r);
	in->results = pick_ptr(f, SLOT_RESULTS,
			       in->results_cap * sizeof(struct cacheprobe_cpu_time)).addr;
	in->nr_results = (uint32_t)mostly_zero(r, 4);
	gen_reserved(r, &in->reserved, sizeof(in->reserved));
}

/* ---- ioctl numbers ---- */

static const unsigned long vfs_numbers[] = {
	FIONBIO, FIOCLEX, FIONCLEX, FIOASYNC, FIONREAD, FIOQSIZE, FIGETBSZ,
	TCGETS,
};

/* Magic bytes: ours and its neighbours, which no one else uses. */
static unsigned int pick_magic(struct rng *r)
{
	static const unsigned int magics[] = {
		CACHEPROBE_IOC_MAGIC, CACHEPROBE_IOC_MAGIC,
		CACHEPROBE_IOC_MAGIC - 1, CACHEPROBE_IOC_MAGIC + 1,
	};

	return RNG_PICK(r, magics);
}

static unsigned long random_number(struct rng *r)
{
	static const unsigned int ioc_sizes[] = {
		0, 8, 16, sizeof(struct cacheprobe_info),
		sizeof(struct cacheprobe_flush),
		sizeof(struct cacheprobe_info) + 8,
		sizeof(struct cacheprobe_flush) - 8, 0x3fff,
	};
	unsigned int size = rng_pct(r, 70) ? RNG_PICK(r, ioc_sizes) :
			    rng_below(r, 1u << _IOC_SIZEBITS);

	return _IOC(rng_below(r, 4), pick_magic(r),
		    rng_below(r, CACHEPROBE_CMD_MAX + 9), size);
}

/* A real number with its direction or size changed (ENOTTY per the ABI). */
static unsigned long mutate_number(struct rng *r, unsigned long real)
{
	unsigned int dir = _IOC_DIR(real), size = _IOC_SIZE(real);

	if (rng_pct(r, 50))
		dir = (dir + 1 + rng_below(r, 3)) % 4;
	else
		size = (size + 8 * (1 + rng_below(r, 4))) & ((1u << _IOC_SIZEBITS) - 1);
	return _IOC(dir, _IOC_TYPE(real), _IOC_NR(real), size);
}

/*
 * A fully random number, except magic bytes the VFS acts on for any file
 * ('X' holds FIFREEZE, which would freeze devtmpfs under us; 'f', 'T',
 * 0x94 and 0 hold other generic ones).
 */
static unsigned long wild_number(struct rng *r)
{
	unsigned long n = (uint32_t)rng_next(r);
	unsigned int type = _IOC_TYPE(n);

	if (type == 'X' || type == 'f' || type == 'T' || type == 0x94 ||
	    type == 0)
		n ^= (unsigned long)0x80 << _IOC_TYPESHIFT;
	return n;
}

/*
 * Real numbers of commands this file has no struct for (the measurement
 * commands of ABI 2, when the header has them), fuzzed with contents made
 * without knowing the layout.  The trailing 0 keeps the array non-empty.
 */
static const unsigned long other_numbers[] = {
#ifdef CACHEPROBE_IOC_CHASE
	CACHEPROBE_IOC_CHASE,
#endif
#ifdef CACHEPROBE_IOC_ACCESS
	CACHEPROBE_IOC_ACCESS,
#endif
#ifdef CACHEPROBE_IOC_PINGPONG
	CACHEPROBE_IOC_PINGPONG,
#endif
#ifdef CACHEPROBE_IOC_BOUNCE
	CACHEPROBE_IOC_BOUNCE,
#endif
#ifdef CACHEPROBE_IOC_XFER
	CACHEPROBE_IOC_XFER,
#endif
	0
};
#define NR_OTHER_NUMBERS (sizeof(other_numbers) / sizeof(other_numbers[0]) - 1)

/*
 * A struct of unknown layout: the ioctl head, then 8-byte words that are
 * mostly zero (reserved fields must be), small counts, or pointers to CPU
 * ids 0..3 or to scratch memory, so that validation gets past the first
 * field now and then.
 */
static void gen_agnostic(struct iocf *f, size_t size)
{
	static const uint32_t cpu_ids[] = { 0, 1, 2, 3 };
	struct rng *r = &f->rng;
	uint64_t w;

	gen_head(f, &f->in.info.head);
	for (size_t off = sizeof(struct cacheprobe_ioc_head); off + 8 <= size;
	     off += 8) {
		uint32_t k = rng_below(r, 100);

		if (k < 45)
			w = 0;
		else if (k < 70)
			w = rng_pct(r, 50) ? 1 + rng_below(r, 4) : pick_size(r);
		else if (k < 80)
			w = pick_ptr(f, SLOT_CPUS, sizeof(cpu_ids)).addr;
		else if (k < 92)
			w = pick_ptr(f, SLOT_RESULTS, PAGE).addr;
		else
			w = rng_next(r);
		memcpy(f->in.raw + off, &w, sizeof(w));
	}
	if (f->p[SLOT_CPUS].slot >= 0) {	/* restored after the canaries */
		memcpy(f->cpus_copy, cpu_ids, sizeof(cpu_ids));
		f->cpus_copy_len = sizeof(cpu_ids);
	}
}

#if CACHEPROBE_ABI_VERSION >= 4
/*
 * CHASE in its real layout (ABI 4): the CPU ids, values and message in
 * their slots, small valid values mostly, so that runs happen and the
 * new fields (pages, chases, seed; run.page_bytes as an output that
 * carries garbage in) meet the module's checks, with the odd bad one.
 */
static void gen_chase(struct iocf *f, struct cacheprobe_chase *in)
{
	static const uint32_t cpu_ids[] = { 0, 1, 2, 3 };
	static const uint32_t pages[] = {
		0, 0, CACHEPROBE_PAGES_4K, CACHEPROBE_PAGES_2M, 3, 0xffffffff,
	};
	struct rng *r = &f->rng;
	struct cacheprobe_run *run = &in->run;
	uint32_t chases;

	gen_head(f, &in->head);
	run->cpus = pick_ptr(f, SLOT_CPUS, sizeof(cpu_ids)).addr;
	if (f->p[SLOT_CPUS].slot >= 0) {	/* restored after the canaries */
		memcpy(f->cpus_copy, cpu_ids, sizeof(cpu_ids));
		f->cpus_copy_len = sizeof(cpu_ids);
	}
	run->nr_cpus = rng_pct(r, 90) ? 1 : rng_below(r, 3);
	run->samples = rng_pct(r, 90) ? 1 + rng_below(r, 3) : pick_size(r);
	run->values_cap = rng_pct(r, 85) ? 4 : pick_size(r);
	run->values = pick_ptr(f, SLOT_RESULTS, run->values_cap * 8).addr;
	run->page_bytes = rng_pct(r, 10) ? rng_next(r) : 0;	/* output */
	/* Outputs too, since ABI 4 (they were the last reserved field). */
	run->missed_rounds = rng_pct(r, 10) ? (uint32_t)rng_next(r) : 0;
	run->disturbed = rng_pct(r, 10) ? (uint32_t)rng_next(r) : 0;
	in->pages = RNG_PICK(r, pages);
	in->size = in->pages == CACHEPROBE_PAGES_2M && rng_pct(r, 30) ?
		   (4ULL << 20) : rng_pct(r, 93) ?
		   4096ULL << rng_below(r, 5) : rng_next(r);
	in->stride = rng_pct(r, 70) ? 0 : 8u << rng_below(r, 8);
	in->order = rng_below(r, 4);
	in->prepare = rng_pct(r, 80) ? 0 : rng_below(r, 5);
	chases = rng_pct(r, 90) ? rng_below(r, CACHEPROBE_MAX_CHASES + 2)
			       : (uint32_t)rng_next(r);
	in->chases = chases;
	in->hops = (chases ? chases : 1) * (1 + rng_below(r, 16));
	if (rng_pct(r, 10))	/* not a multiple of the chases */
		in->hops += 1;
	in->seed = rng_pct(r, 30) ? 0 : rng_next(r);
}

static void check_chase_out(struct iocf *f, const struct cacheprobe_chase *o)
{
	const struct cacheprobe_chase *in = &f->in.chase;

	f->st.ok_chase++;
	if (o->run.nr_series != 1 || o->run.nr_values != in->run.samples ||
	    o->run.ops != in->hops)
		fuzz_fail(f, "CHASE: %u series, %u values, ops %llu for %u samples of %u loads",
			  o->run.nr_series, o->run.nr_values,
			  (unsigned long long)o->run.ops, in->run.samples,
			  in->hops);
	if (in->chases > CACHEPROBE_MAX_CHASES ||
	    (in->chases && in->hops % in->chases) ||
	    (in->pages && in->pages != CACHEPROBE_PAGES_4K &&
	     in->pages != CACHEPROBE_PAGES_2M))
		fuzz_fail(f, "CHASE succeeded with pages %u, chases %u, hops %u",
			  in->pages, in->chases, in->hops);
	if (o->run.page_bytes != 4096 && o->run.page_bytes != (2u << 20))
		fuzz_fail(f, "CHASE: page_bytes %llu",
			  (unsigned long long)o->run.page_bytes);
	if (o->run.page_bytes != 4096 && in->pages != CACHEPROBE_PAGES_2M)
		fuzz_fail(f, "CHASE: page_bytes %llu without 2 MiB pages asked",
			  (unsigned long long)o->run.page_bytes);
	/* One CPU: no partner, no round to miss; garbage in is not echoed. */
	if (o->run.missed_rounds)
		fuzz_fail(f, "CHASE: %u missed rounds on one CPU",
			  o->run.missed_rounds);
}
#endif

/* Random struct bytes go with numbers the module does not take: a real
 * number drawn by chance becomes another size. */
static unsigned long not_real(unsigned long n)
{
	if (n == CACHEPROBE_IOC_GET_INFO || n == CACHEPROBE_IOC_FLUSH)
		n ^= 8UL << _IOC_SIZESHIFT;
	return n;
}

/* Fills f->in and returns the ioctl number. */
static unsigned long gen_call(struct iocf *f)
{
	struct rng *r = &f->rng;
	uint32_t k = rng_below(r, 100);

	memset(&f->in, 0, sizeof(f->in));
	if (k < 45) {
		gen_info(f, &f->in.info);
		return CACHEPROBE_IOC_GET_INFO;
	}
	if (k < 78) {
		gen_flush(f, &f->in.flush);
		return CACHEPROBE_IOC_FLUSH;
	}
#if CACHEPROBE_ABI_VERSION >= 4
	if (k < 80) {
		gen_chase(f, &f->in.chase);
		return CACHEPROBE_IOC_CHASE;
	}
#endif
	if (k < 84 && NR_OTHER_NUMBERS) {
		unsigned long n = other_numbers[rng_below(r, NR_OTHER_NUMBERS)];

		gen_agnostic(f, _IOC_SIZE(n) < sizeof(f->in.raw) ?
				_IOC_SIZE(n) : sizeof(f->in.raw));
		return n;
	}
	rng_fill(r, f->in.raw, sizeof(f->in.raw));
	if (k < 88)
		return mutate_number(r, rng_pct(r, 50) ? CACHEPROBE_IOC_GET_INFO
						       : CACHEPROBE_IOC_FLUSH);
	if (k < 96)
		return not_real(random_number(r));
	if (k < 98)
		return RNG_PICK(r, vfs_numbers);
	return not_real(wild_number(r));
}

/* ---- canaries: what the kernel may write where ---- */

static size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* Fills every slot a pointer went into with canary bytes. */
static void canary_fill(struct iocf *f)
{
	for (int s = 0; s < NR_SLOTS; s++)
		if (f->p[s].slot >= 0)
			memset(slot_base(f, s), CANARY,
			       min_sz(PAGE, f->p[s].off + 2048 + CANARY_SPAN));
}

/* Bytes [from, from + CANARY_SPAN) of the slot (within the page) must
 * still be canary; from == 0 means "nothing may be written". */
static void canary_check(struct iocf *f, int s, size_t allowed,
			 const char *what)
{
	const unsigned char *b = slot_base(f, s);
	size_t from, to;

	if (f->p[s].slot < 0 || allowed > PAGE)
		return;
	from = f->p[s].off + allowed;
	to = min_sz(PAGE, from + CANARY_SPAN);
	for (size_t i = from; i < to; i++) {
		if (b[i] != CANARY) {
			fuzz_fail(f, "%s: byte %zu past the %zu allowed was written",
				  what, i - from, allowed);
			return;
		}
	}
}

/* Copies the struct to where the argument points, as far as it can. */
static void place_arg(struct iocf *f, const struct ptr *arg, size_t size)
{
	unsigned char *dst;

	f->arg_copy_len = 0;
	if (arg->slot >= 0) {
		dst = slot_base(f, SLOT_ARG) + arg->off;
		memcpy(dst, f->in.raw, size);
		f->arg_copy_len = arg->off + size + CANARY_SPAN;
		memcpy(f->arg_copy, slot_base(f, SLOT_ARG), f->arg_copy_len);
	} else if (arg->addr < (uintptr_t)f->ar.tail_end &&
		   arg->addr >= (uintptr_t)(f->ar.tail_end - PAGE)) {
		memcpy((void *)(uintptr_t)arg->addr, f->in.raw,
		       min_sz(size, (uintptr_t)f->ar.tail_end - arg->addr));
	}
}

/* ---- checks after the call ---- */

static bool expect_enotty(unsigned long cmd)
{
	unsigned int type = _IOC_TYPE(cmd), nr = _IOC_NR(cmd);

	if (type == CACHEPROBE_IOC_MAGIC - 1 || type == CACHEPROBE_IOC_MAGIC + 1)
		return true;
	if (type != CACHEPROBE_IOC_MAGIC)
		return false;
	if (nr == CACHEPROBE_CMD_UNSPEC || nr > CACHEPROBE_CMD_MAX)
		return true;
	/* Numbers of commands this file knows: only the exact ones work. */
	if (nr == CACHEPROBE_CMD_GET_INFO)
		return cmd != CACHEPROBE_IOC_GET_INFO;
	if (nr == CACHEPROBE_CMD_FLUSH)
		return cmd != CACHEPROBE_IOC_FLUSH;
	return false;
}

static unsigned int popcount_bytes(const unsigned char *p, size_t len)
{
	unsigned int n = 0;

	for (size_t i = 0; i < len; i++)
		n += (unsigned int)__builtin_popcount(p[i]);
	return n;
}

static void check_info_out(struct iocf *f, const struct cacheprobe_info *o)
{
	const struct cacheprobe_info *in = &f->in.info;
	bool masks = in->possible_cpus || in->online_cpus;
	uint32_t want_bytes = (f->nr_cpu_ids + 63) / 64 * 8;
	const unsigned char *online;

	f->st.ok_info++;
	if (o->abi_version != CACHEPROBE_ABI_VERSION ||
	    o->nr_online_cpus != f->online || o->nr_cpu_ids != f->nr_cpu_ids ||
	    o->nr_possible_cpus < o->nr_online_cpus ||
	    o->max_cpus != CACHEPROBE_MAX_CPUS)
		fuzz_fail(f, "GET_INFO: abi %u online %u cpu_ids %u possible %u max %u",
			  o->abi_version, o->nr_online_cpus, o->nr_cpu_ids,
			  o->nr_possible_cpus, o->max_cpus);
#if CACHEPROBE_ABI_VERSION >= 4
	if (o->max_chases != CACHEPROBE_MAX_CHASES)
		fuzz_fail(f, "GET_INFO: max_chases %u", o->max_chases);
#endif
	if (!memchr(o->module_version, 0, sizeof(o->module_version)) ||
	    !o->module_version[0])
		fuzz_fail(f, "GET_INFO: module_version empty or unterminated");
	if (o->mask_bytes != (masks ? want_bytes : 0))
		fuzz_fail(f, "GET_INFO: mask_bytes %u out, wanted %u",
			  o->mask_bytes, masks ? want_bytes : 0);
	if (f->p[SLOT_MASK_B].slot >= 0 && in->online_cpus) {
		online = slot_base(f, SLOT_MASK_B) + f->p[SLOT_MASK_B].off;
		if (popcount_bytes(online, want_bytes) != f->online)
			fuzz_fail(f, "GET_INFO: online mask has %u CPUs, not %u",
				  popcount_bytes(online, want_bytes), f->online);
	}
}

static void check_flush_out(struct iocf *f, const struct cacheprobe_flush *o)
{
	const unsigned char *t;
	uint32_t cap = f->in.flush.results_cap, prev_cpu = 0;

	f->st.ok_flush++;
	if (f->unpriv)
		fuzz_fail(f, "FLUSH succeeded for an unprivileged user");
	if (o->nr_results == 0 || o->nr_results > cap ||
	    o->nr_results > f->nr_cpu_ids)
		fuzz_fail(f, "FLUSH: nr_results %u with results_cap %u",
			  o->nr_results, cap);
	if (f->p[SLOT_RESULTS].slot < 0 || o->nr_results > f->nr_cpu_ids)
		return;
	t = (const unsigned char *)slot_base(f, SLOT_RESULTS) +
	    f->p[SLOT_RESULTS].off;
	for (uint32_t i = 0; i < o->nr_results; i++) {
		struct cacheprobe_cpu_time e;

		/* memcpy: the array may be misaligned on purpose. */
		memcpy(&e, t + i * sizeof(e), sizeof(e));
		if (e.cpu >= f->nr_cpu_ids || e.reserved ||
		    (i && e.cpu <= prev_cpu))
			fuzz_fail(f, "FLUSH: result %u is CPU %u (reserved %u)",
				  i, e.cpu, e.reserved);
		prev_cpu = e.cpu;
	}
}

/* Reads the struct back (only from a slot: elsewhere it may be gone). */
static void check_success(struct iocf *f, const struct ptr *arg)
{
	const unsigned char *p = slot_base(f, SLOT_ARG) + arg->off;
	union {
		struct cacheprobe_info info;
		struct cacheprobe_flush flush;
#if CACHEPROBE_ABI_VERSION >= 4
		struct cacheprobe_chase chase;
#endif
	} o;

	f->st.ok++;
	if (f->cmd == CACHEPROBE_IOC_FLUSH && f->unpriv)
		fuzz_fail(f, "FLUSH succeeded for an unprivileged user");
	if (f->unpriv && _IOC_TYPE(f->cmd) == CACHEPROBE_IOC_MAGIC &&
	    f->cmd != CACHEPROBE_IOC_GET_INFO)
		fuzz_fail(f, "privileged ioctl succeeded for nobody");
	if (arg->slot < 0)
		return;
	if (f->cmd == CACHEPROBE_IOC_GET_INFO) {
		memcpy(&o.info, p, sizeof(o.info));
		check_info_out(f, &o.info);
	} else if (f->cmd == CACHEPROBE_IOC_FLUSH) {
		memcpy(&o.flush, p, sizeof(o.flush));
		check_flush_out(f, &o.flush);
	}
#if CACHEPROBE_ABI_VERSION >= 4
	else if (f->cmd == CACHEPROBE_IOC_CHASE) {
		memcpy(&o.chase, p, sizeof(o.chase));
		check_chase_out(f, &o.chase);
	}
#endif
}

/* What each buffer may receive, for the real commands. */
static void check_canaries(struct iocf *f, bool ok)
{
	const struct cacheprobe_ioc_head *h = &f->in.info.head;
	size_t msg_allowed = ok ? 0 : min_sz(h->msg_len, CACHEPROBE_MSG_MAX);
	unsigned char *cpus;

	if (f->cmd == CACHEPROBE_IOC_GET_INFO) {
		canary_check(f, SLOT_ARG, sizeof(struct cacheprobe_info), "struct");
		canary_check(f, SLOT_MASK_A, f->in.info.mask_bytes, "possible_cpus");
		canary_check(f, SLOT_MASK_B, f->in.info.mask_bytes, "online_cpus");
	} else if (f->cmd == CACHEPROBE_IOC_FLUSH) {
		canary_check(f, SLOT_ARG, sizeof(struct cacheprobe_flush), "struct");
		canary_check(f, SLOT_RESULTS,
			     (size_t)min_sz(f->in.flush.results_cap, f->nr_cpu_ids) *
			     sizeof(struct cacheprobe_cpu_time), "results");
		cpus = slot_base(f, SLOT_CPUS) + f->p[SLOT_CPUS].off;
		if (f->p[SLOT_CPUS].slot >= 0 &&
		    memcmp(cpus, f->cpus_copy, f->cpus_copy_len))
			fuzz_fail(f, "the CPU set (input only) was written");
#if CACHEPROBE_ABI_VERSION >= 4
	} else if (f->cmd == CACHEPROBE_IOC_CHASE) {
		const struct cacheprobe_run *run = &f->in.chase.run;

		canary_check(f, SLOT_ARG, sizeof(struct cacheprobe_chase),
			     "struct");
		/* One series of samples values, on success alone. */
		canary_check(f, SLOT_RESULTS,
			     ok ? (size_t)run->samples * sizeof(uint64_t) : 0,
			     "values");
		cpus = slot_base(f, SLOT_CPUS) + f->p[SLOT_CPUS].off;
		if (f->p[SLOT_CPUS].slot >= 0 &&
		    memcmp(cpus, f->cpus_copy, f->cpus_copy_len))
			fuzz_fail(f, "the CPU ids (input only) were written");
#endif
	} else {
		/* Numbers in the module's magic range that it does not take:
		 * nothing may be written.  (Generic ones like FIGETBSZ are the
		 * VFS's and may write.) */
		if (_IOC_TYPE(f->cmd) >= CACHEPROBE_IOC_MAGIC - 1 &&
		    _IOC_TYPE(f->cmd) <= CACHEPROBE_IOC_MAGIC + 1 &&
		    expect_enotty(f->cmd) &&
		    memcmp(f->arg_copy, slot_base(f, SLOT_ARG), f->arg_copy_len))
			fuzz_fail(f, "the argument of a number the module does not have was written");
		return;
	}
	canary_check(f, SLOT_MSG, msg_allowed,
		     ok ? "message buffer on success" : "message buffer");
}

static void check_call(struct iocf *f, const struct ptr *arg, long ret,
		       int err)
{
	f->st.calls++;
	if (ret != 0 && ret != -1)
		fuzz_fail(f, "returned %ld", ret);
	if (ret == -1) {
		hist_add(&f->st.err, err);
		if (err <= 0 || err >= ERRNO_USER_MAX)
			fuzz_fail(f, "kernel-internal errno %d", err);
		if (expect_enotty(f->cmd) && err != ENOTTY)
			fuzz_fail(f, "errno %d for a number the module does not have, not ENOTTY",
				  err);
	} else {
		if (expect_enotty(f->cmd))
			fuzz_fail(f, "succeeded for a number the module does not have");
		check_success(f, arg);
	}
	check_canaries(f, ret == 0);
}

static void dump_call(struct iocf *f, const struct ptr *arg)
{
	printf("call %ld: ioctl(fd, %#lx, %#" PRIx64 ")%s\n", f->index, f->cmd,
	       arg->addr, arg->slot >= 0 ? " (valid buffer)" : "");
	hexdump("struct of call", f->index, f->in.raw,
		sizeof(struct cacheprobe_flush) > sizeof(struct cacheprobe_info) ?
		sizeof(struct cacheprobe_flush) : sizeof(struct cacheprobe_info));
}

static void fuzz_one(struct iocf *f)
{
	struct ptr arg;
	size_t size;
	long ret;
	int err;

	for (int s = 0; s < NR_SLOTS; s++)
		f->p[s] = (struct ptr){ .slot = -1 };
	f->cmd = gen_call(f);
	size = _IOC_SIZE(f->cmd) < sizeof(f->in.raw) ? _IOC_SIZE(f->cmd) :
	       sizeof(f->in.raw);
	/* The argument: a valid struct most of the time, else the zoo. */
	if (rng_pct(&f->rng, 80)) {
		arg = (struct ptr){ .slot = SLOT_ARG,
				    .off = 8 * rng_below(&f->rng, 4) };
		arg.addr = (uintptr_t)(slot_base(f, SLOT_ARG) + arg.off);
		f->p[SLOT_ARG] = arg;
	} else {
		arg = pick_ptr(f, SLOT_ARG, size);
	}
	canary_fill(f);
	if (f->p[SLOT_CPUS].slot >= 0)	/* canary_fill overwrote it */
		memcpy(slot_base(f, SLOT_CPUS) + f->p[SLOT_CPUS].off,
		       f->cpus_copy, f->cpus_copy_len);
	place_arg(f, &arg, size);
	if (f->index == f->dump)
		dump_call(f, &arg);
	ret = ioctl(f->dev, f->cmd, (unsigned long)arg.addr);
	err = errno;
	check_call(f, &arg, ret, err);
}

/* ---- runs ---- */

static bool read_info(int dev, struct cacheprobe_info *info)
{
	memset(info, 0, sizeof(*info));
	return ioctl(dev, CACHEPROBE_IOC_GET_INFO, info) == 0;
}

/* The module must still answer GET_INFO, with this guest's facts. */
static bool final_get_info(struct iocf *f)
{
	uint64_t online[CACHEPROBE_CPUMASK_MAX_BYTES / 8] = { 0 };
	struct cacheprobe_info info;
	bool ok = read_info(f->dev, &info);

	info.online_cpus = (uintptr_t)online;
	info.mask_bytes = sizeof(online);
	ok = ok && ioctl(f->dev, CACHEPROBE_IOC_GET_INFO, &info) == 0 &&
	     info.abi_version == CACHEPROBE_ABI_VERSION &&
	     info.nr_online_cpus == (uint32_t)sysconf(_SC_NPROCESSORS_ONLN) &&
	     popcount_bytes((const unsigned char *)online, sizeof(online)) ==
	     info.nr_online_cpus && info.module_version[0];
	printf("iocfuzz[%s]: final GET_INFO %s (ABI %u, %u CPUs online, module %.32s)\n",
	       f->who, ok ? "ok" : "WRONG", info.abi_version,
	       info.nr_online_cpus, info.module_version);
	return ok;
}

static void print_stats(const struct iocf *f, double secs)
{
	printf("iocfuzz[%s]: seed %#" PRIx64 ": %lu ioctls in %.1f s, %.0f/s\n",
	       f->who, f->seed, f->st.calls, secs,
	       secs > 0 ? (double)f->st.calls / secs : 0.0);
	printf("  succeeded=%lu (GET_INFO=%lu FLUSH=%lu CHASE=%lu) failed-checks=%lu\n",
	       f->st.ok, f->st.ok_info, f->st.ok_flush, f->st.ok_chase,
	       f->st.failures);
	hist_print("errors", &f->st.err);
}

static int fuzz_loop(struct iocf *f, unsigned long count)
{
	struct cacheprobe_info info;
	double t0;

	if (arena_init(&f->ar) || !read_info(f->dev, &info)) {
		printf("FUZZ-FAIL iocfuzz[%s]: setup: %s\n", f->who,
		       strerror(errno));
		return 1;
	}
	f->nr_cpu_ids = info.nr_cpu_ids;
	f->online = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	t0 = now_sec();
	for (f->index = 0; f->index < (long)count; f->index++) {
		watchdog_tick(f->index);
		progress("iocfuzz", f->who, f->index);
		fuzz_one(f);
	}
	watchdog_stop();
	print_stats(f, now_sec() - t0);
	return f->st.failures ? 1 : 0;
}

/* Fuzzes on @dev as the current user; 0 when every check held. */
static int run_phase(const char *who, bool unpriv, int dev,
		     const struct fuzz_args *a)
{
	struct iocf *f = calloc(1, sizeof(*f));
	int ret;

	if (!f)
		return 2;
	f->dev = dev;
	f->who = who;
	f->unpriv = unpriv;
	f->seed = a->seed;
	f->dump = a->dump;
	f->rng.s = a->seed + (unpriv ? 0x6e6f626f6479ULL : 0);
	printf("iocfuzz[%s]: seed %#" PRIx64 ", %lu ioctls\n", who, a->seed,
	       a->count);
	fflush(stdout);
	ret = fuzz_loop(f, a->count);
	/* FIONBIO & co. may have changed the fd; that is harmless here. */
	if (!final_get_info(f))
		ret = 1;
	printf("IOCFUZZ-SUMMARY as=%s ioctls=%lu succeeded=%lu failed-checks=%lu result=%s\n",
	       who, f->st.calls, f->st.ok, f->st.failures, ret ? "FAIL" : "ok");
	fflush(stdout);
	free(f);
	return ret;
}

static int open_dev(void)
{
	return open("/dev/" CACHEPROBE_DEVICE_NAME, O_RDWR | O_CLOEXEC);
}

/* Opens the device as root (it is 0600), then becomes nobody. */
static int run_unprivileged(const struct fuzz_args *a)
{
	pid_t pid;
	int dev;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		dev = open_dev();
		if (dev < 0 || drop_privileges()) {
			printf("FUZZ-FAIL iocfuzz[nobody]: open or setuid: %s\n",
			       strerror(errno));
			_exit(1);
		}
		_exit(run_phase("nobody", true, dev, a));
	}
	return wait_child(pid);
}

int main(int argc, char **argv)
{
	struct fuzz_args a;
	int ret = 0, dev;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &a, 100000)) {
		fprintf(stderr, "usage: %s [--count N] [--seed S] [--as root|nobody|both] [--dump I]\n",
			argv[0]);
		return 2;
	}
	watchdog_start();
	if (a.as & 1) {
		dev = open_dev();
		if (dev < 0) {
			printf("FUZZ-FAIL iocfuzz[root]: open /dev/%s: %s\n",
			       CACHEPROBE_DEVICE_NAME, strerror(errno));
			return 1;
		}
		ret |= run_phase("root", false, dev, &a);
		close(dev);
	}
	if (a.as & 2)
		ret |= run_unprivileged(&a);
	printf("iocfuzz: %s (seed %#" PRIx64 ")\n", ret ? "FAILED" : "passed",
	       a.seed);
	return ret ? 1 : 0;
}
