// SPDX-License-Identifier: GPL-2.0
/*
 * rawtest: checks cacheprobe.ko's ABI from below the client library, with
 * hand-built netlink messages and ioctl structs, so that malformed requests
 * the library would never send are tried too.  Runs inside a test guest.
 *
 * Usage: rawtest root | rawtest unpriv
 *   root:   as root; every check of behaviour and bad input.
 *   unpriv: starts as root, opens /dev/cacheprobe, drops to uid 65534 with
 *           no capabilities, then checks that FLUSH is refused with EPERM
 *           on both transports while GET_INFO still works.
 * Prints "PASS name" or "FAIL name: why" per check; exit status 1 if any
 * check failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/cacheprobe.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

static int failures;

static void check(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	failures++;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* ---- netlink, by hand ---- */

struct nl_req {
	char buf[8192];
	size_t len;
};

struct nl_answer {
	int error;		/* positive errno, 0 for success */
	char msg[512];		/* extack message, if any */
	char reply[65536];	/* the reply's genl payload (attributes) */
	size_t reply_len;
};

static int nl_sock(void)
{
	int one = 1;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0) {
		perror("socket");
		exit(2);
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return fd;
}

static void nl_start(struct nl_req *r, uint16_t type, uint8_t cmd,
		     uint8_t version)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)r->buf;
	struct genlmsghdr *g = NLMSG_DATA(nlh);

	memset(r, 0, sizeof(*r));
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	g->cmd = cmd;
	g->version = version;
	r->len = NLMSG_LENGTH(GENL_HDRLEN);
}

static void nl_put(struct nl_req *r, uint16_t type, const void *data,
		   size_t len)
{
	struct nlattr *a = (struct nlattr *)(r->buf + NLMSG_ALIGN(r->len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	r->len = NLMSG_ALIGN(r->len) + NLA_ALIGN(a->nla_len);
}

static void nl_put_u32(struct nl_req *r, uint16_t type, uint32_t v)
{
	nl_put(r, type, &v, sizeof(v));
}

static void nl_parse_ack(struct nl_answer *ans, struct nlmsghdr *nlh)
{
	struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t off = sizeof(*e);
	struct nlattr *a;

	ans->error = -e->error;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off = NLMSG_ALIGN(off + e->msg.nlmsg_len - sizeof(struct nlmsghdr));
	else
		off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	while (NLMSG_HDRLEN + off + NLA_HDRLEN <= nlh->nlmsg_len) {
		a = (struct nlattr *)((char *)e + off);
		if (a->nla_len < NLA_HDRLEN)
			break;
		if (a->nla_type == NLMSGERR_ATTR_MSG)
			snprintf(ans->msg, sizeof(ans->msg), "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN),
				 (char *)a + NLA_HDRLEN);
		off += NLA_ALIGN(a->nla_len);
	}
}

/* Sends the request and collects the reply (if any) and the ack. */
static void nl_talk(int fd, struct nl_req *r, struct nl_answer *ans)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)r->buf;
	static char rx[1 << 17];
	ssize_t n;

	memset(ans, 0, sizeof(*ans));
	nlh->nlmsg_len = r->len;
	if (send(fd, r->buf, r->len, 0) < 0) {
		ans->error = errno;
		return;
	}
	for (;;) {
		n = recv(fd, rx, sizeof(rx), 0);
		if (n < 0) {
			ans->error = errno;
			return;
		}
		for (nlh = (struct nlmsghdr *)rx; NLMSG_OK(nlh, (size_t)n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				nl_parse_ack(ans, nlh);
				return;
			}
			ans->reply_len = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
			if (ans->reply_len > sizeof(ans->reply))
				ans->reply_len = sizeof(ans->reply);
			memcpy(ans->reply, (char *)NLMSG_DATA(nlh) + GENL_HDRLEN,
			       ans->reply_len);
		}
	}
}

/* Finds attribute @type in a flat attribute stream. */
static const struct nlattr *nl_find(const char *p, size_t len, uint16_t type)
{
	const struct nlattr *a;
	size_t off = 0;

	while (off + NLA_HDRLEN <= len) {
		a = (const struct nlattr *)(p + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > len)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		off += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

static uint32_t nl_attr_u32(const struct nlattr *a)
{
	uint32_t v;

	memcpy(&v, (const char *)a + NLA_HDRLEN, sizeof(v));
	return v;
}

static uint16_t family_id(int fd)
{
	struct nl_answer ans;
	struct nl_req r;
	const struct nlattr *a;

	nl_start(&r, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	nl_put(&r, CTRL_ATTR_FAMILY_NAME, CACHEPROBE_GENL_NAME,
	       sizeof(CACHEPROBE_GENL_NAME));
	nl_talk(fd, &r, &ans);
	a = nl_find(ans.reply, ans.reply_len, CTRL_ATTR_FAMILY_ID);
	if (ans.error || !a) {
		printf("FAIL nl-family: family not found (%s)\n",
		       strerror(ans.error));
		exit(1);
	}
	return (uint16_t)nl_attr_u32(a);
}

static void expect_nl(const char *name, const struct nl_answer *ans,
		      int want_errno, const char *want_msg)
{
	bool ok = ans->error == want_errno &&
		  (!want_msg || strstr(ans->msg, want_msg));

	check(ok, name, "errno %d (%s) msg \"%s\"; wanted errno %d msg \"%s\"",
	      ans->error, strerror(ans->error), ans->msg, want_errno,
	      want_msg ? want_msg : "(any)");
}

static long online_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

static void nl_flush_cpus(int fd, uint16_t fam, const uint64_t *mask,
			  size_t bytes, uint32_t method, struct nl_answer *ans)
{
	struct nl_req r;

	nl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	nl_put_u32(&r, CACHEPROBE_ATTR_FLUSH_METHOD, method);
	if (mask)
		nl_put(&r, CACHEPROBE_ATTR_CPUS, mask, bytes);
	nl_talk(fd, &r, ans);
}

static void test_nl_info(int fd, uint16_t fam)
{
	const struct nlattr *online, *abi;
	struct nl_answer ans;
	struct nl_req r;

	nl_start(&r, fam, CACHEPROBE_CMD_GET_INFO, CACHEPROBE_GENL_VERSION);
	nl_talk(fd, &r, &ans);
	online = nl_find(ans.reply, ans.reply_len,
			 CACHEPROBE_ATTR_NR_ONLINE_CPUS);
	abi = nl_find(ans.reply, ans.reply_len, CACHEPROBE_ATTR_ABI_VERSION);
	check(!ans.error && online && abi &&
	      nl_attr_u32(online) == online_cpus() &&
	      nl_attr_u32(abi) == CACHEPROBE_ABI_VERSION,
	      "nl-info", "error %d, online %u (guest %ld)", ans.error,
	      online ? nl_attr_u32(online) : 0, online_cpus());
}

static void test_nl_bad_requests(int fd, uint16_t fam)
{
	static const char oversized_mask[CACHEPROBE_CPUMASK_MAX_BYTES + 8];
	uint64_t mask[2] = { 0, 0 };
	struct nl_answer ans;
	struct nl_req r;

	nl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	nl_talk(fd, &r, &ans);
	expect_nl("nl-flush-missing-method", &ans, EINVAL, "FLUSH_METHOD");

	nl_flush_cpus(fd, fam, NULL, 0, 7, &ans);
	expect_nl("nl-flush-unknown-method", &ans, EINVAL,
		  "unknown flush method");

	nl_flush_cpus(fd, fam, mask, 8, CACHEPROBE_FLUSH_WBINVD, &ans);
	expect_nl("nl-flush-empty-set", &ans, EINVAL, "empty CPU set");

	mask[1] = 1;	/* CPU 64: beyond any test guest's nr_cpu_ids */
	nl_flush_cpus(fd, fam, mask, 16, CACHEPROBE_FLUSH_WBINVD, &ans);
	expect_nl("nl-flush-cpu-out-of-range", &ans, EINVAL, "out of range");

	mask[0] = 1;
	nl_flush_cpus(fd, fam, mask, 12, CACHEPROBE_FLUSH_WBINVD, &ans);
	expect_nl("nl-flush-bitmap-length", &ans, EINVAL, "multiple of 8");

	nl_start(&r, fam, CACHEPROBE_CMD_GET_INFO, CACHEPROBE_GENL_VERSION);
	nl_put_u32(&r, CACHEPROBE_ATTR_ABI_VERSION, 1);
	nl_talk(fd, &r, &ans);
	expect_nl("nl-info-rejects-attributes", &ans, EINVAL, NULL);

	nl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	nl_put_u32(&r, CACHEPROBE_ATTR_FLUSH_METHOD, CACHEPROBE_FLUSH_WBINVD);
	nl_put_u32(&r, CACHEPROBE_ATTR_NR_ONLINE_CPUS, 1);
	nl_talk(fd, &r, &ans);
	expect_nl("nl-flush-rejects-reply-attribute", &ans, EINVAL, NULL);

	nl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	nl_put_u32(&r, CACHEPROBE_ATTR_FLUSH_METHOD, CACHEPROBE_FLUSH_WBINVD);
	nl_put_u32(&r, 200, 1);
	nl_talk(fd, &r, &ans);
	expect_nl("nl-flush-rejects-unknown-attribute", &ans, EINVAL, NULL);

	nl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	nl_put(&r, CACHEPROBE_ATTR_FLUSH_METHOD, "\1", 1);
	nl_talk(fd, &r, &ans);
	expect_nl("nl-flush-short-u32", &ans, EINVAL,
		  "invalid attribute length");

	nl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	nl_put_u32(&r, CACHEPROBE_ATTR_FLUSH_METHOD, CACHEPROBE_FLUSH_WBINVD);
	nl_put(&r, CACHEPROBE_ATTR_CPUS, oversized_mask,
	       sizeof(oversized_mask));
	nl_talk(fd, &r, &ans);
	expect_nl("nl-flush-bitmap-too-long", &ans, ERANGE, NULL);

	nl_start(&r, fam, 99, CACHEPROBE_GENL_VERSION);
	nl_talk(fd, &r, &ans);
	expect_nl("nl-unknown-command", &ans, EOPNOTSUPP, NULL);

	nl_start(&r, fam, CACHEPROBE_CMD_GET_INFO, CACHEPROBE_GENL_VERSION);
	((struct genlmsghdr *)NLMSG_DATA((struct nlmsghdr *)r.buf))->reserved = 1;
	nl_talk(fd, &r, &ans);
	expect_nl("nl-reserved-header", &ans, EINVAL, NULL);
}

static int count_results(const struct nl_answer *ans, uint32_t *first_cpu)
{
	const struct nlattr *a, *cpu;
	size_t off = 0;
	int n = 0;

	while (off + NLA_HDRLEN <= ans->reply_len) {
		a = (const struct nlattr *)(ans->reply + off);
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) ==
		    CACHEPROBE_ATTR_FLUSH_RESULT) {
			cpu = nl_find((const char *)a + NLA_HDRLEN,
				      a->nla_len - NLA_HDRLEN,
				      CACHEPROBE_RESULT_CPU);
			if (cpu && n == 0)
				*first_cpu = nl_attr_u32(cpu);
			n++;
		}
		off += NLA_ALIGN(a->nla_len);
	}
	return n;
}

static void test_nl_flush(int fd, uint16_t fam)
{
	uint64_t mask[1] = { 1ULL << (online_cpus() - 1) };
	struct nl_answer ans;
	uint32_t first = ~0u;
	int n;

	nl_flush_cpus(fd, fam, mask, 8, CACHEPROBE_FLUSH_WBINVD, &ans);
	n = count_results(&ans, &first);
	check(!ans.error && n == 1 && first == online_cpus() - 1,
	      "nl-flush-last-cpu", "error %d, %d results, first cpu %u",
	      ans.error, n, first);

	nl_flush_cpus(fd, fam, NULL, 0, CACHEPROBE_FLUSH_WBINVD, &ans);
	n = count_results(&ans, &first);
	check(!ans.error && n == online_cpus() && first == 0,
	      "nl-flush-all-online", "error %d, %d results", ans.error, n);
}

/* ---- ioctl ---- */

struct ioc_msg {
	char text[CACHEPROBE_MSG_MAX];
};

static void head_init(struct cacheprobe_ioc_head *h, struct ioc_msg *m)
{
	memset(m, 0, sizeof(*m));
	h->msg = (uintptr_t)m->text;
	h->msg_len = sizeof(m->text);
}

static void expect_ioc(const char *name, int ret, int want_errno,
		       const struct ioc_msg *m, const char *want_msg)
{
	int got = ret < 0 ? errno : 0;
	bool ok = got == want_errno &&
		  (!want_msg || (m && strstr(m->text, want_msg)));

	check(ok, name, "errno %d (%s) msg \"%s\"; wanted errno %d msg \"%s\"",
	      got, strerror(got), m ? m->text : "", want_errno,
	      want_msg ? want_msg : "(any)");
}

static int ioc_flush(int dev, uint32_t method, const uint64_t *mask,
		     uint32_t bytes, struct cacheprobe_cpu_time *res,
		     uint32_t cap, struct ioc_msg *m,
		     struct cacheprobe_flush *out)
{
	struct cacheprobe_flush f = {0};

	head_init(&f.head, m);
	f.method = method;
	f.cpus = (uintptr_t)mask;
	f.cpus_bytes = bytes;
	f.results = (uintptr_t)res;
	f.results_cap = cap;
	if (out)
		*out = f;
	return ioctl(dev, CACHEPROBE_IOC_FLUSH, out ? out : &f);
}

static void test_ioc_info(int dev)
{
	uint64_t possible[2], online[2];
	struct cacheprobe_info info = {0};
	struct ioc_msg m;
	int ret;

	head_init(&info.head, &m);
	ret = ioctl(dev, CACHEPROBE_IOC_GET_INFO, &info);
	check(ret == 0 && info.nr_online_cpus == online_cpus() &&
	      info.abi_version == CACHEPROBE_ABI_VERSION &&
	      info.mask_bytes == 0 && info.module_version[0],
	      "ioc-info", "ret %d errno %d online %u", ret, errno,
	      info.nr_online_cpus);

	info.possible_cpus = (uintptr_t)possible;
	info.online_cpus = (uintptr_t)online;
	info.mask_bytes = 4;
	ret = ioctl(dev, CACHEPROBE_IOC_GET_INFO, &info);
	expect_ioc("ioc-info-mask-bytes-short", ret, EINVAL, &m,
		   "mask_bytes");

	memset(online, 0, sizeof(online));
	info.mask_bytes = sizeof(online);
	ret = ioctl(dev, CACHEPROBE_IOC_GET_INFO, &info);
	check(ret == 0 && info.mask_bytes == 8 &&
	      online[0] == (1ULL << online_cpus()) - 1,
	      "ioc-info-masks", "ret %d mask_bytes %u online %#llx", ret,
	      info.mask_bytes, (unsigned long long)online[0]);

	info.reserved[3] = 1;
	ret = ioctl(dev, CACHEPROBE_IOC_GET_INFO, &info);
	expect_ioc("ioc-info-reserved-garbage", ret, EINVAL, &m, "reserved");
}

static void test_ioc_numbers(int dev)
{
	char big[256] = {0};
	int ret;

	ret = ioctl(dev, _IOWR(CACHEPROBE_IOC_MAGIC, 99, struct cacheprobe_info),
		    big);
	expect_ioc("ioc-unknown-command", ret, ENOTTY, NULL, NULL);
	ret = ioctl(dev, _IOWR(CACHEPROBE_IOC_MAGIC, CACHEPROBE_CMD_GET_INFO,
			       uint64_t), big);
	expect_ioc("ioc-info-wrong-size", ret, ENOTTY, NULL, NULL);
	ret = ioctl(dev, _IOWR(CACHEPROBE_IOC_MAGIC, CACHEPROBE_CMD_FLUSH,
			       struct cacheprobe_info), big);
	expect_ioc("ioc-flush-wrong-size", ret, ENOTTY, NULL, NULL);
	ret = ioctl(dev, CACHEPROBE_IOC_GET_INFO, NULL);
	expect_ioc("ioc-info-null", ret, EFAULT, NULL, NULL);
}

/* The struct's tail lies on an inaccessible page: a short buffer. */
static void test_ioc_short_struct(int dev)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ret;

	if (map == MAP_FAILED) {
		check(false, "ioc-short-struct", "mmap: %s", strerror(errno));
		return;
	}
	mprotect(map + page, page, PROT_NONE);
	ret = ioctl(dev, CACHEPROBE_IOC_FLUSH, map + page - 24);
	expect_ioc("ioc-flush-short-struct", ret, EFAULT, NULL, NULL);
	ret = ioctl(dev, CACHEPROBE_IOC_GET_INFO, map + page - 40);
	expect_ioc("ioc-info-short-struct", ret, EFAULT, NULL, NULL);
	munmap(map, 2 * page);
}

static void test_ioc_flush_bad(int dev)
{
	struct cacheprobe_cpu_time res[64];
	uint64_t mask[2] = { 0, 0 };
	struct cacheprobe_flush f;
	struct ioc_msg m;
	int ret;

	ret = ioc_flush(dev, 7, NULL, 0, res, 64, &m, NULL);
	expect_ioc("ioc-flush-unknown-method", ret, EINVAL, &m,
		   "unknown flush method");
	ret = ioc_flush(dev, 0, NULL, 0, res, 64, &m, NULL);
	expect_ioc("ioc-flush-method-zero", ret, EINVAL, &m,
		   "unknown flush method");
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, mask, 8, res, 64, &m,
			NULL);
	expect_ioc("ioc-flush-empty-set", ret, EINVAL, &m, "empty CPU set");
	mask[1] = 1;
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, mask, 16, res, 64, &m,
			NULL);
	expect_ioc("ioc-flush-cpu-out-of-range", ret, EINVAL, &m,
		   "CPU 64 is not below");
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, mask, 12, res, 64, &m,
			NULL);
	expect_ioc("ioc-flush-bitmap-length", ret, EINVAL, &m, "cpus_bytes");
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, NULL, 8, res, 64, &m,
			NULL);
	expect_ioc("ioc-flush-bytes-without-mask", ret, EINVAL, &m,
		   "cpus_bytes");
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, NULL, 0, res, 1, &m,
			NULL);
	expect_ioc("ioc-flush-results-too-small", ret,
		   online_cpus() > 1 ? EINVAL : 0, &m,
		   online_cpus() > 1 ? "result array too small" : NULL);
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, NULL, 0, NULL, 0, &m,
			NULL);
	expect_ioc("ioc-flush-no-results", ret, EINVAL, &m, "no result array");
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, (uint64_t *)8, 8, res,
			64, &m, NULL);
	expect_ioc("ioc-flush-bad-mask-pointer", ret, EFAULT, NULL, NULL);
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, NULL, 0,
			(struct cacheprobe_cpu_time *)8, 64, &m, NULL);
	expect_ioc("ioc-flush-bad-results-pointer", ret, EFAULT, NULL, NULL);

	memset(&f, 0, sizeof(f));
	head_init(&f.head, &m);
	f.method = CACHEPROBE_FLUSH_WBINVD;
	f.results = (uintptr_t)res;
	f.results_cap = 64;
	f.reserved[0] = 0xdead;
	ret = ioctl(dev, CACHEPROBE_IOC_FLUSH, &f);
	expect_ioc("ioc-flush-reserved-garbage", ret, EINVAL, &m, "reserved");
	f.reserved[0] = 0;
	f.head.flags = 1;
	ret = ioctl(dev, CACHEPROBE_IOC_FLUSH, &f);
	expect_ioc("ioc-flush-head-flags", ret, EINVAL, &m, "flags");
}

static void test_ioc_flush_ok(int dev)
{
	struct cacheprobe_cpu_time res[64];
	uint64_t mask[1] = { 1 };
	struct cacheprobe_flush f;
	struct ioc_msg m;
	int ret;

	memset(res, 0xff, sizeof(res));
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, mask, 8, res, 64, &m,
			&f);
	check(ret == 0 && f.nr_results == 1 && res[0].cpu == 0 &&
	      res[1].cpu == 0xffffffffu, "ioc-flush-cpu0",
	      "ret %d errno %d nr %u cpu %u", ret, errno, f.nr_results,
	      res[0].cpu);
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, NULL, 0, res, 64, &m,
			&f);
	check(ret == 0 && f.nr_results == online_cpus() &&
	      res[f.nr_results - 1].cpu == online_cpus() - 1,
	      "ioc-flush-all-online", "ret %d errno %d nr %u", ret, errno,
	      f.nr_results);
}

static int run_root(void)
{
	int fd = nl_sock();
	uint16_t fam = family_id(fd);
	int dev = open("/dev/" CACHEPROBE_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	test_nl_info(fd, fam);
	test_nl_bad_requests(fd, fam);
	test_nl_flush(fd, fam);
	check(dev >= 0, "ioc-open", "open: %s", strerror(errno));
	if (dev >= 0) {
		test_ioc_info(dev);
		test_ioc_numbers(dev);
		test_ioc_short_struct(dev);
		test_ioc_flush_bad(dev);
		test_ioc_flush_ok(dev);
		close(dev);
	}
	close(fd);
	return failures ? 1 : 0;
}

static int drop_privileges(void)
{
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
		return -1;
	return getuid() == 65534 && geteuid() == 65534 ? 0 : -1;
}

static int run_unpriv(void)
{
	int dev = open("/dev/" CACHEPROBE_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	struct cacheprobe_cpu_time res[64];
	struct cacheprobe_info info = {0};
	struct nl_answer ans;
	struct ioc_msg m;
	uint16_t fam;
	int fd, ret;

	if (dev < 0 || drop_privileges()) {
		check(false, "unpriv-setup", "open or setuid: %s",
		      strerror(errno));
		return 1;
	}
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, NULL, 0, res, 64, &m,
			NULL);
	expect_ioc("unpriv-ioc-flush-eperm", ret, EPERM, &m, "CAP_SYS_ADMIN");
	head_init(&info.head, &m);
	ret = ioctl(dev, CACHEPROBE_IOC_GET_INFO, &info);
	check(ret == 0 && info.nr_online_cpus == online_cpus(),
	      "unpriv-ioc-info", "ret %d errno %d", ret, errno);

	fd = nl_sock();
	fam = family_id(fd);
	nl_flush_cpus(fd, fam, NULL, 0, CACHEPROBE_FLUSH_WBINVD, &ans);
	expect_nl("unpriv-nl-flush-eperm", &ans, EPERM, "CAP_SYS_ADMIN");
	test_nl_info(fd, fam);
	close(fd);
	close(dev);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "root"))
		return run_root();
	if (argc == 2 && !strcmp(argv[1], "unpriv"))
		return run_unpriv();
	fprintf(stderr, "usage: %s root|unpriv\n", argv[0]);
	return 2;
}
