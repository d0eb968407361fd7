// SPDX-License-Identifier: GPL-2.0
/*
 * rawtest: checks cacheprobe.ko's ABI from below the client library, with
 * hand-built netlink messages and ioctl structs, so that malformed requests
 * the library would never send are tried too.  Runs inside a test guest.
 *
 * Usage: rawtest root | unpriv | kcmd | limit | slots | long T [CMD] |
 *                wait T | small T | fault WHAT | abi
 *   root:   as root; every check of behaviour and bad input.
 *   unpriv: starts as root, opens /dev/cacheprobe, drops to uid 65534 with
 *           no capabilities, then checks that FLUSH and the measurement
 *           commands are refused with EPERM on both transports while
 *           GET_INFO still works.
 *   kcmd:   the measurement commands (ABI 2) over both transports: result
 *           shapes, the interrupt-off window bound, bad input; CHASE's
 *           PAGES, CHASES and SEED and its reply's PAGE_BYTES (ABI 4).
 *   chase-warm: on the test build, CHASE's walk before its first sample
 *           (PREPARE WARM, ABI 6) counted in warm_rounds: four laps of
 *           every cycle, once per request; none with another preparation.
 *   chase-dither: on the test build, CHASE's random waits before its
 *           samples counted in dither_spins: about half the longest wait
 *           each, drawn from SEED.
 *   chase-options: kcmd's CHASE checks of ABI 4 alone (PAGES, CHASES,
 *           SEED, PAGE_BYTES), run again on the test build to see that
 *           none of them leaves an object behind.
 *   limit:  with max_buffer_mb small, buffers of exactly the limit are
 *           accepted and the next valid size is E2BIG.
 *   slots:  with max_buffer_mb at its largest, CHASE and ACCESS buffers
 *           within it but of more than U32_MAX slots are E2BIG, refused
 *           before anything is allocated.
 *   long T [CMD]: one long CMD (pingpong, bounce, xfer, chase, or
 *           chase-warm: a CHASE of 128 MiB with PREPARE WARM and two
 *           short samples, mostly building the chain and the walk before
 *           the samples; default pingpong) over transport T (netlink or
 *           ioctl), to be killed;
 *           prints "started at NS" first and "finished at NS: errno E
 *           MSG" (CLOCK_MONOTONIC) if it completes.
 *   long-handled T: the same with a SIGUSR1 handler; prints the errno.
 *   wait T: one short CHASE with a SIGUSR1 handler, printed the same way;
 *           started while another client's measurement runs, it waits.
 *   small T: a few short measurements over T; exit 0 when each succeeded.
 *   concurrent T: the same, also accepting a clean error (an errno with
 *           the module's message); for several clients at once.
 *   overflow: with max_irqoff_us at 10, a long sample fails (EOVERFLOW).
 *   offline CPU: with CPU offline, every command refuses it (EINVAL).
 *   abi:    prints the header's genl family version ("version N") and
 *           its command ids ("ops 1 2 ..."), for the genl listing check.
 *   wbnoinvd assumed: the test build with fault_inject=4; GET_INFO
 *           reports WBNOINVD and FLUSH with it succeeds on every CPU.
 *   fault WHAT: with the test module's fault_inject set by the caller:
 *           "timeout" expects ETIMEDOUT from every multi-CPU command,
 *           "nomem" ENOMEM from every command, "wrongcpu" EIO from every
 *           command, over both transports.
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
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "measure/dither.h"
#include "rawnl.h"

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

static int nl_sock(void)
{
	int fd = rawnl_socket();

	if (fd < 0) {
		perror("socket");
		exit(2);
	}
	return fd;
}

static uint16_t family_id(int fd)
{
	uint16_t id = rawnl_family_id(fd);

	if (!id) {
		printf("FAIL nl-family: family \"%s\" not found\n",
		       CACHEPROBE_GENL_NAME);
		exit(1);
	}
	return id;
}

static void expect_nl(const char *name, const struct rawnl_answer *ans,
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

/* @r keeps the request, so a check can find where its attributes lie. */
static void nl_flush_cpus(int fd, uint16_t fam, struct rawnl_req *r,
			  const uint64_t *mask, size_t bytes, uint32_t method,
			  struct rawnl_answer *ans)
{
	rawnl_start(r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	rawnl_put_u32(r, CACHEPROBE_ATTR_FLUSH_METHOD, method);
	if (mask)
		rawnl_put(r, CACHEPROBE_ATTR_CPUS, mask, bytes);
	rawnl_talk(fd, r, ans);
}

/*
 * The extended ack must point at the attribute at fault, the way a tool
 * shows the user which input was wrong: NLMSGERR_ATTR_OFFS is the byte
 * offset of that attribute in the request.
 */
static void expect_blamed(const char *name, const struct rawnl_req *r,
			  const struct rawnl_answer *ans, uint16_t attr)
{
	long want = rawnl_offset_of(r, attr);

	check(want >= 0 && ans->bad_offset == want, name,
	      "extack offset %ld; attribute %u is at offset %ld",
	      ans->bad_offset, attr, want);
}

/* NR_CPU_IDS from GET_INFO: the first CPU id the module must refuse. */
static uint32_t nl_nr_cpu_ids(int fd, uint16_t fam)
{
	struct rawnl_answer ans;
	struct rawnl_req r;
	uint32_t ids = 0;

	rawnl_start(&r, fam, CACHEPROBE_CMD_GET_INFO, CACHEPROBE_GENL_VERSION);
	rawnl_talk(fd, &r, &ans);
	if (ans.error || rawnl_find_u32(ans.reply, ans.reply_len,
					CACHEPROBE_ATTR_NR_CPU_IDS, &ids))
		return 0;
	return ids;
}

static void test_nl_info(int fd, uint16_t fam)
{
	const struct nlattr *online, *abi;
	struct rawnl_answer ans;
	struct rawnl_req r;

	rawnl_start(&r, fam, CACHEPROBE_CMD_GET_INFO, CACHEPROBE_GENL_VERSION);
	rawnl_talk(fd, &r, &ans);
	online = rawnl_find(ans.reply, ans.reply_len,
			 CACHEPROBE_ATTR_NR_ONLINE_CPUS);
	abi = rawnl_find(ans.reply, ans.reply_len, CACHEPROBE_ATTR_ABI_VERSION);
	check(!ans.error && online && abi &&
	      rawnl_u32(online) == online_cpus() &&
	      rawnl_u32(abi) == CACHEPROBE_ABI_VERSION,
	      "nl-info", "error %d, online %u (guest %ld)", ans.error,
	      online ? rawnl_u32(online) : 0, online_cpus());
}

static void test_nl_bad_requests(int fd, uint16_t fam)
{
	static const char oversized_mask[CACHEPROBE_CPUMASK_MAX_BYTES + 8];
	uint64_t mask[2] = { 0, 0 };
	struct rawnl_answer ans;
	struct rawnl_req r;
	uint32_t ids;

	rawnl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	rawnl_talk(fd, &r, &ans);
	expect_nl("nl-flush-missing-method", &ans, EINVAL, "FLUSH_METHOD");
	check(ans.missing_type == CACHEPROBE_ATTR_FLUSH_METHOD,
	      "nl-flush-missing-method-type",
	      "extack names missing attribute %ld, wanted FLUSH_METHOD (%d)",
	      ans.missing_type, CACHEPROBE_ATTR_FLUSH_METHOD);

	nl_flush_cpus(fd, fam, &r, NULL, 0, 7, &ans);
	expect_nl("nl-flush-unknown-method", &ans, EINVAL,
		  "unknown flush method");
	expect_blamed("nl-flush-unknown-method-attr", &r, &ans,
		      CACHEPROBE_ATTR_FLUSH_METHOD);

	nl_flush_cpus(fd, fam, &r, mask, 8, CACHEPROBE_FLUSH_WBINVD, &ans);
	expect_nl("nl-flush-empty-set", &ans, EINVAL, "empty CPU set");
	expect_blamed("nl-flush-empty-set-attr", &r, &ans,
		      CACHEPROBE_ATTR_CPUS);

	mask[1] = 1;	/* CPU 64: beyond any test guest's nr_cpu_ids */
	nl_flush_cpus(fd, fam, &r, mask, 16, CACHEPROBE_FLUSH_WBINVD, &ans);
	expect_nl("nl-flush-cpu-out-of-range", &ans, EINVAL, "out of range");
	expect_blamed("nl-flush-cpu-out-of-range-attr", &r, &ans,
		      CACHEPROBE_ATTR_CPUS);
	mask[1] = 0;

	/* The first id past the end: an off-by-one would accept it. */
	ids = nl_nr_cpu_ids(fd, fam);
	if (ids && ids < 64) {
		mask[0] = 1ULL << ids;
		nl_flush_cpus(fd, fam, &r, mask, 8, CACHEPROBE_FLUSH_WBINVD,
			      &ans);
		expect_nl("nl-flush-cpu-nr-cpu-ids", &ans, EINVAL,
			  "out of range");
		expect_blamed("nl-flush-cpu-nr-cpu-ids-attr", &r, &ans,
			      CACHEPROBE_ATTR_CPUS);
	} else {
		check(false, "nl-flush-cpu-nr-cpu-ids",
		      "GET_INFO gave nr_cpu_ids %u (wanted 1 to 63)", ids);
	}

	mask[0] = 1;
	mask[1] = 1;
	nl_flush_cpus(fd, fam, &r, mask, 12, CACHEPROBE_FLUSH_WBINVD, &ans);
	expect_nl("nl-flush-bitmap-length", &ans, EINVAL, "multiple of 8");

	rawnl_start(&r, fam, CACHEPROBE_CMD_GET_INFO, CACHEPROBE_GENL_VERSION);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_ABI_VERSION, 1);
	rawnl_talk(fd, &r, &ans);
	expect_nl("nl-info-rejects-attributes", &ans, EINVAL, NULL);

	rawnl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_FLUSH_METHOD, CACHEPROBE_FLUSH_WBINVD);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_NR_ONLINE_CPUS, 1);
	rawnl_talk(fd, &r, &ans);
	expect_nl("nl-flush-rejects-reply-attribute", &ans, EINVAL, NULL);

	rawnl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_FLUSH_METHOD, CACHEPROBE_FLUSH_WBINVD);
	rawnl_put_u32(&r, 200, 1);
	rawnl_talk(fd, &r, &ans);
	expect_nl("nl-flush-rejects-unknown-attribute", &ans, EINVAL, NULL);

	rawnl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	rawnl_put(&r, CACHEPROBE_ATTR_FLUSH_METHOD, "\1", 1);
	rawnl_talk(fd, &r, &ans);
	expect_nl("nl-flush-short-u32", &ans, EINVAL,
		  "invalid attribute length");

	rawnl_start(&r, fam, CACHEPROBE_CMD_FLUSH, CACHEPROBE_GENL_VERSION);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_FLUSH_METHOD, CACHEPROBE_FLUSH_WBINVD);
	rawnl_put(&r, CACHEPROBE_ATTR_CPUS, oversized_mask,
	       sizeof(oversized_mask));
	rawnl_talk(fd, &r, &ans);
	expect_nl("nl-flush-bitmap-too-long", &ans, ERANGE, NULL);

	rawnl_start(&r, fam, 99, CACHEPROBE_GENL_VERSION);
	rawnl_talk(fd, &r, &ans);
	expect_nl("nl-unknown-command", &ans, EOPNOTSUPP, NULL);

	rawnl_start(&r, fam, CACHEPROBE_CMD_GET_INFO, CACHEPROBE_GENL_VERSION);
	((struct genlmsghdr *)NLMSG_DATA((struct nlmsghdr *)r.buf))->reserved = 1;
	rawnl_talk(fd, &r, &ans);
	expect_nl("nl-reserved-header", &ans, EINVAL, NULL);
}

static int count_results(const struct rawnl_answer *ans, uint32_t *first_cpu)
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
			cpu = rawnl_find((const char *)a + NLA_HDRLEN,
				      a->nla_len - NLA_HDRLEN,
				      CACHEPROBE_RESULT_CPU);
			if (cpu && n == 0)
				*first_cpu = rawnl_u32(cpu);
			n++;
		}
		off += NLA_ALIGN(a->nla_len);
	}
	return n;
}

static void test_nl_flush(int fd, uint16_t fam)
{
	uint64_t mask[1] = { 1ULL << (online_cpus() - 1) };
	struct rawnl_answer ans;
	struct rawnl_req r;
	uint32_t first = ~0u;
	int n;

	nl_flush_cpus(fd, fam, &r, mask, 8, CACHEPROBE_FLUSH_WBINVD, &ans);
	n = count_results(&ans, &first);
	check(!ans.error && n == 1 && first == online_cpus() - 1,
	      "nl-flush-last-cpu", "error %d, %d results, first cpu %u",
	      ans.error, n, first);

	nl_flush_cpus(fd, fam, &r, NULL, 0, CACHEPROBE_FLUSH_WBINVD, &ans);
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

	info.reserved = 1;
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

/* The first id past the end: an off-by-one would accept it. */
static void test_ioc_flush_nr_cpu_ids(int dev)
{
	struct cacheprobe_cpu_time res[64];
	struct cacheprobe_info info = {0};
	uint64_t mask[1];
	struct ioc_msg m;
	char want[64];
	int ret;

	head_init(&info.head, &m);
	if (ioctl(dev, CACHEPROBE_IOC_GET_INFO, &info) ||
	    !info.nr_cpu_ids || info.nr_cpu_ids >= 64) {
		check(false, "ioc-flush-cpu-nr-cpu-ids",
		      "GET_INFO: errno %d, nr_cpu_ids %u (wanted 1 to 63)",
		      errno, info.nr_cpu_ids);
		return;
	}
	mask[0] = 1ULL << info.nr_cpu_ids;
	snprintf(want, sizeof(want), "CPU %u is not below", info.nr_cpu_ids);
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, mask, 8, res, 64, &m,
			NULL);
	expect_ioc("ioc-flush-cpu-nr-cpu-ids", ret, EINVAL, &m, want);
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
	test_ioc_flush_nr_cpu_ids(dev);
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

/* Whether /proc/cpuinfo lists @flag among the first CPU's flags. */
static bool cpuinfo_has(const char *flag)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	static char line[16384];
	bool found = false;
	char *p, *save;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) || !(p = strchr(line, ':')))
			continue;
		for (p = strtok_r(p + 1, " \t\n", &save); p;
		     p = strtok_r(NULL, " \t\n", &save))
			found = found || !strcmp(p, flag);
		break;
	}
	fclose(f);
	return found;
}

/*
 * WBNOINVD through both transports: every online CPU flushed where the CPU
 * has it (or the test build assumes it), EOPNOTSUPP blaming FLUSH_METHOD
 * otherwise; GET_INFO's feature bit agrees either way.
 */
static void test_wbnoinvd(int fd, uint16_t fam, int dev, bool present)
{
	struct cacheprobe_cpu_time res[64];
	struct cacheprobe_info info = {0};
	const struct nlattr *feat;
	struct cacheprobe_flush f;
	struct rawnl_answer ans;
	struct rawnl_req r;
	struct ioc_msg m;
	uint32_t first = ~0u;
	uint64_t bits = 0;
	int n, ret;

	rawnl_start(&r, fam, CACHEPROBE_CMD_GET_INFO, CACHEPROBE_GENL_VERSION);
	rawnl_talk(fd, &r, &ans);
	feat = rawnl_find(ans.reply, ans.reply_len, CACHEPROBE_ATTR_FEATURES);
	if (feat)
		memcpy(&bits, (const char *)feat + NLA_HDRLEN, sizeof(bits));
	check(!ans.error && feat &&
	      !!(bits & CACHEPROBE_FEAT_WBNOINVD) == present,
	      "nl-info-wbnoinvd-flag", "error %d, features %#llx, wanted the flag %s",
	      ans.error, (unsigned long long)bits, present ? "set" : "clear");
	head_init(&info.head, &m);
	ret = ioctl(dev, CACHEPROBE_IOC_GET_INFO, &info);
	check(!ret && !!(info.features & CACHEPROBE_FEAT_WBNOINVD) == present,
	      "ioc-info-wbnoinvd-flag", "ret %d, features %#llx, wanted the flag %s",
	      ret, (unsigned long long)info.features,
	      present ? "set" : "clear");

	nl_flush_cpus(fd, fam, &r, NULL, 0, CACHEPROBE_FLUSH_WBNOINVD, &ans);
	if (present) {
		n = count_results(&ans, &first);
		check(!ans.error && n == online_cpus() && first == 0,
		      "nl-wbnoinvd", "errno %d msg \"%s\", %d results (%ld CPUs online)",
		      ans.error, ans.msg, n, online_cpus());
	} else {
		expect_nl("nl-wbnoinvd-eopnotsupp", &ans, EOPNOTSUPP,
			  "WBNOINVD not supported");
		expect_blamed("nl-wbnoinvd-eopnotsupp-attr", &r, &ans,
			      CACHEPROBE_ATTR_FLUSH_METHOD);
	}
	memset(res, 0xff, sizeof(res));
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBNOINVD, NULL, 0, res, 64, &m,
			&f);
	if (present)
		check(ret == 0 && f.nr_results == online_cpus() &&
		      res[0].cpu == 0 &&
		      res[f.nr_results - 1].cpu == online_cpus() - 1,
		      "ioc-wbnoinvd", "ret %d errno %d msg \"%s\", %u results",
		      ret, errno, m.text, f.nr_results);
	else
		expect_ioc("ioc-wbnoinvd-eopnotsupp", ret, EOPNOTSUPP, &m,
			   "WBNOINVD not supported");
}

/* With @cpu offline, FLUSH refuses it on both transports. */
static void test_flush_offline(int fd, uint16_t fam, int dev, uint32_t cpu)
{
	struct cacheprobe_cpu_time res[64];
	uint64_t mask[1] = { 1ULL << cpu };
	struct rawnl_answer ans;
	struct rawnl_req r;
	struct ioc_msg m;
	int ret;

	nl_flush_cpus(fd, fam, &r, mask, 8, CACHEPROBE_FLUSH_WBINVD, &ans);
	expect_nl("nl-flush-offline", &ans, EINVAL, "CPU is not online");
	expect_blamed("nl-flush-offline-attr", &r, &ans, CACHEPROBE_ATTR_CPUS);
	ret = ioc_flush(dev, CACHEPROBE_FLUSH_WBINVD, mask, 8, res, 64, &m,
			NULL);
	expect_ioc("ioc-flush-offline", ret, EINVAL, &m, "CPU is not online");
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
		test_wbnoinvd(fd, fam, dev, cpuinfo_has("wbnoinvd"));
		close(dev);
	}
	close(fd);
	return failures ? 1 : 0;
}

/* ---- measurement commands (ABI 2) ---- */

#define K_MAX_CPUS 8
#define K_MAX_SAMPLES 64
/* A series CPU the transport does not report. */
#define K_NO_CPU 0xffffffffu

struct kreq {
	uint8_t cmd;
	uint32_t cpus[K_MAX_CPUS];
	uint32_t nr_cpus;
	uint32_t samples;
	uint64_t size;
	uint32_t ops, stride, order, prepare, variant, width, offset, distance;
	uint32_t delay;
	/* CHASE, ABI 4: sent as given (0: the default), SEED if has_seed;
	 * abi3 sends none of them (netlink) or zeros (ioctl), as an ABI 3
	 * caller does. */
	uint32_t pages, chases;
	uint64_t seed;
	bool has_seed, abi3;
};

struct kres {
	int error;		/* positive errno */
	char msg[512];
	uint32_t samples, ops, retries, nr_series;
	uint64_t window_cycles, window_nsec, windows;
	uint64_t page_bytes;	/* CHASE's PAGE_BYTES, 0 when absent */
	/* ABI 4: MISSED_ROUNDS and DISTURBED, ~0u when absent (netlink). */
	uint32_t missed_rounds, disturbed;
	uint32_t series_cpu[K_MAX_CPUS];
	uint64_t values[K_MAX_CPUS][K_MAX_SAMPLES];
};

static const char *cmd_name(uint8_t cmd)
{
	switch (cmd) {
	case CACHEPROBE_CMD_CHASE: return "chase";
	case CACHEPROBE_CMD_ACCESS: return "access";
	case CACHEPROBE_CMD_PINGPONG: return "pingpong";
	case CACHEPROBE_CMD_BOUNCE: return "bounce";
	case CACHEPROBE_CMD_XFER: return "xfer";
	}
	return "?";
}

static uint64_t nl_attr_u64(const struct nlattr *a)
{
	uint64_t v;

	memcpy(&v, (const char *)a + NLA_HDRLEN, sizeof(v));
	return v;
}

/* The attributes each command's policy accepts, all of them sent. */
static void k_nl_build(struct rawnl_req *r, uint16_t fam, const struct kreq *q)
{
	rawnl_start(r, fam, q->cmd, CACHEPROBE_GENL_VERSION);
	rawnl_put(r, CACHEPROBE_ATTR_CPU_LIST, q->cpus,
	       q->nr_cpus * sizeof(uint32_t));
	rawnl_put_u32(r, CACHEPROBE_ATTR_SAMPLES, q->samples);
	switch (q->cmd) {
	case CACHEPROBE_CMD_CHASE:
		rawnl_put_u64(r, CACHEPROBE_ATTR_SIZE, q->size);
		rawnl_put_u32(r, CACHEPROBE_ATTR_OPS, q->ops);
		rawnl_put_u32(r, CACHEPROBE_ATTR_STRIDE, q->stride);
		rawnl_put_u32(r, CACHEPROBE_ATTR_ORDER, q->order);
		rawnl_put_u32(r, CACHEPROBE_ATTR_PREPARE, q->prepare);
		if (q->abi3)
			break;
		rawnl_put_u32(r, CACHEPROBE_ATTR_PAGES, q->pages);
		rawnl_put_u32(r, CACHEPROBE_ATTR_CHASES, q->chases);
		if (q->has_seed)
			rawnl_put_u64(r, CACHEPROBE_ATTR_SEED, q->seed);
		break;
	case CACHEPROBE_CMD_ACCESS:
		rawnl_put_u64(r, CACHEPROBE_ATTR_SIZE, q->size);
		rawnl_put_u32(r, CACHEPROBE_ATTR_OPS, q->ops);
		rawnl_put_u32(r, CACHEPROBE_ATTR_STRIDE, q->stride);
		rawnl_put_u32(r, CACHEPROBE_ATTR_WIDTH, q->width);
		rawnl_put_u32(r, CACHEPROBE_ATTR_OFFSET, q->offset);
		rawnl_put_u32(r, CACHEPROBE_ATTR_VARIANT, q->variant);
		if (q->has_seed)
			rawnl_put_u64(r, CACHEPROBE_ATTR_SEED, q->seed);
		break;
	case CACHEPROBE_CMD_PINGPONG:
		rawnl_put_u32(r, CACHEPROBE_ATTR_OPS, q->ops);
		rawnl_put_u32(r, CACHEPROBE_ATTR_VARIANT, q->variant);
		break;
	case CACHEPROBE_CMD_BOUNCE:
		rawnl_put_u32(r, CACHEPROBE_ATTR_OPS, q->ops);
		rawnl_put_u32(r, CACHEPROBE_ATTR_VARIANT, q->variant);
		rawnl_put_u32(r, CACHEPROBE_ATTR_WIDTH, q->width);
		rawnl_put_u32(r, CACHEPROBE_ATTR_DISTANCE, q->distance);
		break;
	case CACHEPROBE_CMD_XFER:
		rawnl_put_u64(r, CACHEPROBE_ATTR_SIZE, q->size);
		rawnl_put_u32(r, CACHEPROBE_ATTR_VARIANT, q->variant);
		rawnl_put_u32(r, CACHEPROBE_ATTR_ORDER, q->order);
		rawnl_put_u32(r, CACHEPROBE_ATTR_DELAY, q->delay);
		break;
	}
}

static void k_nl_parse(const struct rawnl_answer *ans, struct kres *k)
{
	const struct nlattr *a, *cpu, *vals;
	size_t off = 0, n;

	a = rawnl_find(ans->reply, ans->reply_len, CACHEPROBE_ATTR_SAMPLES);
	k->samples = a ? rawnl_u32(a) : 0;
	a = rawnl_find(ans->reply, ans->reply_len, CACHEPROBE_ATTR_OPS);
	k->ops = a ? rawnl_u32(a) : 0;
	a = rawnl_find(ans->reply, ans->reply_len, CACHEPROBE_ATTR_RETRIES);
	k->retries = a ? rawnl_u32(a) : 0;
	a = rawnl_find(ans->reply, ans->reply_len,
		    CACHEPROBE_ATTR_WINDOW_MAX_CYCLES);
	k->window_cycles = a ? nl_attr_u64(a) : 0;
	a = rawnl_find(ans->reply, ans->reply_len,
		    CACHEPROBE_ATTR_WINDOW_MAX_NSEC);
	k->window_nsec = a ? nl_attr_u64(a) : 0;
	a = rawnl_find(ans->reply, ans->reply_len, CACHEPROBE_ATTR_WINDOWS);
	k->windows = a ? nl_attr_u64(a) : 0;
	a = rawnl_find(ans->reply, ans->reply_len, CACHEPROBE_ATTR_PAGE_BYTES);
	k->page_bytes = a ? nl_attr_u64(a) : 0;
	a = rawnl_find(ans->reply, ans->reply_len,
		       CACHEPROBE_ATTR_MISSED_ROUNDS);
	k->missed_rounds = a ? rawnl_u32(a) : ~0u;
	a = rawnl_find(ans->reply, ans->reply_len, CACHEPROBE_ATTR_DISTURBED);
	k->disturbed = a ? rawnl_u32(a) : ~0u;
	while (off + NLA_HDRLEN <= ans->reply_len) {
		a = (const struct nlattr *)(ans->reply + off);
		if (a->nla_len < NLA_HDRLEN)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == CACHEPROBE_ATTR_SERIES &&
		    k->nr_series < K_MAX_CPUS) {
			cpu = rawnl_find((const char *)a + NLA_HDRLEN,
				      a->nla_len - NLA_HDRLEN,
				      CACHEPROBE_SERIES_CPU);
			vals = rawnl_find((const char *)a + NLA_HDRLEN,
				       a->nla_len - NLA_HDRLEN,
				       CACHEPROBE_SERIES_VALUES);
			k->series_cpu[k->nr_series] = cpu ? rawnl_u32(cpu) :
							    K_NO_CPU - 1;
			n = vals ? (vals->nla_len - NLA_HDRLEN) / 8 : 0;
			if (n > K_MAX_SAMPLES)
				n = K_MAX_SAMPLES;
			if (vals)
				memcpy(k->values[k->nr_series],
				       (const char *)vals + NLA_HDRLEN, n * 8);
			if (n != k->samples)
				k->samples = ~0u;	/* shape mismatch */
			k->nr_series++;
		}
		off += NLA_ALIGN(a->nla_len);
	}
}

static void k_nl(int fd, uint16_t fam, const struct kreq *q, struct kres *k)
{
	static struct rawnl_answer ans;
	struct rawnl_req r;

	memset(k, 0, sizeof(*k));
	k_nl_build(&r, fam, q);
	rawnl_talk(fd, &r, &ans);
	k->error = ans.error;
	snprintf(k->msg, sizeof(k->msg), "%s", ans.msg);
	if (!ans.error)
		k_nl_parse(&ans, k);
}

union kioc {
	struct cacheprobe_chase chase;
	struct cacheprobe_access access;
	struct cacheprobe_pingpong pingpong;
	struct cacheprobe_bounce bounce;
	struct cacheprobe_xfer xfer;
};

static unsigned long k_ioc_build(union kioc *u, const struct kreq *q)
{
	memset(u, 0, sizeof(*u));
	switch (q->cmd) {
	case CACHEPROBE_CMD_CHASE:
		u->chase.size = q->size;
		u->chase.stride = q->stride;
		u->chase.order = q->order;
		u->chase.hops = q->ops;
		u->chase.prepare = q->prepare;
		if (q->abi3)
			return CACHEPROBE_IOC_CHASE;
		u->chase.pages = q->pages;
		u->chase.chases = q->chases;
		u->chase.seed = q->has_seed ? q->seed : 0;
		return CACHEPROBE_IOC_CHASE;
	case CACHEPROBE_CMD_ACCESS:
		u->access.size = q->size;
		u->access.stride = q->stride;
		u->access.width = q->width;
		u->access.offset = q->offset;
		u->access.variant = q->variant;
		u->access.accesses = q->ops;
		u->access.seed = q->has_seed ? q->seed : 0;
		return CACHEPROBE_IOC_ACCESS;
	case CACHEPROBE_CMD_PINGPONG:
		u->pingpong.variant = q->variant;
		u->pingpong.round_trips = q->ops;
		return CACHEPROBE_IOC_PINGPONG;
	case CACHEPROBE_CMD_BOUNCE:
		u->bounce.variant = q->variant;
		u->bounce.width = q->width;
		u->bounce.distance = q->distance;
		u->bounce.increments = q->ops;
		return CACHEPROBE_IOC_BOUNCE;
	default:
		u->xfer.size = q->size;
		u->xfer.variant = q->variant;
		u->xfer.order = q->order;
		u->xfer.delay = q->delay;
		return CACHEPROBE_IOC_XFER;
	}
}

static void k_ioc(int dev, const struct kreq *q, struct kres *k)
{
	static uint64_t values[CACHEPROBE_MAX_VALUES];
	struct ioc_msg m;
	union kioc u;
	/* Every struct starts with the head, then the run. */
	struct cacheprobe_run *run = &u.chase.run;
	unsigned long nr = k_ioc_build(&u, q);
	uint32_t i, j;

	memset(k, 0, sizeof(*k));
	head_init(&u.chase.head, &m);
	run->cpus = (uintptr_t)q->cpus;
	run->nr_cpus = q->nr_cpus;
	run->samples = q->samples;
	run->values = (uintptr_t)values;
	run->values_cap = CACHEPROBE_MAX_VALUES;
	if (ioctl(dev, nr, &u) < 0) {
		k->error = errno;
		snprintf(k->msg, sizeof(k->msg), "%s", m.text);
		return;
	}
	k->samples = run->samples;
	k->ops = run->ops;
	k->retries = run->retries;
	k->window_cycles = run->window_max_cycles;
	k->window_nsec = run->window_max_nsec;
	k->windows = run->windows;
	k->page_bytes = run->page_bytes;
	k->missed_rounds = run->missed_rounds;
	k->disturbed = run->disturbed;
	k->nr_series = run->nr_series;
	if (run->nr_values != run->nr_series * run->samples)
		k->samples = ~0u;
	for (i = 0; i < k->nr_series && i < K_MAX_CPUS; i++) {
		/*
		 * The ioctl reports no CPU per series (see struct
		 * cacheprobe_run); the module's own check is tested with
		 * fault_inject 8 ("fault wrongcpu").
		 */
		k->series_cpu[i] = K_NO_CPU;
		for (j = 0; j < run->samples && j < K_MAX_SAMPLES; j++)
			k->values[i][j] = values[i * run->samples + j];
	}
}

struct kctx {
	int fd;
	uint16_t fam;
	int dev;
	uint64_t max_irqoff_ns;
	uint64_t max_buffer;
	uint32_t line;
	uint64_t features;
	uint32_t max_chases;
};

static void k_call(const struct kctx *c, bool netlink, const struct kreq *q,
		   struct kres *k)
{
	if (netlink)
		k_nl(c->fd, c->fam, q, k);
	else
		k_ioc(c->dev, q, k);
}

/* The CPUs whose series the reply carries, in order. */
static uint32_t k_expect_series(const struct kreq *q, uint32_t *cpus)
{
	uint32_t i;

	switch (q->cmd) {
	case CACHEPROBE_CMD_BOUNCE:
		for (i = 0; i < q->nr_cpus; i++)
			cpus[i] = q->cpus[i];
		return q->nr_cpus;
	case CACHEPROBE_CMD_XFER:
		cpus[0] = q->cpus[1];
		return 1;
	default:
		cpus[0] = q->cpus[0];
		return 1;
	}
}

static void k_check_ok(const struct kctx *c, bool netlink, const char *name,
		       const struct kreq *q)
{
	char full[128], why[1024] = "";
	uint32_t want[K_MAX_CPUS], nr_want, i, j;
	struct kres k;

	snprintf(full, sizeof(full), "%s-%s", name,
		 netlink ? "netlink" : "ioctl");
	k_call(c, netlink, q, &k);
	nr_want = k_expect_series(q, want);
	if (k.error)
		snprintf(why, sizeof(why), "errno %d (%s) msg \"%s\"",
			 k.error, strerror(k.error), k.msg);
	else if (k.samples != q->samples)
		snprintf(why, sizeof(why), "%u samples, asked %u", k.samples,
			 q->samples);
	else if (k.nr_series != nr_want)
		snprintf(why, sizeof(why), "%u series, want %u", k.nr_series,
			 nr_want);
	for (i = 0; !why[0] && i < nr_want; i++) {
		if (netlink != (k.series_cpu[i] != K_NO_CPU))
			snprintf(why, sizeof(why),
				 "series %u: CPU %u; want one over netlink only",
				 i, k.series_cpu[i]);
		else if (netlink && k.series_cpu[i] != want[i])
			snprintf(why, sizeof(why), "series %u is CPU %u, want %u",
				 i, k.series_cpu[i], want[i]);
		for (j = 0; !why[0] && j < q->samples; j++)
			if (!k.values[i][j])
				snprintf(why, sizeof(why),
					 "CPU %u sample %u is 0", want[i], j);
	}
	if (!why[0] && (!k.window_cycles || !k.windows))
		snprintf(why, sizeof(why), "no window reported");
	/* ABI 4: every run reports its missed rounds; one CPU misses none. */
	if (!why[0] && (k.missed_rounds == ~0u || k.disturbed == ~0u))
		snprintf(why, sizeof(why), "no MISSED_ROUNDS or DISTURBED");
	if (!why[0] && q->nr_cpus == 1 && k.missed_rounds)
		snprintf(why, sizeof(why), "%u rounds missed on one CPU",
			 k.missed_rounds);
	/* A disturbed window was stretched by what the module cannot see. */
	if (!why[0] && k.window_nsec > c->max_irqoff_ns && !k.disturbed)
		snprintf(why, sizeof(why),
			 "longest window %llu ns above the bound %llu ns",
			 (unsigned long long)k.window_nsec,
			 (unsigned long long)c->max_irqoff_ns);
	check(!why[0], full, "%s", why);
	if (!why[0])
		printf("# %s: ops %u, first value %llu, window %llu ns, %llu windows, %u retries, %u missed rounds, %u disturbed\n",
		       full, k.ops, (unsigned long long)k.values[0][0],
		       (unsigned long long)k.window_nsec,
		       (unsigned long long)k.windows, k.retries,
		       k.missed_rounds, k.disturbed);
}

static void k_check_err(const struct kctx *c, bool netlink, const char *name,
			const struct kreq *q, int want_errno,
			const char *want_msg)
{
	char full[128];
	struct kres k;
	bool ok;

	snprintf(full, sizeof(full), "%s-%s", name,
		 netlink ? "netlink" : "ioctl");
	k_call(c, netlink, q, &k);
	ok = k.error == want_errno && (!want_msg || strstr(k.msg, want_msg));
	check(ok, full, "errno %d (%s) msg \"%s\"; wanted errno %d msg \"%s\"",
	      k.error, strerror(k.error), k.msg, want_errno,
	      want_msg ? want_msg : "(any)");
}

/*
 * Every load of a walk with DELAY waits for DELAY dependent adds of at least
 * one core cycle each, so no sample can take fewer than lines * DELAY core
 * cycles: a quarter of that in TSC ticks allows a core clock four times the
 * TSC's.  Without the delay the walk is far below that bound.
 */
static void k_check_delay_cost(const struct kctx *c, bool netlink,
			       const struct kreq *q)
{
	char full[128], why[1024] = "";
	uint64_t floor = q->size / c->line * q->delay / 4;
	struct kres k;
	uint32_t j;

	snprintf(full, sizeof(full), "xfer-delay-cost-%s",
		 netlink ? "netlink" : "ioctl");
	k_call(c, netlink, q, &k);
	if (k.error)
		snprintf(why, sizeof(why), "errno %d (%s) msg \"%s\"",
			 k.error, strerror(k.error), k.msg);
	for (j = 0; !why[0] && j < q->samples && j < K_MAX_SAMPLES; j++)
		if (k.values[0][j] < floor)
			snprintf(why, sizeof(why),
				 "sample %u took %llu ticks, below %llu for %llu lines of %u adds",
				 j, (unsigned long long)k.values[0][j],
				 (unsigned long long)floor,
				 (unsigned long long)(q->size / c->line),
				 q->delay);
	check(!why[0], full, "%s", why);
}

/* Small, valid requests: quick under emulation. */
static struct kreq k_chase(uint32_t cpu)
{
	struct kreq q = { .cmd = CACHEPROBE_CMD_CHASE, .cpus = { cpu },
			  .nr_cpus = 1, .samples = 5, .size = 64 * 1024,
			  .ops = 256 };
	return q;
}

static struct kreq k_access(uint32_t cpu)
{
	struct kreq q = { .cmd = CACHEPROBE_CMD_ACCESS, .cpus = { cpu },
			  .nr_cpus = 1, .samples = 5, .size = 16 * 1024,
			  .ops = 256, .width = 8,
			  .variant = CACHEPROBE_ACCESS_LOAD_LATENCY };
	return q;
}

static struct kreq k_pingpong(uint32_t a, uint32_t b)
{
	struct kreq q = { .cmd = CACHEPROBE_CMD_PINGPONG, .cpus = { a, b },
			  .nr_cpus = 2, .samples = 5, .ops = 8,
			  .variant = CACHEPROBE_PINGPONG_CAS };
	return q;
}

static struct kreq k_bounce(uint32_t nr)
{
	struct kreq q = { .cmd = CACHEPROBE_CMD_BOUNCE, .nr_cpus = nr,
			  .samples = 4, .ops = 256, .width = 8,
			  .distance = 64, .variant = CACHEPROBE_BOUNCE_ATOMIC };
	uint32_t i;

	for (i = 0; i < nr; i++)
		q.cpus[i] = i;
	return q;
}

static struct kreq k_xfer(uint32_t a, uint32_t b)
{
	struct kreq q = { .cmd = CACHEPROBE_CMD_XFER, .cpus = { a, b },
			  .nr_cpus = 2, .samples = 4, .size = 8192,
			  .variant = CACHEPROBE_XFER_MODIFY };
	return q;
}

static void k_shapes(const struct kctx *c, bool nl)
{
	uint32_t last = online_cpus() - 1, w;
	static const uint32_t widths[] = { 1, 2, 4, 8, 16, 32, 64 };
	char name[64];
	struct kreq q;
	int v;

	q = k_chase(last);
	k_check_ok(c, nl, "chase-random", &q);
	q.order = CACHEPROBE_ORDER_SEQUENTIAL;
	q.prepare = CACHEPROBE_PREPARE_CLFLUSH;
	k_check_ok(c, nl, "chase-sequential-clflush", &q);
	q.prepare = CACHEPROBE_PREPARE_WBINVD;
	q.stride = 128;
	k_check_ok(c, nl, "chase-wbinvd-stride", &q);

	for (v = 1; v <= 3; v++)
		for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
			q = k_access(0);
			q.variant = v;
			q.width = widths[w];
			q.offset = 60;
			snprintf(name, sizeof(name), "access-v%d-w%u", v,
				 widths[w]);
			if ((widths[w] == 32 &&
			     !(c->features & CACHEPROBE_FEAT_AVX)) ||
			    (widths[w] == 64 &&
			     !(c->features & CACHEPROBE_FEAT_AVX512F)))
				k_check_err(c, nl, name, &q, EOPNOTSUPP,
					    "not supported");
			else
				k_check_ok(c, nl, name, &q);
		}

	q = k_pingpong(0, last);
	k_check_ok(c, nl, "pingpong-cas", &q);
	q.variant = CACHEPROBE_PINGPONG_FLAG;
	k_check_ok(c, nl, "pingpong-flag", &q);
	q = k_pingpong(last, 1);
	k_check_ok(c, nl, "pingpong-reversed", &q);

	q = k_bounce(2);
	k_check_ok(c, nl, "bounce-2", &q);
	q = k_bounce(online_cpus() > K_MAX_CPUS ? K_MAX_CPUS : online_cpus());
	q.variant = CACHEPROBE_BOUNCE_PLAIN;
	q.width = 4;
	q.distance = 0;
	k_check_ok(c, nl, "bounce-all-shared", &q);
	q.distance = 4;
	k_check_ok(c, nl, "bounce-all-packed", &q);

	q = k_xfer(0, last);
	k_check_ok(c, nl, "xfer-modify", &q);
	q.variant = CACHEPROBE_XFER_READ;
	q.order = CACHEPROBE_ORDER_SEQUENTIAL;
	k_check_ok(c, nl, "xfer-read", &q);
	q = k_xfer(1, 1);
	k_check_ok(c, nl, "xfer-same-cpu", &q);
	q = k_xfer(0, last);
	q.delay = 100;
	k_check_ok(c, nl, "xfer-delay", &q);
	q = k_xfer(last, last);
	q.delay = 7;
	k_check_ok(c, nl, "xfer-delay-same-cpu", &q);
	/* The largest delay: a clock check after every line. */
	q = k_xfer(0, last);
	q.size = 4096;
	q.delay = CACHEPROBE_MAX_DELAY;
	k_check_ok(c, nl, "xfer-delay-max", &q);
	k_check_delay_cost(c, nl, &q);
}

/*
 * A CHASE of ABI 4: its result shape as k_check_ok() checks it, OPS as
 * asked (loads over all chases), and PAGE_BYTES @want.
 */
/*
 * A run that must succeed, then its reply's OPS and PAGE_BYTES (0 when
 * absent, as for every command but CHASE), checked as NAME-WHAT.
 */
static void k_check_reply(const struct kctx *c, bool netlink,
			  const char *name, const char *what,
			  const struct kreq *q, uint32_t want_ops,
			  uint64_t want_page_bytes)
{
	char full[128];
	struct kres k;

	k_check_ok(c, netlink, name, q);
	snprintf(full, sizeof(full), "%s-%s-%s", name, what,
		 netlink ? "netlink" : "ioctl");
	k_call(c, netlink, q, &k);
	check(!k.error && k.ops == want_ops &&
	      k.page_bytes == want_page_bytes, full,
	      "errno %d (%s) msg \"%s\", ops %u (asked %u, want %u), PAGE_BYTES %llu (want %llu)",
	      k.error, strerror(k.error), k.msg, k.ops, q->ops, want_ops,
	      (unsigned long long)k.page_bytes,
	      (unsigned long long)want_page_bytes);
	if (!k.error && q->cmd == CACHEPROBE_CMD_CHASE)
		printf("# %s: PAGE_BYTES %llu\n", full,
		       (unsigned long long)k.page_bytes);
}

static void k_check_chase(const struct kctx *c, bool netlink,
			  const char *name, const struct kreq *q,
			  uint64_t want)
{
	k_check_reply(c, netlink, name, "page-bytes", q, q->ops, want);
}

/*
 * A 4 MiB buffer asked with 2 MiB pages gets them in the test guests: the
 * emulated CPU has PSE and a freshly booted guest has free 2 MiB blocks,
 * so vmalloc_huge() maps it with two PMD entries (6.1, 6.12, 6.12-rt).
 * The reply reads the page tables: the same guest booted with
 * nohugevmalloc replies 4096 to the same request.
 */
#define K_HUGE_PAGE_BYTES (2ULL << 20)

/* ABI 4: CHASE's PAGES, CHASES and SEED, on both transports. */
static void k_chase_options(const struct kctx *c, bool nl)
{
	uint32_t last = online_cpus() - 1;
	struct kreq q;

	q = k_chase(last);
	q.chases = 4;
	q.ops = 256;
	k_check_chase(c, nl, "chase-chases-4", &q, 4096);
	/* Whole iterations and a remainder of rounds: 3 chases, 7 rounds. */
	q.chases = 3;
	q.ops = 21;
	q.has_seed = true;
	q.seed = 0x5eed;
	k_check_chase(c, nl, "chase-chases-3-seed", &q, 4096);
	q = k_chase(last);
	q.chases = CACHEPROBE_MAX_CHASES;
	q.ops = 16 * CACHEPROBE_MAX_CHASES;
	q.order = CACHEPROBE_ORDER_SEQUENTIAL;
	k_check_chase(c, nl, "chase-chases-16-sequential", &q, 4096);
	/* As every optional attribute: 0 is the default, one chase. */
	q = k_chase(0);
	q.chases = 0;
	q.ops = 255;
	k_check_chase(c, nl, "chase-chases-0-is-1", &q, 4096);
	q = k_chase(0);
	q.pages = CACHEPROBE_PAGES_4K;
	k_check_chase(c, nl, "chase-pages-4k", &q, 4096);
	q = k_chase(0);
	q.pages = CACHEPROBE_PAGES_2M;
	q.size = 4 << 20;
	q.samples = 2;
	q.chases = 2;
	k_check_chase(c, nl, "chase-pages-2m", &q, K_HUGE_PAGE_BYTES);
	/* Under 2 MiB the module allocates a whole 2 MiB (as user mode's
	 * huge pages are whole ranges): huge pages still. */
	q.size = 1 << 20;
	k_check_chase(c, nl, "chase-pages-2m-small-buffer", &q,
		      K_HUGE_PAGE_BYTES);
	/* What an ABI 3 caller sends: no new attribute, or zeros; the
	 * reply carries PAGE_BYTES, which such a caller ignores. */
	q = k_chase(last);
	q.abi3 = true;
	k_check_chase(c, nl, "chase-abi3-request", &q, 4096);
	if (nl) {
		/* Over netlink any seed is one, 0 included. */
		q = k_chase(last);
		q.has_seed = true;
		q.seed = 0;
		k_check_chase(c, nl, "chase-seed-0", &q, 4096);
	}

	q = k_chase(0);
	q.chases = 4;
	q.ops = 258;
	k_check_err(c, nl, "chase-ops-not-multiple-of-chases", &q, EINVAL,
		    "OPS not a multiple of CHASES");
	q.chases = CACHEPROBE_MAX_CHASES + 1;
	q.ops = 17 * 16;
	k_check_err(c, nl, "chase-chases-17", &q, EINVAL,
		    "CHASES out of range");
	q.chases = ~0u;
	k_check_err(c, nl, "chase-chases-u32-max", &q, EINVAL,
		    "CHASES out of range");
	q = k_chase(0);
	q.size = 256;
	q.stride = 64;
	q.chases = 3;
	q.ops = 63;
	k_check_err(c, nl, "chase-more-chases-than-slots", &q, EINVAL,
		    "fewer than two slots per chase");
	q = k_chase(0);
	q.pages = 3;
	k_check_err(c, nl, "chase-pages-3", &q, EINVAL, "unknown PAGES");
	q.pages = ~0u;
	k_check_err(c, nl, "chase-pages-u32-max", &q, EINVAL, "unknown PAGES");
}

/* An ACCESS whose reply's OPS must be @want (whole loop steps). */
static void k_check_access_ops(const struct kctx *c, bool netlink,
			       const char *name, const struct kreq *q,
			       uint32_t want)
{
	k_check_reply(c, netlink, name, "ops", q, want, 0);
}

/*
 * ABI 5: ACCESS runs the tool's loops: LOAD_LATENCY a cycle from SEED
 * (the test build counts a chase or chain that is not where its cycle
 * says in lost_places), OPS in whole steps, four slots for throughput.
 */
static void k_access_loops(const struct kctx *c, bool nl)
{
	uint32_t last = online_cpus() - 1;
	struct kreq q;

	q = k_access(last);
	q.has_seed = true;
	q.seed = 0x5eed;
	q.ops = 250;
	k_check_access_ops(c, nl, "access-latency-seed", &q, 256);
	q.width = 2;
	q.offset = 63;
	k_check_access_ops(c, nl, "access-chain-seed", &q, 256);
	q = k_access(0);
	q.variant = CACHEPROBE_ACCESS_LOAD_THROUGHPUT;
	q.ops = 250;
	k_check_access_ops(c, nl, "access-throughput-steps", &q, 252);
	q.variant = CACHEPROBE_ACCESS_STORE_THROUGHPUT;
	q.ops = 1;
	k_check_access_ops(c, nl, "access-store-steps", &q, 4);
	/* One slot is a cycle of one for latency, no group of four for
	 * throughput. */
	q = k_access(0);
	q.size = 8;
	q.ops = 16;
	k_check_access_ops(c, nl, "access-latency-one-slot", &q, 16);
	q.size = 64 * 2 + 8;
	q.stride = 64;
	q.variant = CACHEPROBE_ACCESS_LOAD_THROUGHPUT;
	k_check_err(c, nl, "access-throughput-three-slots", &q, EINVAL,
		    "SIZE holds fewer than four slots");
	/* A narrow chain's order and table, 12 bytes a slot of one byte:
	 * 64 MiB of slots need 768 MiB besides the buffer. */
	q = k_access(0);
	q.size = 64 << 20;
	q.stride = 1;
	q.width = 1;
	k_check_err(c, nl, "access-bookkeeping-above-limit", &q, E2BIG,
		    "bookkeeping exceeds max_buffer_mb");
	if (nl) {
		/* Over netlink any seed is one, 0 included. */
		q = k_access(0);
		q.has_seed = true;
		q.seed = 0;
		k_check_ok(c, nl, "access-seed-0", &q);
	}
}

/* The extended ack blames the attribute at fault, CHASE's new ones too. */
static void k_nl_blamed(const struct kctx *c, const char *name,
			const struct kreq *q, int want_errno,
			const char *want_msg, uint16_t attr)
{
	static struct rawnl_answer ans;
	struct rawnl_req r;

	k_nl_build(&r, c->fam, q);
	rawnl_talk(c->fd, &r, &ans);
	expect_nl(name, &ans, want_errno, want_msg);
	expect_blamed(name, &r, &ans, attr);
}

/* SAMPLES of every command: 0, one above the limit, and the limit. */
static void k_bad_samples(const struct kctx *c, bool nl)
{
	uint32_t last = online_cpus() - 1;
	struct kreq qs[5] = { k_chase(0), k_access(0), k_pingpong(0, last),
			      k_bounce(2), k_xfer(0, last) };
	char name[64];
	struct kres k;
	struct kreq q;
	int i;

	for (i = 0; i < 5; i++) {
		q = qs[i];
		q.samples = 0;
		snprintf(name, sizeof(name), "%s-zero-samples",
			 cmd_name(q.cmd));
		k_check_err(c, nl, name, &q, EINVAL, "SAMPLES");
		q.samples = CACHEPROBE_MAX_SAMPLES + 1;
		snprintf(name, sizeof(name), "%s-too-many-samples",
			 cmd_name(q.cmd));
		k_check_err(c, nl, name, &q, E2BIG, "too many samples");
		q.samples = ~0u;
		snprintf(name, sizeof(name), "%s-u32-max-samples",
			 cmd_name(q.cmd));
		k_check_err(c, nl, name, &q, E2BIG, "too many samples");
	}
	/* Two series: the limit on values comes before the one on samples. */
	q = k_bounce(2);
	q.samples = CACHEPROBE_MAX_VALUES / 2 + 1;
	k_check_err(c, nl, "bounce-2-too-many-values", &q, E2BIG,
		    "too many samples");
	q = k_bounce(4 > online_cpus() ? online_cpus() : 4);
	q.samples = CACHEPROBE_MAX_VALUES / 2;
	k_check_err(c, nl, "bounce-too-many-values", &q, E2BIG,
		    "too many samples");
	/* Exactly at the limit: accepted (rawtest keeps 64 values only). */
	q = k_pingpong(0, last);
	q.samples = CACHEPROBE_MAX_SAMPLES;
	q.ops = 1;
	k_call(c, nl, &q, &k);
	check(!k.error && k.nr_series == 1,
	      nl ? "pingpong-max-samples-netlink" : "pingpong-max-samples-ioctl",
	      "errno %d (%s) msg \"%s\", %u series", k.error,
	      strerror(k.error), k.msg, k.nr_series);
}

static void k_bad(const struct kctx *c, bool nl, uint32_t offline)
{
	uint32_t last = online_cpus() - 1;
	struct kreq q;

	/* Common to every command: CPUs and samples. */
	q = k_pingpong(1, 1);
	k_check_err(c, nl, "pingpong-same-cpu", &q, EINVAL, "CPU listed twice");
	q = k_bounce(3);
	q.cpus[2] = 0;
	k_check_err(c, nl, "bounce-same-cpu", &q, EINVAL, "CPU listed twice");
	q = k_chase(64);
	k_check_err(c, nl, "chase-cpu-out-of-range", &q, EINVAL,
		    "CPU id out of range");
	if (offline != ~0u) {
		q = k_chase(offline);
		k_check_err(c, nl, "chase-offline-cpu", &q, EINVAL,
			    "not online");
		q = k_pingpong(0, offline);
		k_check_err(c, nl, "pingpong-offline-cpu", &q, EINVAL,
			    "not online");
		q = k_bounce(2);
		q.cpus[1] = offline;
		k_check_err(c, nl, "bounce-offline-cpu", &q, EINVAL,
			    "not online");
		q = k_xfer(offline, 0);
		k_check_err(c, nl, "xfer-offline-cpu", &q, EINVAL,
			    "not online");
		q = k_access(offline);
		k_check_err(c, nl, "access-offline-cpu", &q, EINVAL,
			    "not online");
		return;
	}
	q = k_pingpong(0, last);
	q.nr_cpus = 1;
	k_check_err(c, nl, "pingpong-one-cpu", &q, EINVAL,
		    "wrong number of CPUs");
	q = k_bounce(1);
	k_check_err(c, nl, "bounce-one-cpu", &q, EINVAL,
		    "wrong number of CPUs");
	k_bad_samples(c, nl);

	/* Sizes. */
	q = k_chase(0);
	q.size = 0;
	k_check_err(c, nl, "chase-size-zero", &q, EINVAL, "SIZE");
	q.size = 1ULL << 40;
	k_check_err(c, nl, "chase-size-above-limit", &q, E2BIG,
		    "max_buffer_mb");
	q = k_access(0);
	q.size = 0;
	k_check_err(c, nl, "access-size-zero", &q, EINVAL, "SIZE");
	q.size = 1ULL << 40;
	k_check_err(c, nl, "access-size-above-limit", &q, E2BIG,
		    "max_buffer_mb");
	q = k_xfer(0, 1);
	q.size = 0;
	k_check_err(c, nl, "xfer-size-zero", &q, EINVAL, "SIZE");
	q.size = 1ULL << 40;
	k_check_err(c, nl, "xfer-size-above-limit", &q, E2BIG,
		    "max_buffer_mb");
	q.size = 100;
	k_check_err(c, nl, "xfer-size-not-lines", &q, EINVAL, "SIZE");

	/* Counts. */
	q = k_chase(0);
	q.ops = 0;
	k_check_err(c, nl, "chase-zero-hops", &q, EINVAL, "OPS");
	q = k_pingpong(0, 1);
	q.ops = CACHEPROBE_MAX_OPS + 1;
	k_check_err(c, nl, "pingpong-too-many-ops", &q, EINVAL, "OPS");
	q = k_bounce(2);
	q.ops = 0;
	k_check_err(c, nl, "bounce-zero-ops", &q, EINVAL, "OPS");

	/* Variants and enums. */
	q = k_chase(0);
	q.order = 9;
	k_check_err(c, nl, "chase-unknown-order", &q, EINVAL,
		    "unknown order");
	q = k_chase(0);
	q.prepare = 9;
	k_check_err(c, nl, "chase-unknown-prepare", &q, EINVAL,
		    "unknown preparation");
	q = k_chase(0);
	q.stride = 12;
	k_check_err(c, nl, "chase-bad-stride", &q, EINVAL, "STRIDE");
	q = k_access(0);
	q.variant = 9;
	k_check_err(c, nl, "access-unknown-variant", &q, EINVAL,
		    "unknown variant");
	q = k_access(0);
	q.width = 3;
	k_check_err(c, nl, "access-bad-width", &q, EINVAL, "WIDTH");
	q = k_access(0);
	q.offset = 4096;
	k_check_err(c, nl, "access-bad-offset", &q, EINVAL, "OFFSET");
	q = k_pingpong(0, 1);
	q.variant = 0;
	k_check_err(c, nl, "pingpong-unknown-variant", &q, EINVAL,
		    "unknown variant");
	q = k_bounce(2);
	q.variant = 7;
	k_check_err(c, nl, "bounce-unknown-variant", &q, EINVAL,
		    "unknown variant");
	q = k_bounce(2);
	q.width = 2;
	k_check_err(c, nl, "bounce-bad-width", &q, EINVAL, "WIDTH");
	q = k_bounce(2);
	q.distance = 6;
	k_check_err(c, nl, "bounce-bad-distance", &q, EINVAL, "DISTANCE");
	q = k_xfer(0, 1);
	q.variant = 3;
	k_check_err(c, nl, "xfer-unknown-variant", &q, EINVAL,
		    "unknown variant");
	q = k_xfer(0, 1);
	q.delay = CACHEPROBE_MAX_DELAY + 1;
	k_check_err(c, nl, "xfer-delay-too-large", &q, EINVAL,
		    "DELAY too large");
	q.delay = ~0u;
	k_check_err(c, nl, "xfer-delay-u32-max", &q, EINVAL,
		    "DELAY too large");
}

/* Raw-netlink and raw-ioctl checks only the library never sends. */
static void k_bad_raw(const struct kctx *c)
{
	uint64_t values[4];
	struct rawnl_answer ans;
	struct cacheprobe_pingpong pp;
	struct cacheprobe_xfer xf;
	uint32_t cpus[2] = { 0, 1 };
	struct ioc_msg m;
	struct rawnl_req r;
	int ret;

	rawnl_start(&r, c->fam, CACHEPROBE_CMD_PINGPONG, CACHEPROBE_GENL_VERSION);
	rawnl_put(&r, CACHEPROBE_ATTR_CPU_LIST, cpus, sizeof(cpus));
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SAMPLES, 1);
	rawnl_talk(c->fd, &r, &ans);
	expect_nl("nl-pingpong-missing-ops", &ans, EINVAL, "OPS");
	rawnl_start(&r, c->fam, CACHEPROBE_CMD_CHASE, CACHEPROBE_GENL_VERSION);
	rawnl_put(&r, CACHEPROBE_ATTR_CPU_LIST, cpus, 6);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SAMPLES, 1);
	rawnl_talk(c->fd, &r, &ans);
	expect_nl("nl-chase-cpu-list-length", &ans, EINVAL, "CPU_LIST");
	rawnl_start(&r, c->fam, CACHEPROBE_CMD_CHASE, CACHEPROBE_GENL_VERSION);
	rawnl_put(&r, CACHEPROBE_ATTR_CPU_LIST, cpus, 4);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SAMPLES, 1);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_DISTANCE, 1);
	rawnl_talk(c->fd, &r, &ans);
	expect_nl("nl-chase-rejects-foreign-attribute", &ans, EINVAL, NULL);
	/* DELAY belongs to XFER alone. */
	rawnl_start(&r, c->fam, CACHEPROBE_CMD_CHASE, CACHEPROBE_GENL_VERSION);
	rawnl_put(&r, CACHEPROBE_ATTR_CPU_LIST, cpus, 4);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SAMPLES, 1);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_DELAY, 1);
	rawnl_talk(c->fd, &r, &ans);
	expect_nl("nl-chase-rejects-delay", &ans, EINVAL, NULL);
	/* A u32 of the wrong length. */
	rawnl_start(&r, c->fam, CACHEPROBE_CMD_XFER, CACHEPROBE_GENL_VERSION);
	rawnl_put(&r, CACHEPROBE_ATTR_CPU_LIST, cpus, sizeof(cpus));
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SAMPLES, 1);
	rawnl_put_u64(&r, CACHEPROBE_ATTR_SIZE, 4096);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_VARIANT, CACHEPROBE_XFER_READ);
	rawnl_put_u64(&r, CACHEPROBE_ATTR_DELAY, 1);
	rawnl_talk(c->fd, &r, &ans);
	expect_nl("nl-xfer-delay-length", &ans, EINVAL, NULL);
	/* ABI 4: a u64 SEED of the wrong length, CHASE's attributes on
	 * another command, the reply's PAGE_BYTES in a request. */
	rawnl_start(&r, c->fam, CACHEPROBE_CMD_CHASE, CACHEPROBE_GENL_VERSION);
	rawnl_put(&r, CACHEPROBE_ATTR_CPU_LIST, cpus, 4);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SAMPLES, 1);
	rawnl_put_u64(&r, CACHEPROBE_ATTR_SIZE, 4096);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_OPS, 8);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SEED, 1);
	rawnl_talk(c->fd, &r, &ans);
	expect_nl("nl-chase-seed-length", &ans, EINVAL, NULL);
	/* ABI 5: ACCESS's SEED is a u64 too. */
	rawnl_start(&r, c->fam, CACHEPROBE_CMD_ACCESS, CACHEPROBE_GENL_VERSION);
	rawnl_put(&r, CACHEPROBE_ATTR_CPU_LIST, cpus, 4);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SAMPLES, 1);
	rawnl_put_u64(&r, CACHEPROBE_ATTR_SIZE, 4096);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_OPS, 16);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_WIDTH, 8);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_VARIANT,
		      CACHEPROBE_ACCESS_LOAD_LATENCY);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SEED, 1);
	rawnl_talk(c->fd, &r, &ans);
	expect_nl("nl-access-seed-length", &ans, EINVAL, NULL);
	rawnl_start(&r, c->fam, CACHEPROBE_CMD_XFER, CACHEPROBE_GENL_VERSION);
	rawnl_put(&r, CACHEPROBE_ATTR_CPU_LIST, cpus, sizeof(cpus));
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SAMPLES, 1);
	rawnl_put_u64(&r, CACHEPROBE_ATTR_SIZE, 4096);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_VARIANT, CACHEPROBE_XFER_READ);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_CHASES, 2);
	rawnl_talk(c->fd, &r, &ans);
	expect_nl("nl-xfer-rejects-chases", &ans, EINVAL, NULL);
	rawnl_start(&r, c->fam, CACHEPROBE_CMD_CHASE, CACHEPROBE_GENL_VERSION);
	rawnl_put(&r, CACHEPROBE_ATTR_CPU_LIST, cpus, 4);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_SAMPLES, 1);
	rawnl_put_u64(&r, CACHEPROBE_ATTR_SIZE, 4096);
	rawnl_put_u32(&r, CACHEPROBE_ATTR_OPS, 8);
	rawnl_put_u64(&r, CACHEPROBE_ATTR_PAGE_BYTES, 4096);
	rawnl_talk(c->fd, &r, &ans);
	expect_nl("nl-chase-rejects-page-bytes", &ans, EINVAL, NULL);
	{
		struct kreq q = k_chase(0);

		q.chases = 4;
		q.ops = 258;
		k_nl_blamed(c, "nl-chase-ops-not-multiple-blames-ops", &q,
			    EINVAL, "OPS", CACHEPROBE_ATTR_OPS);
		q.ops = 17 * 16;
		q.chases = 17;
		k_nl_blamed(c, "nl-chase-chases-17-blames-chases", &q, EINVAL,
			    "CHASES", CACHEPROBE_ATTR_CHASES);
		q = k_chase(0);
		q.pages = 3;
		k_nl_blamed(c, "nl-chase-pages-3-blames-pages", &q, EINVAL,
			    "PAGES", CACHEPROBE_ATTR_PAGES);
	}

	memset(&pp, 0, sizeof(pp));
	head_init(&pp.head, &m);
	pp.run.cpus = (uintptr_t)cpus;
	pp.run.nr_cpus = 2;
	pp.run.samples = 8;
	pp.run.values = (uintptr_t)values;
	pp.run.values_cap = 4;
	pp.variant = CACHEPROBE_PINGPONG_CAS;
	pp.round_trips = 1;
	ret = ioctl(c->dev, CACHEPROBE_IOC_PINGPONG, &pp);
	expect_ioc("ioc-pingpong-values-too-small", ret, EINVAL, &m,
		   "value array too small");
	pp.run.values_cap = 0;
	ret = ioctl(c->dev, CACHEPROBE_IOC_PINGPONG, &pp);
	expect_ioc("ioc-pingpong-no-values", ret, EINVAL, &m, "no value array");
	pp.run.values_cap = 4;
	pp.run.samples = 1;
	pp.reserved[1] = 1;
	ret = ioctl(c->dev, CACHEPROBE_IOC_PINGPONG, &pp);
	expect_ioc("ioc-pingpong-reserved", ret, EINVAL, &m, "reserved");
	pp.reserved[1] = 0;
	/* ABI 4's missed_rounds and disturbed, once the run's last
	 * reserved field, are outputs: ignored on input, never echoed. */
	pp.run.missed_rounds = UINT32_MAX;
	pp.run.disturbed = UINT32_MAX;
	ret = ioctl(c->dev, CACHEPROBE_IOC_PINGPONG, &pp);
	check(ret == 0 && pp.run.missed_rounds != UINT32_MAX &&
	      pp.run.disturbed != UINT32_MAX,
	      "ioc-pingpong-missed-rounds-output",
	      "ret %d errno %d (%s), missed_rounds %u, disturbed %u",
	      ret, ret ? errno : 0, m.text, pp.run.missed_rounds,
	      pp.run.disturbed);
	/* ABI 4's page_bytes, once reserved[0], is an output: ignored on
	 * input, 0 from every command but CHASE. */
	pp.run.page_bytes = 4096;
	ret = ioctl(c->dev, CACHEPROBE_IOC_PINGPONG, &pp);
	check(ret == 0 && pp.run.page_bytes == 0,
	      "ioc-pingpong-page-bytes-output", "ret %d errno %d (%s), page_bytes %llu",
	      ret, ret ? errno : 0, m.text,
	      (unsigned long long)pp.run.page_bytes);
	pp.run.cpus = 8;
	ret = ioctl(c->dev, CACHEPROBE_IOC_PINGPONG, &pp);
	expect_ioc("ioc-pingpong-bad-cpus-pointer", ret, EFAULT, NULL, NULL);
	pp.run.cpus = (uintptr_t)cpus;
	pp.run.values = 8;
	ret = ioctl(c->dev, CACHEPROBE_IOC_PINGPONG, &pp);
	expect_ioc("ioc-pingpong-bad-values-pointer", ret, EFAULT, NULL, NULL);
	pp.run.values = (uintptr_t)values;
	pp.run.nr_cpus = CACHEPROBE_RUN_MAX_CPUS + 1;
	ret = ioctl(c->dev, CACHEPROBE_IOC_PINGPONG, &pp);
	expect_ioc("ioc-pingpong-too-many-cpus", ret, EINVAL, &m, "CPU list");

	/* ABI 4: CHASE's seed 0 is "draw one" over ioctl; neither the struct
	 * nor its run has a reserved field left. */
	{
		struct kreq q = k_chase(0);
		struct kres k;

		q.has_seed = true;
		q.seed = 0;
		k_ioc(c->dev, &q, &k);
		check(!k.error && k.page_bytes == 4096, "ioc-chase-seed-0-draws",
		      "errno %d (%s) msg \"%s\", PAGE_BYTES %llu", k.error,
		      strerror(k.error), k.msg,
		      (unsigned long long)k.page_bytes);
	}

	/* ABI 5: ACCESS's seed 0 is "draw one" over ioctl, and the word
	 * before it stays reserved. */
	{
		struct kreq q = k_access(0);
		union kioc u;
		unsigned long n;

		q.has_seed = true;
		q.seed = 0;
		k_check_ok(c, false, "ioc-access-seed-0-draws", &q);
		n = k_ioc_build(&u, &q);
		head_init(&u.access.head, &m);
		u.access.run.cpus = (uintptr_t)cpus;
		u.access.run.nr_cpus = 1;
		u.access.run.samples = 1;
		u.access.run.values = (uintptr_t)values;
		u.access.run.values_cap = 4;
		u.access.reserved0 = 1;
		ret = ioctl(c->dev, n, &u.access);
		expect_ioc("ioc-access-reserved0", ret, EINVAL, &m,
			   "struct cacheprobe_access.reserved0");
		u.access.reserved0 = 0;
		u.access.reserved[1] = 1;
		ret = ioctl(c->dev, n, &u.access);
		expect_ioc("ioc-access-reserved-after-seed", ret, EINVAL, &m,
			   "struct cacheprobe_access.reserved");
	}

	/* What follows XFER's delay is still reserved. */
	memset(&xf, 0, sizeof(xf));
	head_init(&xf.head, &m);
	xf.run.cpus = (uintptr_t)cpus;
	xf.run.nr_cpus = 2;
	xf.run.samples = 1;
	xf.run.values = (uintptr_t)values;
	xf.run.values_cap = 4;
	xf.size = 4096;
	xf.variant = CACHEPROBE_XFER_READ;
	xf.delay = 1;
	xf.reserved[0] = 1;
	ret = ioctl(c->dev, CACHEPROBE_IOC_XFER, &xf);
	expect_ioc("ioc-xfer-reserved-after-delay", ret, EINVAL, &m,
		   "struct cacheprobe_xfer.reserved");
}

static void k_open(struct kctx *c)
{
	struct cacheprobe_info info = {0};
	struct ioc_msg m;

	c->fd = nl_sock();
	c->fam = family_id(c->fd);
	c->dev = open("/dev/" CACHEPROBE_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	if (c->dev < 0) {
		printf("FAIL k-open: %s\n", strerror(errno));
		exit(1);
	}
	head_init(&info.head, &m);
	if (ioctl(c->dev, CACHEPROBE_IOC_GET_INFO, &info)) {
		printf("FAIL k-info: %s\n", strerror(errno));
		exit(1);
	}
	c->max_irqoff_ns = info.max_irqoff_ns;
	c->max_buffer = info.max_buffer_bytes;
	c->line = info.cache_line_size;
	c->features = info.features;
	c->max_chases = info.max_chases;
}

static void k_info(const struct kctx *c)
{
	const struct nlattr *irq, *buf, *tmo, *vals;
	struct rawnl_answer ans;
	struct rawnl_req r;

	rawnl_start(&r, c->fam, CACHEPROBE_CMD_GET_INFO, CACHEPROBE_GENL_VERSION);
	rawnl_talk(c->fd, &r, &ans);
	irq = rawnl_find(ans.reply, ans.reply_len, CACHEPROBE_ATTR_MAX_IRQOFF_NS);
	buf = rawnl_find(ans.reply, ans.reply_len,
		      CACHEPROBE_ATTR_MAX_BUFFER_BYTES);
	tmo = rawnl_find(ans.reply, ans.reply_len,
		      CACHEPROBE_ATTR_PARTNER_TIMEOUT_MS);
	vals = rawnl_find(ans.reply, ans.reply_len, CACHEPROBE_ATTR_MAX_VALUES);
	check(irq && buf && tmo && vals &&
	      nl_attr_u64(irq) == c->max_irqoff_ns && nl_attr_u64(buf) &&
	      rawnl_u32(tmo) && rawnl_u32(vals) == CACHEPROBE_MAX_VALUES,
	      "nl-info-limits", "irqoff %p buffer %p timeout %p values %p",
	      (const void *)irq, (const void *)buf, (const void *)tmo,
	      (const void *)vals);
	check(c->max_irqoff_ns >= 10000, "ioc-info-limits",
	      "max_irqoff_ns %llu", (unsigned long long)c->max_irqoff_ns);
	vals = rawnl_find(ans.reply, ans.reply_len, CACHEPROBE_ATTR_MAX_CHASES);
	check(vals && rawnl_u32(vals) == CACHEPROBE_MAX_CHASES,
	      "nl-info-max-chases", "MAX_CHASES %u",
	      vals ? rawnl_u32(vals) : 0);
	check(c->max_chases == CACHEPROBE_MAX_CHASES, "ioc-info-max-chases",
	      "max_chases %u", c->max_chases);
}

static int run_kcmd(uint32_t offline)
{
	struct kctx c;

	k_open(&c);
	if (offline != ~0u) {
		k_bad(&c, true, offline);
		k_bad(&c, false, offline);
		return failures ? 1 : 0;
	}
	k_info(&c);
	k_shapes(&c, true);
	k_shapes(&c, false);
	k_chase_options(&c, true);
	k_chase_options(&c, false);
	k_access_loops(&c, true);
	k_access_loops(&c, false);
	k_bad(&c, true, ~0u);
	k_bad(&c, false, ~0u);
	k_bad_raw(&c);
	return failures ? 1 : 0;
}

/* The test build's count in module parameter @name, or -1. */
static long long test_count(const char *name)
{
	char path[128];
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/cacheprobe/parameters/%s",
		 name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/* A CHASE that succeeds and walked @want rounds before its samples. */
static void k_check_warm(const struct kctx *c, bool nl, const char *name,
			 const struct kreq *q, long long want)
{
	long long before = test_count("warm_rounds"), walked;
	char full[128];

	k_check_ok(c, nl, name, q);
	walked = test_count("warm_rounds") - before;
	snprintf(full, sizeof(full), "%s-rounds-%s", name,
		 nl ? "netlink" : "ioctl");
	check(before >= 0 && walked == want, full,
	      "walked %lld rounds before the samples, want %lld", walked,
	      want);
}

/*
 * ABI 6: with PREPARE WARM, every chase walks its cycle four times before
 * the first sample, once however many samples follow; any other
 * preparation walks nothing.  1024 slots of 64 bytes.
 */
static void k_chase_warm(const struct kctx *c, bool nl)
{
	uint32_t last = online_cpus() - 1;
	struct kreq q = k_chase(last);

	q.stride = 64;
	q.prepare = CACHEPROBE_PREPARE_WARM;
	k_check_warm(c, nl, "chase-warm-four-laps", &q, 4 * 1024);
	/* Three cycles of 341, 341 and 342 slots: rounds of the longest. */
	q.chases = 3;
	q.ops = 255;
	k_check_warm(c, nl, "chase-warm-three-chases", &q, 4 * 342);
	q = k_chase(last);
	q.stride = 64;
	k_check_warm(c, nl, "chase-warm-none-by-default", &q, 0);
	q.prepare = CACHEPROBE_PREPARE_NONE;
	k_check_warm(c, nl, "chase-warm-none-with-none", &q, 0);
	q.prepare = CACHEPROBE_PREPARE_CLFLUSH;
	k_check_warm(c, nl, "chase-warm-none-with-clflush", &q, 0);
	q.prepare = CACHEPROBE_PREPARE_WBINVD;
	k_check_warm(c, nl, "chase-warm-none-with-wbinvd", &q, 0);
}

/* The iterations CHASE @q waited before its samples; -1 when it failed
 * or the count is missing.  *@tries: samples run, retries included. */
static long long k_chase_spins(const struct kctx *c, bool nl,
			       const struct kreq *q, uint64_t *tries)
{
	long long before = test_count("dither_spins"), after;
	struct kres k;

	k_call(c, nl, q, &k);
	after = test_count("dither_spins");
	if (k.error || before < 0 || after < 0)
		return -1;
	*tries = (uint64_t)k.samples + k.retries +
		 (k.disturbed == ~0u ? 0 : k.disturbed);
	return after - before;
}

/*
 * Every CHASE sample starts after a random wait of 0 to CP_DITHER_SPINS -
 * 1 iterations (measure/dither.h), drawn from SEED: 64 one-load samples
 * wait about 63.5 iterations each (at least 16 on average is a bound no
 * random draw misses), at most the longest wait each, and another seed
 * draws other waits.
 */
static void k_chase_dither(const struct kctx *c, bool nl)
{
	struct kreq q = k_chase(online_cpus() - 1);
	const char *tr = nl ? "netlink" : "ioctl";
	long long first, second;
	uint64_t tries = 0, tries2 = 0;
	char name[96];

	q.samples = K_MAX_SAMPLES;
	q.ops = 1;
	q.has_seed = true;
	q.seed = 12345;
	first = k_chase_spins(c, nl, &q, &tries);
	snprintf(name, sizeof(name), "chase-dither-waits-%s", tr);
	check(first >= 16LL * K_MAX_SAMPLES &&
		      first <= (long long)(CP_DITHER_SPINS - 1) * (long long)tries,
	      name, "waited %lld iterations over %llu samples, want 16 to %d each",
	      first, (unsigned long long)tries, CP_DITHER_SPINS - 1);
	q.seed = 54321;
	second = k_chase_spins(c, nl, &q, &tries2);
	snprintf(name, sizeof(name), "chase-dither-seeded-%s", tr);
	check(second >= 0 && second != first, name,
	      "seeds 12345 and 54321 waited %lld and %lld iterations", first,
	      second);
}

static int run_chase_dither(void)
{
	struct kctx c;

	k_open(&c);
	k_chase_dither(&c, true);
	k_chase_dither(&c, false);
	return failures ? 1 : 0;
}

static int run_chase_warm(void)
{
	struct kctx c;

	k_open(&c);
	k_chase_warm(&c, true);
	k_chase_warm(&c, false);
	return failures ? 1 : 0;
}

/* CHASE's ABI 4 options alone, for the test build's live-object count. */
static int run_chase_options(void)
{
	struct kctx c;

	k_open(&c);
	k_chase_options(&c, true);
	k_chase_options(&c, false);
	return failures ? 1 : 0;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * One request between "started at NS" and "finished at NS: errno E MSG"
 * (CLOCK_MONOTONIC, comparable between clients).  With @handled, a
 * SIGUSR1 handler is installed: the signal must end it with EINTR.
 */
static int run_timed(bool nl, bool handled, const struct kreq *q)
{
	struct sigaction sa;
	struct kctx c;
	struct kres k;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (handled)
		sigaction(SIGUSR1, &sa, NULL);
	k_open(&c);
	printf("started at %llu\n", now_ns());
	fflush(stdout);
	k_call(&c, nl, q, &k);
	printf("finished at %llu: errno %d %s\n", now_ns(), k.error, k.msg);
	return 0;
}

/* A measurement of @cmd that lasts seconds under emulation. */
static int run_long(bool nl, bool handled, const char *cmd)
{
	uint32_t last = online_cpus() - 1;
	struct kreq q = k_pingpong(0, last);

	q.samples = CACHEPROBE_MAX_SAMPLES;
	q.ops = 128;
	if (!strcmp(cmd, "bounce")) {
		q = k_bounce(2);
		q.samples = CACHEPROBE_MAX_SAMPLES;
		q.ops = 65536;
	} else if (!strcmp(cmd, "xfer")) {
		q = k_xfer(0, last);
		q.samples = CACHEPROBE_MAX_SAMPLES;
		q.size = 512 * 1024;
	} else if (!strcmp(cmd, "chase")) {
		q = k_chase(last);
		q.samples = CACHEPROBE_MAX_SAMPLES;
		q.ops = 32768;
	} else if (!strcmp(cmd, "chase-warm")) {
		/* ABI 6: building the chain, then walking it four times
		 * before the first sample, take most of its time. */
		q = k_chase(last);
		q.prepare = CACHEPROBE_PREPARE_WARM;
		q.size = 128ull << 20;
		q.samples = 2;
		q.ops = 16;
	} else if (strcmp(cmd, "pingpong")) {
		fprintf(stderr, "long: no command %s\n", cmd);
		return 2;
	}
	return run_timed(nl, handled, &q);
}

/*
 * @clean_errors: concurrent clients may meet an emulator too slow for a
 * window (EOVERFLOW) or a signal; an errno with a message is a clean end.
 */
static int run_small(bool nl, bool clean_errors)
{
	uint32_t last = online_cpus() - 1;
	struct kreq qs[4] = { k_chase(last), k_pingpong(0, last), k_bounce(2),
			      k_xfer(0, last) };
	struct kctx c;
	struct kres k;
	int i, bad = 0;

	k_open(&c);
	for (i = 0; i < 4; i++) {
		k_call(&c, nl, &qs[i], &k);
		if (k.error)
			printf("%s: errno %d %s\n", cmd_name(qs[i].cmd),
			       k.error, k.msg);
		if (k.error && (!clean_errors || !k.msg[0]))
			bad = 1;
	}
	return bad;
}

/*
 * Buffer sizes at max_buffer_mb (run with it small): the limit itself is
 * accepted, the smallest valid size above it refused with E2BIG.
 */
static int run_limit(void)
{
	uint32_t last = online_cpus() - 1;
	struct kreq q;
	struct kctx c;
	int nl;

	k_open(&c);
	printf("# max_buffer_bytes %llu\n", (unsigned long long)c.max_buffer);
	for (nl = 0; nl < 2; nl++) {
		q = k_chase(0);
		q.samples = 2;
		q.size = c.max_buffer;
		k_check_ok(&c, nl, "chase-size-at-limit", &q);
		q.size = c.max_buffer + 1;
		k_check_err(&c, nl, "chase-size-limit-plus-1", &q, E2BIG,
			    "max_buffer_mb");
		q = k_access(last);
		q.samples = 2;
		q.size = c.max_buffer;
		k_check_ok(&c, nl, "access-size-at-limit", &q);
		q.size = c.max_buffer + 1;
		k_check_err(&c, nl, "access-size-limit-plus-1", &q, E2BIG,
			    "max_buffer_mb");
		q = k_xfer(0, last);
		q.samples = 2;
		q.size = c.max_buffer;
		k_check_ok(&c, nl, "xfer-size-at-limit", &q);
		q.size = c.max_buffer + c.line;
		k_check_err(&c, nl, "xfer-size-limit-plus-line", &q, E2BIG,
			    "max_buffer_mb");
	}
	return failures ? 1 : 0;
}

/*
 * Buffers within max_buffer_mb (run with it at 64 GiB) whose slots number
 * more than U32_MAX: refused with E2BIG before anything is allocated (the
 * guest has far less memory).
 */
static int run_slots(void)
{
	struct kreq q;
	struct kctx c;
	int nl;

	k_open(&c);
	for (nl = 0; nl < 2; nl++) {
		q = k_chase(0);
		q.size = 33ULL << 30;
		q.stride = 8;
		q.ops = 256;
		k_check_err(&c, nl, "chase-too-many-slots", &q, E2BIG,
			    "too many slots");
		q = k_access(0);
		q.size = (4ULL << 30) + 64;
		q.stride = 1;
		q.width = 1;
		k_check_err(&c, nl, "access-latency-too-many-slots", &q, E2BIG,
			    "too many slots");
		q.variant = CACHEPROBE_ACCESS_LOAD_THROUGHPUT;
		k_check_err(&c, nl, "access-throughput-too-many-slots", &q,
			    E2BIG, "too many slots");
	}
	return failures ? 1 : 0;
}

/* With max_irqoff_us at its minimum, a long sample cannot fit a window. */
static int run_overflow(void)
{
	struct kreq q = k_chase(0);
	struct kctx c;
	int nl;

	k_open(&c);
	q.ops = 1 << 16;
	q.samples = 1;
	for (nl = 0; nl < 2; nl++)
		k_check_err(&c, nl, "overflow-chase", &q, EOVERFLOW,
			    "does not fit");
	return failures ? 1 : 0;
}

static int run_fault(const char *what)
{
	uint32_t last = online_cpus() - 1;
	struct kreq multi[3] = { k_pingpong(0, last), k_bounce(3),
				 k_xfer(0, last) };
	/* The silent thread is the last one of each request. */
	const uint32_t silent[3] = { last, 2, last };
	char want[64], full[80];
	struct kres k;
	struct kreq all[5] = { k_chase(0), k_access(0), k_pingpong(0, last),
			       k_bounce(2), k_xfer(0, last) };
	char name[64];
	struct kctx c;
	int i, nl;

	k_open(&c);
	for (nl = 0; nl < 2; nl++) {
		if (!strcmp(what, "wrongcpu")) {
			for (i = 0; i < 5; i++) {
				snprintf(name, sizeof(name), "wrongcpu-%s",
					 cmd_name(all[i].cmd));
				k_check_err(&c, nl, name, &all[i], EIO,
					    "ran on another CPU");
			}
		} else if (!strcmp(what, "timeout")) {
			for (i = 0; i < 3; i++) {
				snprintf(name, sizeof(name), "timeout-%s",
					 cmd_name(multi[i].cmd));
				snprintf(want, sizeof(want),
					 "CPU %u did not answer", silent[i]);
				snprintf(full, sizeof(full), "%s-%s", name,
					 nl ? "netlink" : "ioctl");
				/* 6.1's extack has the fixed text only. */
				k_call(&c, nl, &multi[i], &k);
				check(k.error == ETIMEDOUT &&
				      strstr(k.msg, "did not answer") &&
				      (strstr(k.msg, want) ||
				       (nl && !strstr(k.msg, "thread on"))),
				      full,
				      "errno %d (%s) msg \"%s\"; wanted ETIMEDOUT \"%s\"",
				      k.error, strerror(k.error), k.msg, want);
			}
		} else {
			struct kreq huge = k_chase(0);

			for (i = 0; i < 5; i++) {
				snprintf(name, sizeof(name), "nomem-%s",
					 cmd_name(all[i].cmd));
				k_check_err(&c, nl, name, &all[i], ENOMEM,
					    "cannot allocate");
			}
			/* The 2 MiB pages' allocation fails the same way. */
			huge.pages = CACHEPROBE_PAGES_2M;
			huge.size = 4 << 20;
			huge.chases = 4;
			k_check_err(&c, nl, "nomem-chase-2m", &huge, ENOMEM,
				    "cannot allocate");
		}
	}
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
	struct rawnl_answer ans;
	struct rawnl_req r;
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
	nl_flush_cpus(fd, fam, &r, NULL, 0, CACHEPROBE_FLUSH_WBINVD, &ans);
	expect_nl("unpriv-nl-flush-eperm", &ans, EPERM, "CAP_SYS_ADMIN");
	{
		struct kctx c = { .fd = fd, .fam = fam, .dev = dev };
		struct kreq q = k_chase(0);

		k_check_err(&c, true, "unpriv-chase-eperm", &q, EPERM,
			    "CAP_SYS_ADMIN");
		k_check_err(&c, false, "unpriv-chase-eperm", &q, EPERM,
			    "CAP_SYS_ADMIN");
	}
	test_nl_info(fd, fam);
	close(fd);
	close(dev);
	return failures ? 1 : 0;
}

static int run_offline(uint32_t cpu)
{
	int fd = nl_sock();
	int dev = open("/dev/" CACHEPROBE_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	check(dev >= 0, "ioc-open", "open: %s", strerror(errno));
	if (dev >= 0 && cpu < 64) {
		test_flush_offline(fd, family_id(fd), dev, cpu);
		close(dev);
	}
	close(fd);
	return run_kcmd(cpu);
}

/* The test build with fault_inject's CP_FAULT_ASSUME_WBNOINVD set. */
static int run_wbnoinvd_assumed(void)
{
	int fd = nl_sock();
	int dev = open("/dev/" CACHEPROBE_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	check(dev >= 0, "ioc-open", "open: %s", strerror(errno));
	if (dev >= 0) {
		test_wbnoinvd(fd, family_id(fd), dev, true);
		close(dev);
	}
	close(fd);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "root"))
		return run_root();
	if (argc == 2 && !strcmp(argv[1], "unpriv"))
		return run_unpriv();
	if (argc == 2 && !strcmp(argv[1], "abi")) {
		/* What genl must list, from the header this was built with. */
		printf("version %d\nops", CACHEPROBE_GENL_VERSION);
		for (int cmd = CACHEPROBE_CMD_UNSPEC + 1;
		     cmd <= CACHEPROBE_CMD_MAX; cmd++)
			printf(" %d", cmd);
		putchar('\n');
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "kcmd"))
		return run_kcmd(~0u);
	if (argc == 2 && !strcmp(argv[1], "chase-options"))
		return run_chase_options();
	if (argc == 2 && !strcmp(argv[1], "chase-warm"))
		return run_chase_warm();
	if (argc == 2 && !strcmp(argv[1], "chase-dither"))
		return run_chase_dither();
	if (argc == 3 && !strcmp(argv[1], "offline"))
		return run_offline((uint32_t)atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "wbnoinvd") &&
	    !strcmp(argv[2], "assumed"))
		return run_wbnoinvd_assumed();
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "long"))
		return run_long(!strcmp(argv[2], "netlink"), false,
				argc == 4 ? argv[3] : "pingpong");
	if (argc == 3 && !strcmp(argv[1], "long-handled"))
		return run_long(!strcmp(argv[2], "netlink"), true, "pingpong");
	if (argc == 3 && !strcmp(argv[1], "wait")) {
		struct kreq q = k_chase(0);

		return run_timed(!strcmp(argv[2], "netlink"), true, &q);
	}
	if (argc == 3 && !strcmp(argv[1], "small"))
		return run_small(!strcmp(argv[2], "netlink"), false);
	if (argc == 3 && !strcmp(argv[1], "concurrent"))
		return run_small(!strcmp(argv[2], "netlink"), true);
	if (argc == 2 && !strcmp(argv[1], "limit"))
		return run_limit();
	if (argc == 2 && !strcmp(argv[1], "slots"))
		return run_slots();
	if (argc == 2 && !strcmp(argv[1], "overflow"))
		return run_overflow();
	if (argc == 3 && !strcmp(argv[1], "fault"))
		return run_fault(argv[2]);
	fprintf(stderr,
		"usage: %s root|unpriv|kcmd|chase-options|chase-warm|offline CPU|overflow|limit|long T [CMD]|long-handled T|wait T|small T|concurrent T|fault WHAT|wbnoinvd assumed|abi\n",
		argv[0]);
	return 2;
}
