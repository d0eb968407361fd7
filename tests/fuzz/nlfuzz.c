// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz: throws random generic netlink messages at the cacheprobe family
 * inside a test guest, then checks that the module still answers GET_INFO.
 *
 *   nlfuzz [--count N] [--seed S] [--as root|nobody|both] [--dump I]
 *
 * --count: datagrams per identity (default 100000); most hold one message,
 * some a batch of two to four.  --as both (the default) fuzzes as root,
 * then in a forked child as uid/gid 65534 without groups or capabilities.
 * --seed reproduces a run; --dump I hex-dumps datagram I before sending it.
 *
 * What is generated: commands 0..CACHEPROBE_CMD_MAX+8 (so commands added to
 * the header later are covered) and sometimes any byte; attributes of types
 * 0..CACHEPROBE_ATTR_MAX+8 with u32/u64/bitmap/string/random/huge payloads,
 * nested attributes inside nests, lying nla_len; lying nlmsg_len in both
 * directions, datagrams cut short, messages up to ~64 KiB; random genl
 * version and reserved bytes; random flags including NLM_F_DUMP.  A quarter
 * of the messages follow a request's shape (GET_INFO, FLUSH with a method
 * and a CPU set) so that validation past the first attribute is reached
 * too; some of those are valid FLUSH requests and, with ABI 2, valid
 * measurement requests (small sizes and counts, so that TCG keeps up).
 *
 * What fails the run (exit 1), besides the module not answering afterwards:
 * an error code that is not a user-space errno (ERESTARTSYS & co. leaking),
 * a positive error in an ack, a malformed message from the kernel, a success
 * for anything but GET_INFO as the unprivileged user, and an unknown command
 * answered with anything but EOPNOTSUPP.  Replies are drained after every
 * datagram without blocking, so the socket never fills; ENOBUFS is counted.
 */
#include <fcntl.h>
#include <linux/cacheprobe.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdarg.h>
#include <sys/socket.h>

#include "common.h"
#include "rawnl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

#define TX_CAP (128 * 1024)
#define RX_CAP (256 * 1024)
#define MSG_MAX (64 * 1024 - 64)	/* largest single message built */
#define BATCH_MAX 4
#define FAIL_REPORTS 20			/* failures printed in full */

struct sent_msg {
	uint32_t seq;
	uint16_t type;
	uint16_t flags;
	uint8_t cmd;
	uint16_t reserved;
	bool honest;	/* nlmsg_len true and nothing before it lied */
};

struct nl_stats {
	unsigned long datagrams, messages, bytes, send_failed;
	unsigned long acks_ok, nacks, replies, dones, others, silent;
	unsigned long replies_by_cmd[256];
	unsigned long failures;
	struct errno_hist nack, send_err, recv_err;
};

struct nlf {
	int fd;
	uint16_t fam;
	bool unpriv;
	const char *who;
	struct rng rng;
	uint32_t seq;
	long index;
	long dump;
	uint64_t seed;
	struct sent_msg sent[BATCH_MAX];
	int nsent;
	struct nl_stats st;
	_Alignas(8) unsigned char tx[TX_CAP];
	_Alignas(8) unsigned char rx[RX_CAP];
};

static void fuzz_fail(struct nlf *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Counts a failed check; the first few are printed with how to replay. */
static void fuzz_fail(struct nlf *f, const char *fmt, ...)
{
	va_list ap;

	if (++f->st.failures > FAIL_REPORTS)
		return;
	printf("FUZZ-FAIL nlfuzz[%s] datagram %ld (--seed %#" PRIx64
	       " --as %s --count %ld --dump %ld): ", f->who, f->index, f->seed,
	       f->who, f->index + 1, f->index);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* ---- setup and the final check: plain blocking request/answer ---- */

/* rawnl's socket, with room for the flood and a bounded wait. */
static int nl_open(void)
{
	struct timeval tv = { .tv_sec = 10 };
	int rcvbuf = 1 << 20;
	int fd = rawnl_socket();

	if (fd < 0)
		return -1;
	/* Capped by rmem_max; only lowers how often ENOBUFS happens. */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	/* A blocking receive that never ends would hide a lost answer. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static size_t put_attr(unsigned char *msg, size_t len, uint16_t type,
		       const void *data, size_t dlen)
{
	struct nlattr *a = (struct nlattr *)(msg + NLMSG_ALIGN(len));

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + dlen);
	memcpy((char *)a + NLA_HDRLEN, data, dlen);
	return NLMSG_ALIGN(len) + NLA_ALIGN(a->nla_len);
}

/* The module must still answer GET_INFO, with this guest's facts. */
static bool final_get_info(const char *who)
{
	static struct rawnl_answer ans;
	static struct rawnl_req req;
	uint32_t abi = 0, online = 0;
	const struct nlattr *ver;
	uint16_t fam = 0;
	int fd = nl_open(), err = -1;
	bool ok;

	if (fd >= 0)
		fam = rawnl_family_id(fd);
	if (fam) {
		rawnl_start(&req, fam, CACHEPROBE_CMD_GET_INFO,
			    CACHEPROBE_GENL_VERSION);
		rawnl_talk(fd, &req, &ans);
		err = ans.error;
	}
	ok = err == 0 &&
	     !rawnl_find_u32(ans.reply, ans.reply_len,
			     CACHEPROBE_ATTR_ABI_VERSION, &abi) &&
	     !rawnl_find_u32(ans.reply, ans.reply_len,
			     CACHEPROBE_ATTR_NR_ONLINE_CPUS, &online) &&
	     abi == CACHEPROBE_ABI_VERSION &&
	     online == (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	ver = ok ? rawnl_find(ans.reply, ans.reply_len,
			      CACHEPROBE_ATTR_MODULE_VERSION) : NULL;
	ok = ok && ver && ver->nla_len > NLA_HDRLEN + 1 &&
	     ((const char *)ver)[ver->nla_len - 1] == '\0';
	printf("nlfuzz[%s]: final GET_INFO %s (error %d, ABI %u, %u CPUs online, module %s)\n",
	       who, ok ? "ok" : "WRONG", err, abi, online,
	       ver ? (const char *)ver + NLA_HDRLEN : "?");
	if (fd >= 0)
		close(fd);
	return ok;
}

/* ---- generation ---- */

static const uint32_t u32_values[] = {
	0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 63, 64, 65, 255, 256, 1023, 1024,
	4095, 4096, 8191, 8192, 65535, 65536, 0x7fffffff, 0x80000000,
	0xfffffffe, 0xffffffff,
};

static uint32_t pick_u32(struct rng *r)
{
	return rng_pct(r, 80) ? RNG_PICK(r, u32_values) : (uint32_t)rng_next(r);
}

/*
 * CPU bitmaps: lengths around the ABI's rules (multiple of 8, at most
 * CACHEPROBE_CPUMASK_MAX_BYTES) and contents from valid (CPUs 0..3 of a
 * 4-CPU guest) to out of range.
 */
static size_t gen_cpumask(struct rng *r, unsigned char *p, size_t room)
{
	static const size_t lens[] = {
		0, 1, 4, 7, 8, 8, 8, 9, 12, 16, 16, 24, 64,
		CACHEPROBE_CPUMASK_MAX_BYTES - 8, CACHEPROBE_CPUMASK_MAX_BYTES,
		CACHEPROBE_CPUMASK_MAX_BYTES + 1, CACHEPROBE_CPUMASK_MAX_BYTES + 8,
		2 * CACHEPROBE_CPUMASK_MAX_BYTES,
	};
	size_t len = rng_pct(r, 85) ? RNG_PICK(r, lens) : rng_below(r, 2200);
	uint64_t bit;

	len = len < room ? len : room;
	memset(p, 0, len);
	switch (rng_below(r, 5)) {
	case 0:
	case 1:	/* a subset of CPUs 0..3, often valid */
		if (len)
			p[0] = (unsigned char)rng_below(r, 16);
		break;
	case 2:	/* one CPU anywhere in the bitmap */
		bit = len ? rng_below(r, (uint32_t)(len * 8)) : 0;
		if (len)
			p[bit / 8] = (unsigned char)(1u << (bit % 8));
		break;
	case 3:
		memset(p, 0xff, len);
		break;
	default:
		rng_fill(r, p, len);
	}
	return len;
}

static size_t gen_string(struct rng *r, unsigned char *p, size_t room)
{
	size_t len = rng_below(r, 48);

	len = len < room ? len : room;
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(' ' + rng_below(r, 95));
	if (len && rng_pct(r, 70))
		p[len - 1] = '\0';
	return len;
}

/* Random bytes: small odd sizes, a few KiB, or (rarely) all the room. */
static size_t gen_blob(struct rng *r, unsigned char *p, size_t room)
{
	size_t len;

	if (rng_pct(r, 2))
		len = room;
	else if (rng_pct(r, 20))
		len = rng_below(r, 4096);
	else
		len = rng_below(r, 40);
	len = len < room ? len : room;
	rng_fill(r, p, len);
	return len;
}

static size_t gen_attrs(struct nlf *f, unsigned char *p, size_t room,
			int depth);

static size_t gen_payload(struct nlf *f, unsigned char *p, size_t room,
			  int depth, uint16_t *type)
{
	struct rng *r = &f->rng;
	uint32_t v32;
	uint64_t v64;

	switch (rng_below(r, depth < 4 ? 10 : 8)) {
	case 0:
		return 0;
	case 1:
		v32 = pick_u32(r);
		if (room < sizeof(v32))
			return 0;
		memcpy(p, &v32, sizeof(v32));
		return sizeof(v32);
	case 2:
		v64 = rng_pct(r, 50) ? pick_u32(r) : rng_next(r);
		if (room < sizeof(v64))
			return 0;
		memcpy(p, &v64, sizeof(v64));
		return sizeof(v64);
	case 3:
	case 4:
		return gen_cpumask(r, p, room);
	case 5:
		return gen_string(r, p, room);
	case 6:
	case 7:
		return gen_blob(r, p, room);
	default:	/* attributes inside, flagged as a nest or not */
		if (rng_pct(r, 50))
			*type |= NLA_F_NESTED;
		return gen_attrs(f, p, room, depth + 1);
	}
}

static uint16_t pick_attr_type(struct rng *r)
{
	uint16_t type = (uint16_t)rng_below(r, CACHEPROBE_ATTR_MAX + 9);

	if (rng_pct(r, 4))
		type |= NLA_F_NESTED;
	if (rng_pct(r, 3))
		type |= NLA_F_NET_BYTEORDER;
	if (rng_pct(r, 3))
		type = (uint16_t)rng_next(r);
	return type;
}

/* A wrong nla_len: too short for a header, off by a little, past the end. */
static uint16_t lie_nla_len(struct rng *r, size_t total, size_t room)
{
	const size_t lies[] = {
		0, 1, 3, NLA_HDRLEN, total - 1, total + 1, total + 4,
		room + 1, room + 64, 0xffff, rng_below(r, 0x10000),
	};

	return (uint16_t)RNG_PICK(r, lies);
}

static size_t gen_attr(struct nlf *f, unsigned char *p, size_t room,
		       int depth)
{
	struct nlattr *a = (struct nlattr *)p;
	uint16_t type = pick_attr_type(&f->rng);
	size_t total;

	if (room < NLA_HDRLEN)
		return 0;
	total = NLA_HDRLEN + gen_payload(f, p + NLA_HDRLEN, room - NLA_HDRLEN,
					 depth, &type);
	a->nla_type = type;
	a->nla_len = (uint16_t)total;
	if (rng_pct(&f->rng, 3))
		a->nla_len = lie_nla_len(&f->rng, total, room);
	total = NLA_ALIGN(total);
	return total < room ? total : room;
}

static size_t gen_attrs(struct nlf *f, unsigned char *p, size_t room,
			int depth)
{
	unsigned int n = rng_below(&f->rng, depth ? 4 : 7);
	size_t used = 0;

	for (unsigned int i = 0; i < n && used < room; i++) {
		size_t a = gen_attr(f, p + used, room - used, depth);

		if (!a)
			break;
		used += a;
	}
	return used;
}

/* A FLUSH in the right shape: method, maybe a CPU set, maybe more. */
static size_t gen_flush_body(struct nlf *f, unsigned char *p, size_t room)
{
	static const uint32_t methods[] = {
		0, CACHEPROBE_FLUSH_WBINVD, CACHEPROBE_FLUSH_WBINVD,
		CACHEPROBE_FLUSH_WBNOINVD, 3, 0xffffffff,
	};
	struct rng *r = &f->rng;
	uint32_t method = RNG_PICK(r, methods);
	unsigned char mask[CACHEPROBE_CPUMASK_MAX_BYTES * 2 + 8];
	size_t len = 0, mlen;

	if (room < 4096)
		return 0;
	if (rng_pct(r, 90))
		len = put_attr(p, len, CACHEPROBE_ATTR_FLUSH_METHOD, &method,
			       sizeof(method));
	if (rng_pct(r, 70)) {
		mlen = gen_cpumask(r, mask, sizeof(mask));
		len = put_attr(p, len, CACHEPROBE_ATTR_CPUS, mask, mlen);
	}
	if (rng_pct(r, 15))
		len += gen_attr(f, p + len, room - len, 1);
	return len;
}

#if CACHEPROBE_ABI_VERSION >= 2
/*
 * The measurement commands (ABI 2) need several attributes of the right
 * type before they run anything, which random attributes almost never
 * give; this shapes requests for any command above FLUSH from the
 * measurement attributes, with small values (so that a run is short under
 * TCG) and the odd bad one.
 */
static size_t put_u32(unsigned char *p, size_t len, uint16_t type, uint32_t v)
{
	return put_attr(p, len, type, &v, sizeof(v));
}

static size_t put_cpu_list(struct rng *r, unsigned char *p, size_t len)
{
	uint32_t cpus[6] = { 0, 1, 2, 3 };
	unsigned int n = rng_pct(r, 80) ? 1 + rng_below(r, 2) : 3 + rng_below(r, 2);
	size_t bytes;

	/* Mostly distinct CPUs of the 4-CPU guest in a random order (commands
	 * want 1, 2 or more distinct ones), sometimes a repeat or a bad id. */
	for (unsigned int i = 3; i > 0; i--) {
		unsigned int j = rng_below(r, i + 1);
		uint32_t t = cpus[i];

		cpus[i] = cpus[j];
		cpus[j] = t;
	}
	if (rng_pct(r, 5))
		cpus[rng_below(r, n)] = rng_pct(r, 50) ? cpus[0] : pick_u32(r);
	bytes = n * sizeof(cpus[0]);
	if (rng_pct(r, 3))	/* not whole u32s */
		bytes -= 1 + rng_below(r, 3);
	return put_attr(p, len, CACHEPROBE_ATTR_CPU_LIST, cpus, bytes);
}

static uint32_t small_or_odd(struct rng *r, uint32_t max)
{
	return rng_pct(r, 93) ? 1 + rng_below(r, max) : pick_u32(r);
}

/*
 * Few samples, so runs stay short; now and then the most one reply may
 * carry (CACHEPROBE_MAX_VALUES over one or two series) and just past it,
 * where reply sizes are at their limits.
 */
static uint32_t pick_samples(struct rng *r)
{
	uint32_t k = rng_below(r, 100);

	if (k < 92)
		return 1 + rng_below(r, 3);
	if (k < 96)
		return CACHEPROBE_MAX_VALUES / (1 + rng_below(r, 2)) + 1 -
		       rng_below(r, 5);
	return pick_u32(r);
}

static size_t gen_run_body(struct nlf *f, unsigned char *p, size_t room)
{
	static const uint32_t widths[] = { 1, 2, 4, 8, 16, 32, 64, 3, 0, 128 };
	static const uint32_t distances[] = { 0, 4, 8, 64, 128, 256, 65536, 65537 };
	struct rng *r = &f->rng;
	uint64_t size = rng_pct(r, 93) ? 4096ULL << rng_below(r, 5) : rng_next(r);
	size_t len = 0;

	if (room < 512)
		return 0;
	if (rng_pct(r, 95))
		len = put_cpu_list(r, p, len);
	if (rng_pct(r, 95))
		len = put_u32(p, len, CACHEPROBE_ATTR_SAMPLES, pick_samples(r));
	if (rng_pct(r, 90))
		len = put_u32(p, len, CACHEPROBE_ATTR_OPS, small_or_odd(r, 64));
	if (rng_pct(r, 85))
		len = put_attr(p, len, CACHEPROBE_ATTR_SIZE, &size, sizeof(size));
	if (rng_pct(r, 60))
		len = put_u32(p, len, CACHEPROBE_ATTR_VARIANT, small_or_odd(r, 4));
	if (rng_pct(r, 40))
		len = put_u32(p, len, CACHEPROBE_ATTR_WIDTH, RNG_PICK(r, widths));
	if (rng_pct(r, 40))
		len = put_u32(p, len, CACHEPROBE_ATTR_DISTANCE, RNG_PICK(r, distances));
	if (rng_pct(r, 25))
		len = put_u32(p, len, CACHEPROBE_ATTR_STRIDE, 8u << rng_below(r, 6));
	if (rng_pct(r, 25))
		len = put_u32(p, len, CACHEPROBE_ATTR_ORDER, small_or_odd(r, 2));
	if (rng_pct(r, 25))
		len = put_u32(p, len, CACHEPROBE_ATTR_PREPARE, small_or_odd(r, 3));
	if (rng_pct(r, 20))
		len = put_u32(p, len, CACHEPROBE_ATTR_OFFSET, rng_below(r, 80));
#if CACHEPROBE_ABI_VERSION >= 4
	/* CHASE's PAGES, CHASES and SEED; PAGE_BYTES, a reply attribute,
	 * now and then in a request (refused). */
	if (rng_pct(r, 25))
		len = put_u32(p, len, CACHEPROBE_ATTR_PAGES, small_or_odd(r, 3));
	if (rng_pct(r, 25))
		len = put_u32(p, len, CACHEPROBE_ATTR_CHASES,
			      rng_pct(r, 50) ? 1u << rng_below(r, 5)
					     : small_or_odd(r, 17));
	if (rng_pct(r, 20)) {
		uint64_t seed = rng_pct(r, 10) ? 0 : rng_next(r);

		len = put_attr(p, len, CACHEPROBE_ATTR_SEED, &seed,
			       rng_pct(r, 95) ? sizeof(seed) : 4);
	}
	if (rng_pct(r, 3)) {
		uint64_t bytes = 4096;

		len = put_attr(p, len, CACHEPROBE_ATTR_PAGE_BYTES, &bytes,
			       sizeof(bytes));
	}
	/* So are MISSED_ROUNDS and DISTURBED. */
	if (rng_pct(r, 2))
		len = put_u32(p, len, rng_pct(r, 50) ?
			      CACHEPROBE_ATTR_MISSED_ROUNDS :
			      CACHEPROBE_ATTR_DISTURBED, rng_below(r, 4));
#endif
	return len;
}
#else
static size_t gen_run_body(struct nlf *f, unsigned char *p, size_t room)
{
	return gen_attrs(f, p, room, 0);
}
#endif

static uint16_t pick_flags(struct rng *r)
{
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;

	if (rng_pct(r, 10))
		flags &= (uint16_t)~NLM_F_ACK;
	if (rng_pct(r, 3))
		flags &= (uint16_t)~NLM_F_REQUEST;
	if (rng_pct(r, 8))
		flags |= NLM_F_DUMP;
	if (rng_pct(r, 4))
		flags |= NLM_F_ECHO;
	if (rng_pct(r, 3))
		flags |= (uint16_t)rng_next(r);
	return flags;
}

/*
 * The family's id most of the time; else netlink's own control types,
 * which the core answers itself.  Never another family's id: fuzzing
 * those is not this test's business.
 */
static uint16_t pick_type(struct nlf *f)
{
	const uint16_t others[] = {
		0, NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE, NLMSG_OVERRUN,
	};

	return rng_pct(&f->rng, 96) ? f->fam : RNG_PICK(&f->rng, others);
}

static void gen_headers(struct nlf *f, unsigned char *p)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)p;
	struct genlmsghdr *g = NLMSG_DATA(nlh);
	struct rng *r = &f->rng;

	memset(p, 0, NLMSG_LENGTH(GENL_HDRLEN));
	nlh->nlmsg_type = pick_type(f);
	nlh->nlmsg_flags = pick_flags(r);
	nlh->nlmsg_seq = ++f->seq;
	nlh->nlmsg_pid = rng_pct(r, 3) ? (uint32_t)rng_next(r) : 0;
	g->cmd = rng_pct(r, 93) ? (uint8_t)rng_below(r, CACHEPROBE_CMD_MAX + 9)
				: (uint8_t)rng_next(r);
	g->version = rng_pct(r, 90) ? CACHEPROBE_GENL_VERSION
				    : (uint8_t)rng_next(r);
	g->reserved = rng_pct(r, 93) ? 0 : (uint16_t)rng_next(r);
}

static size_t gen_body(struct nlf *f, unsigned char *p, size_t room)
{
	struct genlmsghdr *g = NLMSG_DATA((struct nlmsghdr *)p);
	size_t hdr = NLMSG_LENGTH(GENL_HDRLEN);

	if (rng_pct(&f->rng, 25)) {
		g->cmd = (uint8_t)rng_below(&f->rng, CACHEPROBE_CMD_MAX + 1);
		if (g->cmd == CACHEPROBE_CMD_FLUSH)
			return gen_flush_body(f, p + hdr, room - hdr);
		if (g->cmd > CACHEPROBE_CMD_FLUSH)
			return gen_run_body(f, p + hdr, room - hdr);
		return 0;
	}
	/* Keep most messages small: TCG copies every byte slowly. */
	if (!rng_pct(&f->rng, 3) && room - hdr > 4096)
		room = hdr + 4096;
	return gen_attrs(f, p + hdr, room - hdr, 0);
}

static uint32_t lie_msg_len(struct rng *r, uint32_t len)
{
	const uint32_t lies[] = {
		0, 1, NLMSG_HDRLEN - 1, NLMSG_HDRLEN, NLMSG_HDRLEN + 1,
		NLMSG_LENGTH(GENL_HDRLEN) - 1, len - 1, rng_below(r, len),
		len + 1, len + 4, len + rng_below(r, 65536), 0xffffffff,
	};

	return RNG_PICK(r, lies);
}

/* One message at @p; returns the bytes it takes, aligned. */
static size_t gen_message(struct nlf *f, unsigned char *p, size_t room,
			  bool *honest)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)p;
	struct sent_msg *s = &f->sent[f->nsent++];
	size_t len;

	room = room < MSG_MAX ? room : MSG_MAX;
	gen_headers(f, p);
	len = NLMSG_LENGTH(GENL_HDRLEN) + gen_body(f, p, room);
	nlh->nlmsg_len = (uint32_t)len;
	if (rng_pct(&f->rng, 4)) {
		nlh->nlmsg_len = lie_msg_len(&f->rng, (uint32_t)len);
		*honest = false;
	}
	s->seq = nlh->nlmsg_seq;
	s->type = nlh->nlmsg_type;
	s->flags = nlh->nlmsg_flags;
	s->cmd = ((struct genlmsghdr *)NLMSG_DATA(nlh))->cmd;
	s->reserved = ((struct genlmsghdr *)NLMSG_DATA(nlh))->reserved;
	s->honest = *honest;
	len = NLMSG_ALIGN(len);
	return len < room ? len : room;
}

/* One datagram: usually one message, sometimes a batch. */
static size_t gen_datagram(struct nlf *f)
{
	unsigned int n = rng_pct(&f->rng, 92) ? 1 : 2 + rng_below(&f->rng, 3);
	size_t used = 0;
	bool honest = true;

	f->nsent = 0;
	for (unsigned int i = 0; i < n && TX_CAP - used > 1024; i++)
		used += gen_message(f, f->tx + used, TX_CAP - used, &honest);
	f->st.messages += (unsigned long)f->nsent;
	if (rng_pct(&f->rng, 3)) {	/* cut short: nlmsg_len lies high */
		used = rng_below(&f->rng, (uint32_t)used + 1);
		for (int i = 0; i < f->nsent; i++)
			f->sent[i].honest = false;
	} else if (rng_pct(&f->rng, 2)) {	/* trailing junk */
		size_t extra = 1 + rng_below(&f->rng, 16);

		rng_fill(&f->rng, f->tx + used, extra);
		used += extra;
	}
	return used;
}

/* ---- answers ---- */

static const struct sent_msg *find_sent(const struct nlf *f, uint32_t seq)
{
	for (int i = 0; i < f->nsent; i++)
		if (f->sent[i].seq == seq)
			return &f->sent[i];
	return NULL;
}

/* Reached the family's op table: a request of ours, whole, to the family. */
static bool dispatched(const struct nlf *f, const struct sent_msg *s)
{
	return s && s->honest && s->type == f->fam &&
	       (s->flags & NLM_F_REQUEST);
}

/*
 * Flags every kernel accepts before looking up the command: REQUEST, ACK,
 * ECHO, and both DUMP bits or neither.  (6.12 refuses any other bit, half
 * of NLM_F_DUMP included, with EINVAL first.)
 */
static bool plain_flags(uint16_t flags)
{
	uint16_t dump = flags & NLM_F_DUMP;

	return !(flags & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO | NLM_F_DUMP)) &&
	       (dump == 0 || dump == NLM_F_DUMP);
}

/* The only command open to every user (DESIGN.md). */
static bool open_to_all(uint8_t cmd)
{
	return cmd == CACHEPROBE_CMD_GET_INFO;
}

static void check_ack(struct nlf *f, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	const struct sent_msg *s = find_sent(f, nlh->nlmsg_seq);
	int err = -e->error;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
		fuzz_fail(f, "ack of %u bytes", nlh->nlmsg_len);
		return;
	}
	if (err < 0 || err >= ERRNO_USER_MAX)
		fuzz_fail(f, "ack carries error %d", e->error);
	if (err == 0) {
		f->st.acks_ok++;
	} else {
		f->st.nacks++;
		hist_add(&f->st.nack, err);
	}
	if (!dispatched(f, s))
		return;
	/*
	 * Strict family (resv_start_op 0): a reserved byte set is EINVAL
	 * before the command is looked up, and so are odd flags; with neither,
	 * an unknown command is EOPNOTSUPP.
	 */
	if ((s->cmd == 0 || s->cmd > CACHEPROBE_CMD_MAX) && !s->reserved &&
	    plain_flags(s->flags) && err != EOPNOTSUPP)
		fuzz_fail(f, "unknown command %u answered with error %d, not EOPNOTSUPP",
			  s->cmd, e->error);
	if (f->unpriv && err == 0 && !open_to_all(s->cmd))
		fuzz_fail(f, "command %u succeeded for an unprivileged user",
			  s->cmd);
}

/*
 * A reply's attributes must tile its payload exactly.  Returns the offset
 * of the first one that does not (@len if only padding is left over), or
 * -1 when all is well.
 */
static long bad_attr_offset(const unsigned char *p, size_t len)
{
	size_t off = 0;

	while (off + NLA_HDRLEN <= len) {
		const struct nlattr *a = (const struct nlattr *)(p + off);

		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > len)
			return (long)off;
		off += NLA_ALIGN(a->nla_len);
	}
	return off >= len ? -1 : (long)off;
}

static void check_reply(struct nlf *f, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const unsigned char *attrs;
	size_t len;
	long bad;

	f->st.replies++;
	if (nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN)) {
		fuzz_fail(f, "reply of %u bytes", nlh->nlmsg_len);
		return;
	}
	f->st.replies_by_cmd[g->cmd]++;
	attrs = (const unsigned char *)g + GENL_HDRLEN;
	len = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	bad = bad_attr_offset(attrs, len);
	if (bad >= 0) {
		const struct nlattr *a = (const struct nlattr *)(attrs + bad);

		fuzz_fail(f, "malformed attributes in a reply to command %u: %zu bytes of attributes, the one at byte %ld has type %u, nla_len %u",
			  g->cmd, len, bad,
			  (size_t)bad + NLA_HDRLEN <= len ? a->nla_type : 0,
			  (size_t)bad + NLA_HDRLEN <= len ? a->nla_len : 0);
	}
	if (f->unpriv && !open_to_all(g->cmd))
		fuzz_fail(f, "reply to command %u for an unprivileged user",
			  g->cmd);
}

static void check_datagram(struct nlf *f, ssize_t n)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)f->rx;

	for (; NLMSG_OK(nlh, (size_t)n); nlh = NLMSG_NEXT(nlh, n)) {
		if (nlh->nlmsg_type == NLMSG_ERROR)
			check_ack(f, nlh);
		else if (nlh->nlmsg_type == NLMSG_DONE)
			f->st.dones++;
		else if (nlh->nlmsg_type == f->fam)
			check_reply(f, nlh);
		else
			f->st.others++;
	}
	if (n >= (ssize_t)NLMSG_HDRLEN)
		fuzz_fail(f, "%zd bytes of the kernel's answer are no message", n);
}

/* Reads everything queued without blocking; the answers to a request are
 * queued before send() returns, so nothing is left behind. */
static void drain(struct nlf *f)
{
	bool any = false;
	ssize_t n;

	for (;;) {
		n = recv(f->fd, f->rx, RX_CAP, MSG_DONTWAIT);
		if (n > 0) {
			any = true;
			check_datagram(f, n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			hist_add(&f->st.recv_err, errno);
			if (errno == ENOBUFS)	/* overrun reported once */
				continue;
		}
		break;
	}
	if (!any)
		f->st.silent++;
}

/* Now and then flip how acks look, to cover both echo layouts. */
static void maybe_toggle_cap_ack(struct nlf *f)
{
	int on;

	if (!rng_pct(&f->rng, 1))
		return;
	on = (int)rng_below(&f->rng, 2);
	setsockopt(f->fd, SOL_NETLINK, NETLINK_CAP_ACK, &on, sizeof(on));
}

static void fuzz_one(struct nlf *f)
{
	size_t len;

	maybe_toggle_cap_ack(f);
	len = gen_datagram(f);
	if (f->index == f->dump)
		hexdump("datagram", f->index, f->tx, len);
	f->st.datagrams++;
	f->st.bytes += len;
	if (send(f->fd, f->tx, len, 0) < 0) {
		f->st.send_failed++;
		hist_add(&f->st.send_err, errno);
	}
	drain(f);
}

static void print_stats(const struct nlf *f, double secs)
{
	const struct nl_stats *st = &f->st;

	printf("nlfuzz[%s]: seed %#" PRIx64 ": %lu datagrams (%lu messages, %lu bytes) in %.1f s, %.0f/s\n",
	       f->who, f->seed, st->datagrams, st->messages, st->bytes, secs,
	       secs > 0 ? (double)st->datagrams / secs : 0.0);
	printf("  send-failed=%lu acked-ok=%lu nacked=%lu replies=%lu done=%lu other=%lu silent=%lu failed-checks=%lu\n",
	       st->send_failed, st->acks_ok, st->nacks, st->replies, st->dones,
	       st->others, st->silent, st->failures);
	printf("  replies by command:");
	for (int c = 0; c < 256; c++)
		if (st->replies_by_cmd[c])
			printf(" %d=%lu", c, st->replies_by_cmd[c]);
	printf("\n");
	hist_print("ack errors", &st->nack);
	hist_print("send errors", &st->send_err);
	hist_print("receive errors", &st->recv_err);
}

/* Fuzzes as the current user; 0 when every check held. */
static int run_phase(const char *who, bool unpriv, const struct fuzz_args *a)
{
	struct nlf *f = calloc(1, sizeof(*f));
	double t0;
	int ret;

	if (!f)
		return 2;
	f->who = who;
	f->unpriv = unpriv;
	f->dump = a->dump;
	/* Each identity its own stream, both derived from the one seed. */
	f->seed = a->seed;
	f->rng.s = a->seed + (unpriv ? 0x6e6f626f6479ULL : 0);
	f->fd = nl_open();
	f->fam = f->fd < 0 ? 0 : rawnl_family_id(f->fd);
	if (!f->fam) {
		printf("FUZZ-FAIL nlfuzz[%s]: no socket or no family \"%s\": %s\n",
		       who, CACHEPROBE_GENL_NAME, strerror(errno));
		free(f);
		return 1;
	}
	printf("nlfuzz[%s]: seed %#" PRIx64 ", %lu datagrams, family id %u\n",
	       who, a->seed, a->count, f->fam);
	fflush(stdout);
	t0 = now_sec();
	for (f->index = 0; f->index < (long)a->count; f->index++) {
		watchdog_tick(f->index);
		progress("nlfuzz", who, f->index);
		fuzz_one(f);
	}
	watchdog_stop();
	print_stats(f, now_sec() - t0);
	close(f->fd);
	ret = f->st.failures ? 1 : 0;
	if (!final_get_info(who))
		ret = 1;
	printf("NLFUZZ-SUMMARY as=%s datagrams=%lu messages=%lu acked-ok=%lu replies=%lu failed-checks=%lu result=%s\n",
	       who, f->st.datagrams, f->st.messages, f->st.acks_ok,
	       f->st.replies, f->st.failures, ret ? "FAIL" : "ok");
	fflush(stdout);
	free(f);
	return ret;
}

static int run_unprivileged(const struct fuzz_args *a)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		if (drop_privileges()) {
			printf("FUZZ-FAIL nlfuzz[nobody]: cannot become uid %d: %s\n",
			       NOBODY_ID, strerror(errno));
			_exit(1);
		}
		_exit(run_phase("nobody", true, a));
	}
	return wait_child(pid);
}

int main(int argc, char **argv)
{
	struct fuzz_args a;
	int ret = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &a, 100000)) {
		fprintf(stderr, "usage: %s [--count N] [--seed S] [--as root|nobody|both] [--dump I]\n",
			argv[0]);
		return 2;
	}
	watchdog_start();
	if (a.as & 1)
		ret |= run_phase("root", false, &a);
	if (a.as & 2)
		ret |= run_unprivileged(&a);
	printf("nlfuzz: %s (seed %#" PRIx64 ")\n", ret ? "FAILED" : "passed",
	       a.seed);
	return ret ? 1 : 0;
}
