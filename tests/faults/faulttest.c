// SPDX-License-Identifier: GPL-2.0
/*
 * faulttest: the client side of the fault and load tests of cacheprobe.ko
 * (tests/faults/guest-faults.sh), run inside a test guest.  Like
 * tests/guest/rawtest.c it builds netlink messages and ioctl structs by
 * hand, so it depends on nothing but the UAPI header.
 *
 * Usage:
 *   faulttest long CMD T [SAMPLES [REPEAT]]
 *	a long CMD (chase, access, pingpong, bounce, xfer, flush) over
 *	transport T (netlink or ioctl), SAMPLES samples (default 4096),
 *	REPEAT times in a row (default 1, stopping at an error); prints
 *	"started" before the first request and "finished: errno N MSG"
 *	after the last, with the time (centiseconds of /proc/uptime), so a
 *	caller can tell whether its kill or CPU offline landed mid-run.  FLUSH is short by nature: "long" flush is SAMPLES
 *	flushes of every CPU in a row.
 *   faulttest hold SECS
 *	opens /dev/cacheprobe, prints "holding", keeps it open SECS seconds
 *	(or until killed), then checks GET_INFO still works through it.
 *   faulttest check T
 *	the module answers correctly over T: GET_INFO (ABI, online CPUs)
 *	and a tiny CHASE with one non-zero value.
 *   faulttest load T OPS SEED
 *	OPS mixed commands (GET_INFO, FLUSH and every measurement, random
 *	CPUs) over T; each must succeed or fail cleanly (an errno the ABI
 *	lists for a valid request under load, with the module's message).
 *   faulttest cycles KO WARMUP N
 *	WARMUP + N cycles of load (finit_module), check over netlink and
 *	ioctl, unload (delete_module); Slab and VmallocUsed after the
 *	warm-up and after the last cycle, compared.
 * Prints "PASS name", "FAIL name: why" and "# info" lines; exit status 1
 * if any check failed, 2 on bad usage.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

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

static uint32_t online_cpus(void)
{
	return (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The shell's clock (/proc/uptime), in centiseconds; -1 if unreadable. */
static long uptime_cs(void)
{
	FILE *f = fopen("/proc/uptime", "r");
	long s = -1, cs = 0;

	if (f) {
		if (fscanf(f, "%ld.%ld", &s, &cs) != 2)
			s = -1;
		fclose(f);
	}
	return s < 0 ? -1 : s * 100 + cs;
}

/* ---- netlink by hand (as rawtest) ---- */

struct answer {
	struct rawnl_answer nl;	/* error, message, netlink reply */
	uint32_t online;	/* GET_INFO: online CPUs (0: wrong ABI) */
	uint32_t values;	/* measurements: values, 0 if the first is 0 */
};

/* ---- requests, over either transport ---- */

#define MAX_CPUS 8

struct req {
	uint8_t cmd;
	uint32_t cpus[MAX_CPUS];
	uint32_t nr_cpus;
	uint32_t samples;
	uint64_t size;
	uint32_t ops, stride, order, prepare, variant, width, distance;
};

struct conn {
	bool nl;
	int fd;		/* netlink socket */
	uint16_t fam;
	int dev;	/* /dev/cacheprobe */
};

static const char *cmd_name(uint8_t cmd)
{
	static const char *const names[] = {
		[CACHEPROBE_CMD_GET_INFO] = "info",
		[CACHEPROBE_CMD_FLUSH] = "flush",
		[CACHEPROBE_CMD_CHASE] = "chase",
		[CACHEPROBE_CMD_ACCESS] = "access",
		[CACHEPROBE_CMD_PINGPONG] = "pingpong",
		[CACHEPROBE_CMD_BOUNCE] = "bounce",
		[CACHEPROBE_CMD_XFER] = "xfer",
	};

	return cmd <= CACHEPROBE_CMD_MAX && names[cmd] ? names[cmd] : "?";
}

static void nl_build(struct rawnl_req *r, uint16_t fam, const struct req *q)
{
	rawnl_start(r, fam, q->cmd, CACHEPROBE_GENL_VERSION);
	if (q->cmd == CACHEPROBE_CMD_GET_INFO)
		return;
	if (q->cmd == CACHEPROBE_CMD_FLUSH) {
		rawnl_put_u32(r, CACHEPROBE_ATTR_FLUSH_METHOD,
			   CACHEPROBE_FLUSH_WBINVD);
		return;
	}
	rawnl_put(r, CACHEPROBE_ATTR_CPU_LIST, q->cpus,
	       q->nr_cpus * sizeof(uint32_t));
	rawnl_put_u32(r, CACHEPROBE_ATTR_SAMPLES, q->samples);
	if (q->cmd != CACHEPROBE_CMD_XFER)
		rawnl_put_u32(r, CACHEPROBE_ATTR_OPS, q->ops);
	if (q->cmd == CACHEPROBE_CMD_CHASE || q->cmd == CACHEPROBE_CMD_ACCESS ||
	    q->cmd == CACHEPROBE_CMD_XFER)
		rawnl_put_u64(r, CACHEPROBE_ATTR_SIZE, q->size);
	if (q->cmd != CACHEPROBE_CMD_CHASE)
		rawnl_put_u32(r, CACHEPROBE_ATTR_VARIANT, q->variant);
	if (q->cmd == CACHEPROBE_CMD_CHASE) {
		rawnl_put_u32(r, CACHEPROBE_ATTR_ORDER, q->order);
		rawnl_put_u32(r, CACHEPROBE_ATTR_PREPARE, q->prepare);
	}
	if (q->cmd == CACHEPROBE_CMD_ACCESS || q->cmd == CACHEPROBE_CMD_BOUNCE)
		rawnl_put_u32(r, CACHEPROBE_ATTR_WIDTH, q->width);
	if (q->cmd == CACHEPROBE_CMD_BOUNCE)
		rawnl_put_u32(r, CACHEPROBE_ATTR_DISTANCE, q->distance);
}

union ioc {
	struct cacheprobe_info info;
	struct cacheprobe_flush flush;
	struct cacheprobe_chase chase;
	struct cacheprobe_access access;
	struct cacheprobe_pingpong pingpong;
	struct cacheprobe_bounce bounce;
	struct cacheprobe_xfer xfer;
};

/* The measurement structs: head, run, then the command's own fields. */
static unsigned long ioc_build_run(union ioc *u, const struct req *q)
{
	switch (q->cmd) {
	case CACHEPROBE_CMD_CHASE:
		u->chase.size = q->size;
		u->chase.hops = q->ops;
		u->chase.order = q->order;
		u->chase.prepare = q->prepare;
		return CACHEPROBE_IOC_CHASE;
	case CACHEPROBE_CMD_ACCESS:
		u->access.size = q->size;
		u->access.width = q->width;
		u->access.variant = q->variant;
		u->access.accesses = q->ops;
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
		return CACHEPROBE_IOC_XFER;
	}
}

static void ioc_call(int dev, const struct req *q, struct answer *ans)
{
	static uint64_t values[CACHEPROBE_MAX_VALUES];
	static struct cacheprobe_cpu_time times[CACHEPROBE_MAX_CPUS];
	char msg[CACHEPROBE_MSG_MAX] = "";
	unsigned long nr = CACHEPROBE_IOC_GET_INFO;
	union ioc u;

	memset(&u, 0, sizeof(u));
	memset(ans, 0, sizeof(*ans));
	u.info.head.msg = (uintptr_t)msg;
	u.info.head.msg_len = sizeof(msg);
	if (q->cmd == CACHEPROBE_CMD_FLUSH) {
		u.flush.method = CACHEPROBE_FLUSH_WBINVD;
		u.flush.results = (uintptr_t)times;
		u.flush.results_cap = CACHEPROBE_MAX_CPUS;
		nr = CACHEPROBE_IOC_FLUSH;
	} else if (q->cmd != CACHEPROBE_CMD_GET_INFO) {
		nr = ioc_build_run(&u, q);
		u.chase.run.cpus = (uintptr_t)q->cpus;
		u.chase.run.nr_cpus = q->nr_cpus;
		u.chase.run.samples = q->samples;
		u.chase.run.values = (uintptr_t)values;
		u.chase.run.values_cap = CACHEPROBE_MAX_VALUES;
	}
	if (ioctl(dev, nr, &u) < 0) {
		ans->nl.error = errno;
		snprintf(ans->nl.msg, sizeof(ans->nl.msg), "%s", msg);
		return;
	}
	if (q->cmd == CACHEPROBE_CMD_GET_INFO &&
	    u.info.abi_version == CACHEPROBE_ABI_VERSION)
		ans->online = u.info.nr_online_cpus;
	if (q->cmd >= CACHEPROBE_CMD_CHASE && values[0])
		ans->values = u.chase.run.nr_values;
}

/* The same two facts from a netlink reply. */
static void nl_summarize(const struct req *q, struct answer *ans)
{
	const struct nlattr *a, *s, *v;

	if (ans->nl.error)
		return;
	if (q->cmd == CACHEPROBE_CMD_GET_INFO) {
		a = rawnl_find(ans->nl.reply, ans->nl.reply_len,
			    CACHEPROBE_ATTR_ABI_VERSION);
		s = rawnl_find(ans->nl.reply, ans->nl.reply_len,
			    CACHEPROBE_ATTR_NR_ONLINE_CPUS);
		if (a && s && rawnl_u32(a) == CACHEPROBE_ABI_VERSION)
			ans->online = rawnl_u32(s);
		return;
	}
	s = rawnl_find(ans->nl.reply, ans->nl.reply_len, CACHEPROBE_ATTR_SERIES);
	v = s ? rawnl_find((const char *)s + NLA_HDRLEN, s->nla_len - NLA_HDRLEN,
			CACHEPROBE_SERIES_VALUES) : NULL;
	if (v && v->nla_len >= NLA_HDRLEN + 8 &&
	    *(const uint64_t *)((const char *)v + NLA_HDRLEN))
		ans->values = (v->nla_len - NLA_HDRLEN) / 8;
}

static void call(const struct conn *c, const struct req *q, struct answer *ans)
{
	struct rawnl_req r;

	if (c->nl) {
		nl_build(&r, c->fam, q);
		rawnl_talk(c->fd, &r, &ans->nl);
		nl_summarize(q, ans);
	} else {
		ioc_call(c->dev, q, ans);
	}
}

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	if (c->dev >= 0)
		close(c->dev);
}

/* 0, or -1 with a FAIL line when the module is not there. */
static int conn_open(struct conn *c, bool nl, const char *name)
{
	/*
	 * Only the transport in use: an open device holds a reference on
	 * the module, a netlink socket does not, and the rmmod tests tell
	 * the two cases apart.
	 */
	c->nl = nl;
	c->fd = nl ? rawnl_socket() : -1;
	c->fam = c->fd >= 0 ? rawnl_family_id(c->fd) : 0;
	c->dev = nl ? -1 : open("/dev/" CACHEPROBE_DEVICE_NAME,
				O_RDWR | O_CLOEXEC);
	if ((nl && !c->fam) || (!nl && c->dev < 0)) {
		check(false, name, "cannot reach the module over %s: %s",
		      nl ? "netlink" : "ioctl", strerror(errno));
		conn_close(c);
		return -1;
	}
	return 0;
}

/* ---- request shapes ---- */

static struct req req_of(const char *name, uint32_t a, uint32_t b)
{
	struct req q = { .samples = 4, .ops = 64, .size = 16384,
			 .nr_cpus = 2, .cpus = { a, b }, .width = 8,
			 .distance = 64 };

	if (!strcmp(name, "info"))
		q.cmd = CACHEPROBE_CMD_GET_INFO;
	else if (!strcmp(name, "flush"))
		q.cmd = CACHEPROBE_CMD_FLUSH;
	else if (!strcmp(name, "chase"))
		q.cmd = CACHEPROBE_CMD_CHASE;
	else if (!strcmp(name, "access"))
		q.cmd = CACHEPROBE_CMD_ACCESS;
	else if (!strcmp(name, "pingpong"))
		q.cmd = CACHEPROBE_CMD_PINGPONG;
	else if (!strcmp(name, "bounce"))
		q.cmd = CACHEPROBE_CMD_BOUNCE;
	else if (!strcmp(name, "xfer"))
		q.cmd = CACHEPROBE_CMD_XFER;
	if (q.cmd == CACHEPROBE_CMD_CHASE || q.cmd == CACHEPROBE_CMD_ACCESS) {
		q.nr_cpus = 1;
		q.cpus[0] = b;
	}
	/* Every variant enum starts at 1; 1 is a valid choice for each. */
	q.variant = 1;
	q.ops = q.cmd == CACHEPROBE_CMD_PINGPONG ? 8 : q.ops;
	return q;
}

/*
 * A request that runs for a second or more under emulation: many samples,
 * each small enough for a window.  CHASE also CLFLUSHes a 4 MiB buffer
 * before every sample, so a kill may land in the preparation (interrupts
 * on) as well as in a window.
 */
static struct req long_req(const char *name, uint32_t samples)
{
	uint32_t last = online_cpus() - 1, i;
	struct req q = req_of(name, 0, last);

	q.samples = samples;
	if (q.cmd == CACHEPROBE_CMD_CHASE) {
		q.size = 4 << 20;
		q.prepare = CACHEPROBE_PREPARE_CLFLUSH;
	}
	if (q.cmd == CACHEPROBE_CMD_ACCESS) {
		q.size = 256 * 1024;
		q.ops = 16384;
	}
	if (q.cmd == CACHEPROBE_CMD_PINGPONG)
		q.ops = 32;
	if (q.cmd == CACHEPROBE_CMD_BOUNCE) {
		q.ops = 16384;
		q.nr_cpus = last + 1 > MAX_CPUS ? MAX_CPUS : last + 1;
		for (i = 0; i < q.nr_cpus; i++)
			q.cpus[i] = i;
		if (q.samples * q.nr_cpus > CACHEPROBE_MAX_VALUES)
			q.samples = CACHEPROBE_MAX_VALUES / q.nr_cpus;
	}
	if (q.cmd == CACHEPROBE_CMD_XFER)
		q.size = 1 << 20;
	return q;
}

/* ---- subcommands ---- */

/* @repeat requests in a row (FLUSH: @samples times as many). */
static int run_long(const char *name, bool nl, uint32_t samples,
		    uint32_t repeat)
{
	struct req q = long_req(name, samples);
	static struct answer ans;
	struct conn c;
	uint32_t i, n = repeat;

	if (!q.cmd || conn_open(&c, nl, "long-open"))
		return 2;
	if (q.cmd == CACHEPROBE_CMD_FLUSH)
		n *= samples;
	printf("started\n");
	for (i = 0; i < n; i++) {
		call(&c, &q, &ans);
		if (ans.nl.error)
			break;
	}
	printf("finished: errno %d %s (%u requests, %u values) at %ld\n",
	       ans.nl.error, ans.nl.msg, i, ans.values, uptime_cs());
	return 0;
}

static int run_hold(unsigned int secs)
{
	struct req q = req_of("info", 0, 0);
	static struct answer ans;
	int dev = open("/dev/" CACHEPROBE_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	if (dev < 0) {
		printf("open: %s\n", strerror(errno));
		return 1;
	}
	printf("holding\n");
	sleep(secs);
	ioc_call(dev, &q, &ans);
	check(!ans.nl.error && ans.online == online_cpus(), "hold-info",
	      "errno %d %s", ans.nl.error, ans.nl.msg);
	close(dev);
	return failures ? 1 : 0;
}

/*
 * GET_INFO and a tiny CHASE: the module answers, and correctly.  Returns
 * true, or false with the reason in @why.
 */
static bool module_ok(const struct conn *c, char *why, size_t len)
{
	struct req info = req_of("info", 0, 0);
	struct req chase = req_of("chase", 0, online_cpus() - 1);
	static struct answer ans;

	call(c, &info, &ans);
	if (ans.nl.error || ans.online != online_cpus()) {
		snprintf(why, len, "GET_INFO: errno %d \"%s\", online %u of %u",
			 ans.nl.error, ans.nl.msg, ans.online, online_cpus());
		return false;
	}
	call(c, &chase, &ans);
	if (ans.nl.error || ans.values != chase.samples) {
		snprintf(why, len, "CHASE: errno %d \"%s\", %u values",
			 ans.nl.error, ans.nl.msg, ans.values);
		return false;
	}
	return true;
}

static int run_check(bool nl)
{
	struct conn c;
	char name[64];

	snprintf(name, sizeof(name), "answers-%s", nl ? "netlink" : "ioctl");
	char why[600];

	if (conn_open(&c, nl, name))
		return 1;
	check(module_ok(&c, why, sizeof(why)), name, "%s", why);
	conn_close(&c);
	return failures ? 1 : 0;
}

/*
 * Errors a valid request may meet under load: a window stretched by the
 * emulator (EOVERFLOW), a partner thread starved past partner_timeout_ms
 * (ETIMEDOUT).  Each must come with the module's message.
 */
static bool clean_error(const struct answer *ans)
{
	return (ans->nl.error == EOVERFLOW || ans->nl.error == ETIMEDOUT) &&
	       ans->nl.msg[0];
}

static struct req random_req(uint64_t *seed)
{
	static const char *const names[] = { "info", "flush", "chase",
		"access", "pingpong", "bounce", "xfer" };
	uint32_t n = online_cpus(), a, b;

	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	a = (uint32_t)(*seed >> 33) % n;
	b = (a + 1 + (uint32_t)(*seed >> 45) % (n - 1)) % n;
	return req_of(names[(*seed >> 20) % 7], a, b);
}

static int run_load(bool nl, unsigned int ops, uint64_t seed)
{
	unsigned int i, ok = 0, clean = 0, bad = 0;
	static struct answer ans;
	struct conn c;
	struct req q;

	if (conn_open(&c, nl, "load-open"))
		return 1;
	for (i = 0; i < ops; i++) {
		q = random_req(&seed);
		call(&c, &q, &ans);
		if (!ans.nl.error) {
			ok++;
			continue;
		}
		if (clean_error(&ans)) {
			clean++;
		} else {
			bad++;
		}
		printf("# %s cpus %u,%u: errno %d (%s) \"%s\"\n",
		       cmd_name(q.cmd), q.cpus[0], q.cpus[1], ans.nl.error,
		       strerror(ans.nl.error), ans.nl.msg);
	}
	printf("# load %s: %u ops, %u ok, %u clean errors, %u bad\n",
	       nl ? "netlink" : "ioctl", ops, ok, clean, bad);
	conn_close(&c);
	return bad ? 1 : 0;
}

/* ---- load/unload cycles ---- */

struct mem {
	long slab, sunreclaim, vmalloc;	/* kB */
};

/* Writes "1" to every /sys/kernel/slab/NAME/shrink: frees empty slabs
 * and, on a KASAN kernel (make check-debug), the freed objects it holds
 * in quarantine, which would otherwise look like growth. */
static void shrink_slab_caches(void)
{
	DIR *dir = opendir("/sys/kernel/slab");
	struct dirent *entry;
	char path[512];
	FILE *f;

	if (!dir)
		return;
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink",
			 entry->d_name);
		f = fopen(path, "w");
		if (f) {
			fputs("1\n", f);
			fclose(f);
		}
	}
	closedir(dir);
}

/* Reclaimable slab (dentries, inodes) dropped and slab caches shrunk
 * first: less noise. */
static struct mem mem_level(void)
{
	struct mem m = { -1, -1, -1 };
	char line[256];
	FILE *f = fopen("/proc/sys/vm/drop_caches", "w");

	if (f) {
		fputs("2\n", f);
		fclose(f);
	}
	shrink_slab_caches();
	usleep(200000);
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return m;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "Slab: %ld", &m.slab);
		sscanf(line, "SUnreclaim: %ld", &m.sunreclaim);
		sscanf(line, "VmallocUsed: %ld", &m.vmalloc);
	}
	fclose(f);
	return m;
}

static int module_load(int ko)
{
	return (int)syscall(SYS_finit_module, ko, "", 0);
}

static int module_unload(void)
{
	return (int)syscall(SYS_delete_module, "cacheprobe", O_NONBLOCK);
}

/* One cycle: load, the module answers on both transports, unload. */
static int one_cycle(int ko, unsigned int i)
{
	struct conn c;
	char why[600];
	int bad = failures;

	if (module_load(ko)) {
		check(false, "cycles-load", "cycle %u: finit_module: %s", i,
		      strerror(errno));
		return -1;
	}
	if (!conn_open(&c, i % 2 == 0, "cycles-answer")) {
		if (!module_ok(&c, why, sizeof(why)))
			check(false, "cycles-answer", "cycle %u: %s", i, why);
		conn_close(&c);
	}
	/* Only failures are printed: 200 PASS lines would say nothing. */
	if (module_unload()) {
		check(false, "cycles-unload", "cycle %u: delete_module: %s", i,
		      strerror(errno));
		return -1;
	}
	return failures > bad ? -1 : 0;
}

/*
 * Tolerances: slab caches keep freed objects per CPU and in partial slabs,
 * and kernel-thread stacks (vmalloc'ed) are cached per CPU, so a clean
 * module still moves both levels a little; a leak of a page (vmalloc) or
 * of a sysfs directory's objects (slab, kilobytes) per cycle exceeds them
 * over 200 cycles.  A leak of a few bytes per cycle is below what these
 * counters can show.
 */
#define SLAB_TOLERANCE_KB	256
#define VMALLOC_TOLERANCE_KB	64

static int run_cycles(const char *path, unsigned int warmup, unsigned int n)
{
	int ko = open(path, O_RDONLY | O_CLOEXEC);
	unsigned int i, done = 0;
	struct mem m0 = { 0 }, m1;
	double t0 = now_s();
	char name[64];

	if (ko < 0) {
		check(false, "cycles-open", "%s: %s", path, strerror(errno));
		return 1;
	}
	for (i = 0; i < warmup + n; i++) {
		if (i == warmup)
			m0 = mem_level();
		if (one_cycle(ko, i))
			break;
		done += i >= warmup;
	}
	m1 = mem_level();
	snprintf(name, sizeof(name), "cycles-%u", n);
	check(done == n, name, "%u of %u cycles completed", done, n);
	printf("# %u cycles in %.1f s; Slab %ld -> %ld kB, SUnreclaim %ld -> %ld kB, VmallocUsed %ld -> %ld kB\n",
	       warmup + n, now_s() - t0, m0.slab, m1.slab, m0.sunreclaim,
	       m1.sunreclaim, m0.vmalloc, m1.vmalloc);
	check(m1.slab - m0.slab <= SLAB_TOLERANCE_KB, "cycles-slab-level",
	      "Slab %ld -> %ld kB (allowed +%d)", m0.slab, m1.slab,
	      SLAB_TOLERANCE_KB);
	check(m1.vmalloc - m0.vmalloc <= VMALLOC_TOLERANCE_KB,
	      "cycles-vmalloc-level", "VmallocUsed %ld -> %ld kB (allowed +%d)",
	      m0.vmalloc, m1.vmalloc, VMALLOC_TOLERANCE_KB);
	close(ko);
	return failures ? 1 : 0;
}

static int usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s long CMD T [SAMPLES [REPEAT]] | hold SECS | check T | load T OPS SEED | cycles KO WARMUP N\n",
		prog);
	return 2;
}

static bool is_nl(const char *t)
{
	return !strcmp(t, "netlink");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 4 && argc <= 6 && !strcmp(argv[1], "long"))
		return run_long(argv[2], is_nl(argv[3]),
				argc > 4 ? (uint32_t)atoi(argv[4]) :
					   CACHEPROBE_MAX_SAMPLES,
				argc > 5 ? (uint32_t)atoi(argv[5]) : 1);
	if (argc == 3 && !strcmp(argv[1], "hold"))
		return run_hold((unsigned int)atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "check"))
		return run_check(is_nl(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "load"))
		return run_load(is_nl(argv[2]), (unsigned int)atoi(argv[3]),
				strtoull(argv[4], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "cycles"))
		return run_cycles(argv[2], (unsigned int)atoi(argv[3]),
				  (unsigned int)atoi(argv[4]));
	return usage(argv[0]);
}
