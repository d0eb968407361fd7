// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctl transport against a stand-in for the module: the program is
 * linked with --wrap=ioctl, so the client's ioctl() calls land in
 * __wrap_ioctl below, which checks each request as the ABI header says the
 * module does, and answers it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_ops.h"
#include "areas/latency/latency_kernel_run.h"

#define FAKE_NR_CPU_IDS 70
#define FAKE_MASK_BYTES 16	/* DIV_ROUND_UP(70, 64) * 8 */

/* What the stand-in answers with, and what it was asked. */
static struct {
	int fail_with;		/* errno for the next FLUSH, 0 for none */
	const char *message;	/* written to the message buffer, or NULL */
	uint32_t extra_results;	/* results beyond the CPUs asked for */
	int info_calls;
	uint32_t info_mask_bytes[2];
	struct cacheprobe_flush last_flush;
	uint64_t last_cpus[2];
	struct cacheprobe_bounce last_bounce;
	struct cacheprobe_xfer last_xfer;
	struct cacheprobe_chase last_chase;
	int chase_calls;
	struct cacheprobe_access last_access;
	int access_calls;
	uint32_t last_run_cpus[CACHEPROBE_RUN_MAX_CPUS];
	uint32_t bounce_series;		/* series the fake reports */
} fake;

/* CPUs 0, 1, 5 and 69 are online; 0-69 are possible. */
static const uint64_t online_mask[2] = { 0x23, 1ull << 5 };
static const uint64_t possible_mask[2] = { ~0ull, (1ull << 6) - 1 };

static bool zero(const __u64 *words, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (words[i])
			return false;
	return true;
}

static void write_message(const struct cacheprobe_ioc_head *head,
			  const char *text)
{
	size_t room = head->msg_len < CACHEPROBE_MSG_MAX ? head->msg_len
							 : CACHEPROBE_MSG_MAX;

	/* No NUL when the text fills the buffer, as the ABI allows: the
	 * client must terminate the message itself. */
	if (head->msg && room)
		strncpy((char *)(uintptr_t)head->msg, text, room);
}

static int refuse(const struct cacheprobe_ioc_head *head, int err,
		  const char *text)
{
	if (text)
		write_message(head, text);
	errno = err;
	return -1;
}

static void fill_numbers(struct cacheprobe_info *info)
{
	snprintf(info->module_version, sizeof(info->module_version), "9.8.7");
	info->abi_version = 1;
	info->nr_cpu_ids = FAKE_NR_CPU_IDS;
	info->nr_possible_cpus = 70;
	info->nr_online_cpus = 4;
	info->tsc_khz = 1000000;
	info->cache_line_size = 64;
	info->features = CACHEPROBE_FEAT_RDTSCP;
	info->max_cpus = CACHEPROBE_MAX_CPUS;
	info->max_irqoff_ns = 2000000;
	info->max_buffer_bytes = 256 << 20;
	info->partner_timeout_ms = 2000;
	info->max_values = CACHEPROBE_MAX_VALUES;
	info->max_chases = CACHEPROBE_MAX_CHASES;
}

static int fake_get_info(struct cacheprobe_info *info)
{
	if (info->head.flags || info->reserved)
		return refuse(&info->head, EINVAL, "reserved field not zero");
	if (fake.info_calls < 2)
		fake.info_mask_bytes[fake.info_calls] = info->mask_bytes;
	fake.info_calls++;
	if (!info->possible_cpus && !info->online_cpus) {
		if (info->mask_bytes)
			return refuse(&info->head, EINVAL, "mask_bytes without masks");
		fill_numbers(info);
		return 0;
	}
	if (info->mask_bytes < FAKE_MASK_BYTES || info->mask_bytes % 8)
		return refuse(&info->head, EINVAL, "mask buffers too small");
	fill_numbers(info);
	memcpy((void *)(uintptr_t)info->possible_cpus, possible_mask,
	       FAKE_MASK_BYTES);
	memcpy((void *)(uintptr_t)info->online_cpus, online_mask,
	       FAKE_MASK_BYTES);
	info->mask_bytes = FAKE_MASK_BYTES;
	return 0;
}

/* The CPUs a FLUSH request names: its mask, or every online CPU. */
static void requested_cpus(const struct cacheprobe_flush *request,
			   uint64_t *words)
{
	memset(words, 0, 2 * sizeof(*words));
	if (!request->cpus) {
		memcpy(words, online_mask, sizeof(online_mask));
		return;
	}
	memcpy(words, (const void *)(uintptr_t)request->cpus,
	       request->cpus_bytes < 16 ? request->cpus_bytes : 16);
}

static int fake_flush(struct cacheprobe_flush *request)
{
	struct cacheprobe_cpu_time *results =
		(void *)(uintptr_t)request->results;
	uint64_t words[2];
	uint32_t count = 0;

	fake.last_flush = *request;
	requested_cpus(request, fake.last_cpus);
	if (fake.fail_with)
		return refuse(&request->head, fake.fail_with, fake.message);
	if (request->head.flags || !zero(request->reserved, 4) ||
	    (request->cpus && (!request->cpus_bytes || request->cpus_bytes % 8)))
		return refuse(&request->head, EINVAL, "malformed FLUSH");
	requested_cpus(request, words);
	for (uint32_t cpu = 0; cpu < 128; cpu++) {
		if (!(words[cpu / 64] >> (cpu % 64) & 1))
			continue;
		if (count == request->results_cap)
			return refuse(&request->head, EINVAL, "results_cap too small");
		results[count++] = (struct cacheprobe_cpu_time){
			.cpu = cpu, .cycles = 1000 + cpu, .nsec = cpu,
		};
	}
	request->nr_results = count + fake.extra_results;
	return 0;
}

/* BOUNCE the way the module answers it: one series per CPU. */
static int fake_bounce(struct cacheprobe_bounce *request)
{
	struct cacheprobe_run *run = &request->run;
	uint64_t *values = (void *)(uintptr_t)run->values;
	uint32_t series = fake.bounce_series ? fake.bounce_series
					     : run->nr_cpus;

	fake.last_bounce = *request;
	memcpy(fake.last_run_cpus, (const void *)(uintptr_t)run->cpus,
	       run->nr_cpus * sizeof(uint32_t));
	if (fake.fail_with)
		return refuse(&request->head, fake.fail_with, fake.message);
	if ((uint64_t)series * run->samples > run->values_cap)
		return refuse(&request->head, EINVAL, "value array too small");
	for (uint32_t i = 0; i < series * run->samples; i++)
		values[i] = 100 + i;
	run->nr_series = series;
	run->nr_values = series * run->samples;
	run->ops = request->increments;
	run->window_max_cycles = 5000;
	run->window_max_nsec = 2500;
	run->windows = run->samples;
	run->retries = 1;
	run->missed_rounds = 37;
	run->disturbed = 2;
	return 0;
}

/* XFER the way the module answers it: the consumer's series, ops the
 * lines of the block; DELAY beyond its limit refused with its message. */
static int fake_xfer(struct cacheprobe_xfer *request)
{
	struct cacheprobe_run *run = &request->run;
	uint64_t *values = (void *)(uintptr_t)run->values;

	fake.last_xfer = *request;
	memcpy(fake.last_run_cpus, (const void *)(uintptr_t)run->cpus,
	       run->nr_cpus * sizeof(uint32_t));
	if (request->head.flags || request->reserved[0] ||
	    request->reserved[1] || request->reserved[2])
		return refuse(&request->head, EINVAL,
			      "reserved fields must be zero: struct cacheprobe_xfer.reserved");
	if (request->delay > CACHEPROBE_MAX_DELAY)
		return refuse(&request->head, EINVAL,
			      "DELAY too large: 5000 dependent adds after each load; at most 4096");
	if (run->samples > run->values_cap)
		return refuse(&request->head, EINVAL, "value array too small");
	for (uint32_t i = 0; i < run->samples; i++)
		values[i] = 700 + i;
	run->nr_series = 1;
	run->nr_values = run->samples;
	run->ops = request->size / 64;
	return 0;
}

/* CHASE the way an ABI 4 module answers it: one series, ops the loads,
 * page_bytes the pages asked for (as if 2 MiB pages were free). */
static int fake_chase(struct cacheprobe_chase *request)
{
	struct cacheprobe_run *run = &request->run;
	uint64_t *values = (void *)(uintptr_t)run->values;

	fake.last_chase = *request;
	fake.chase_calls++;
	/* Outputs the client must not send: ABI 3 wanted them 0. */
	if (request->head.flags || run->missed_rounds || run->disturbed)
		return refuse(&request->head, EINVAL,
			      "reserved fields must be zero");
	if (request->chases > CACHEPROBE_MAX_CHASES)
		return refuse(&request->head, EINVAL,
			      "CHASES out of range: 17 chases; 1 to 16");
	if (request->chases && request->hops % request->chases)
		return refuse(&request->head, EINVAL,
			      "OPS not a multiple of CHASES");
	if (run->samples > run->values_cap)
		return refuse(&request->head, EINVAL, "value array too small");
	for (uint32_t i = 0; i < run->samples; i++)
		values[i] = 300 + i;
	run->nr_series = 1;
	run->nr_values = run->samples;
	run->ops = request->hops;
	run->page_bytes = request->pages == CACHEPROBE_PAGES_2M ? 2u << 20
							       : 4096;
	return 0;
}

/* ACCESS the way an ABI 5 module answers it: one series, ops in whole
 * steps of 16. */
static int fake_access(struct cacheprobe_access *request)
{
	struct cacheprobe_run *run = &request->run;
	uint64_t *values = (void *)(uintptr_t)run->values;

	fake.last_access = *request;
	fake.access_calls++;
	if (request->reserved0 || request->reserved[0] || request->reserved[1])
		return refuse(&request->head, EINVAL,
			      "reserved fields must be zero");
	if (run->samples > run->values_cap)
		return refuse(&request->head, EINVAL, "value array too small");
	for (uint32_t i = 0; i < run->samples; i++)
		values[i] = 400 + i;
	run->nr_series = 1;
	run->nr_values = run->samples;
	run->ops = (request->accesses + 15) / 16 * 16;
	return 0;
}

int __wrap_ioctl(int fd, unsigned long request, ...);

int __wrap_ioctl(int fd, unsigned long request, ...)
{
	va_list args;
	void *arg;

	(void)fd;
	va_start(args, request);
	arg = va_arg(args, void *);
	va_end(args);
	if (request == CACHEPROBE_IOC_GET_INFO)
		return fake_get_info(arg);
	if (request == CACHEPROBE_IOC_FLUSH)
		return fake_flush(arg);
	if (request == CACHEPROBE_IOC_BOUNCE)
		return fake_bounce(arg);
	if (request == CACHEPROBE_IOC_XFER)
		return fake_xfer(arg);
	if (request == CACHEPROBE_IOC_CHASE)
		return fake_chase(arg);
	if (request == CACHEPROBE_IOC_ACCESS)
		return fake_access(arg);
	errno = ENOTTY;
	return -1;
}

static int open_client(void **state)
{
	struct cp_client *client = NULL;
	struct cp_error error;

	memset(&fake, 0, sizeof(fake));
	if (cp_ioctl_client_open("/dev/null", &client, &error))
		return -1;
	*state = client;
	return 0;
}

static int close_client(void **state)
{
	cp_client_close(*state);
	return 0;
}

static void assert_cpus(const struct cp_cpuset *set, const char *expected)
{
	char *text = cp_cpuset_format_alloc(set);

	assert_non_null(text);
	assert_string_equal(text, expected);
	free(text);
}

static struct cp_cpuset *cpus_of(const char *list)
{
	struct cp_cpuset *set = NULL;
	char why[64];

	assert_int_equal(cp_cpuset_parse(list, &set, why, sizeof(why)), 0);
	return set;
}

static void test_info_asks_twice(void **state)
{
	struct cp_module_info info;
	struct cp_error error;

	assert_int_equal(cp_client_info(*state, &info, &error), 0);
	assert_int_equal(fake.info_calls, 2);
	assert_int_equal(fake.info_mask_bytes[0], 0);
	assert_int_equal(fake.info_mask_bytes[1], FAKE_MASK_BYTES);
	assert_string_equal(info.module_version, "9.8.7");
	assert_int_equal(info.nr_cpu_ids, FAKE_NR_CPU_IDS);
	assert_int_equal(info.nr_online_cpus, 4);
	assert_int_equal(info.tsc_khz, 1000000);
	assert_true(info.features == CACHEPROBE_FEAT_RDTSCP);
	assert_int_equal(info.max_cpus, CACHEPROBE_MAX_CPUS);
	assert_cpus(info.possible_cpus, "0-69");
	assert_cpus(info.online_cpus, "0-1,5,69");
	cp_module_info_free(&info);
}

static void test_flush_every_online_cpu(void **state)
{
	struct cp_cpu_time *results = NULL;
	size_t nr_results = 0;
	struct cp_error error;

	assert_int_equal(cp_client_flush(*state, CACHEPROBE_FLUSH_WBINVD, NULL,
					 &results, &nr_results, &error), 0);
	assert_true(fake.last_flush.cpus == 0);
	assert_int_equal(fake.last_flush.cpus_bytes, 0);
	/* Room for every CPU id, not only those online now. */
	assert_int_equal(fake.last_flush.results_cap, FAKE_NR_CPU_IDS);
	assert_int_equal(fake.last_flush.method, CACHEPROBE_FLUSH_WBINVD);
	assert_int_equal(nr_results, 4);
	assert_int_equal(results[3].cpu, 69);
	assert_true(results[3].cycles == 1069 && results[3].nsec == 69);
	free(results);
}

static void test_flush_chosen_cpus(void **state)
{
	struct cp_cpuset *cpus = cpus_of("1,64");
	struct cp_cpu_time *results = NULL;
	size_t nr_results = 0;
	struct cp_error error;

	assert_int_equal(cp_client_flush(*state, CACHEPROBE_FLUSH_WBNOINVD,
					 cpus, &results, &nr_results, &error),
			 0);
	assert_int_equal(fake.last_flush.method, CACHEPROBE_FLUSH_WBNOINVD);
	assert_int_equal(fake.last_flush.cpus_bytes, 16);
	assert_int_equal(fake.last_flush.results_cap, 2);
	assert_true(fake.last_cpus[0] == 2 && fake.last_cpus[1] == 1);
	assert_int_equal(nr_results, 2);
	assert_int_equal(results[0].cpu, 1);
	assert_int_equal(results[1].cpu, 64);
	free(results);
	cp_cpuset_free(cpus);
}

static void test_module_message_reaches_caller(void **state)
{
	struct cp_cpuset *cpus = cpus_of("3");
	struct cp_cpu_time *results = NULL;
	size_t nr_results = 0;
	struct cp_error error;

	fake.fail_with = EINVAL;
	fake.message = "CPU 3 is not online";
	assert_int_equal(cp_client_flush(*state, CACHEPROBE_FLUSH_WBINVD, cpus,
					 &results, &nr_results, &error),
			 -EINVAL);
	assert_int_equal(error.err, EINVAL);
	assert_string_equal(error.msg, "CPU 3 is not online");
	assert_int_equal(fake.last_flush.head.msg_len, CACHEPROBE_MSG_MAX);
	assert_null(results);
	fake.fail_with = 0;
	cp_cpuset_free(cpus);
}

static void test_errno_without_message_is_explained(void **state)
{
	struct cp_cpu_time *results = NULL;
	size_t nr_results = 0;
	struct cp_error error;

	fake.fail_with = EPERM;
	fake.message = NULL;
	assert_int_equal(cp_client_flush(*state, CACHEPROBE_FLUSH_WBINVD, NULL,
					 &results, &nr_results, &error),
			 -EPERM);
	assert_string_equal(error.msg, "flush needs CAP_SYS_ADMIN");
	fake.fail_with = 0;
}

static void test_unterminated_message_is_cut(void **state)
{
	struct cp_cpu_time *results = NULL;
	size_t nr_results = 0;
	struct cp_error error;
	char long_text[400];

	memset(long_text, 'x', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = '\0';
	fake.fail_with = EOPNOTSUPP;
	fake.message = long_text;
	assert_int_equal(cp_client_flush(*state, CACHEPROBE_FLUSH_WBNOINVD,
					 NULL, &results, &nr_results, &error),
			 -EOPNOTSUPP);
	assert_int_equal(strlen(error.msg), CACHEPROBE_MSG_MAX - 1);
	fake.fail_with = 0;
}

static void test_more_results_than_room_refused(void **state)
{
	struct cp_cpuset *cpus = cpus_of("0");
	struct cp_cpu_time *results = NULL;
	size_t nr_results = 0;
	struct cp_error error;

	fake.extra_results = 1;
	assert_int_equal(cp_client_flush(*state, CACHEPROBE_FLUSH_WBINVD, cpus,
					 &results, &nr_results, &error),
			 -EPROTO);
	assert_string_equal(error.msg,
			    "the module reports 2 results for 1 slots");
	assert_null(results);
	fake.extra_results = 0;
	cp_cpuset_free(cpus);
}

static void test_info_limits(void **state)
{
	struct cp_module_info info;
	struct cp_error error;

	assert_int_equal(cp_client_info(*state, &info, &error), 0);
	assert_true(info.max_irqoff_ns == 2000000);
	assert_true(info.max_buffer_bytes == 256 << 20);
	assert_int_equal(info.partner_timeout_ms, 2000);
	assert_int_equal(info.max_values, CACHEPROBE_MAX_VALUES);
	assert_int_equal(info.max_chases, CACHEPROBE_MAX_CHASES);
	cp_module_info_free(&info);
}

static void test_bounce_series_per_cpu(void **state)
{
	static const uint32_t cpus[] = { 5, 1, 69 };
	struct cp_bounce_params params = {
		.cpus = cpus, .nr_cpus = 3, .samples = 4,
		.variant = CACHEPROBE_BOUNCE_ATOMIC, .width = 8,
		.distance = 64, .increments = 1000,
	};
	struct cp_run_result result;
	struct cp_error error;

	assert_int_equal(cp_client_bounce(*state, &params, &result, &error),
			 0);
	assert_int_equal(fake.last_bounce.run.nr_cpus, 3);
	assert_int_equal(fake.last_run_cpus[2], 69);
	assert_int_equal(fake.last_bounce.run.samples, 4);
	assert_true(fake.last_bounce.run.values_cap >= 12);
	assert_int_equal(fake.last_bounce.variant, CACHEPROBE_BOUNCE_ATOMIC);
	assert_int_equal(fake.last_bounce.width, 8);
	assert_int_equal(fake.last_bounce.distance, 64);
	assert_int_equal(fake.last_bounce.increments, 1000);
	assert_true(zero(fake.last_bounce.reserved, 2) &&
		    !fake.last_bounce.run.page_bytes &&
		    !fake.last_bounce.run.missed_rounds &&
		    !fake.last_bounce.run.disturbed);
	assert_int_equal(result.nr_series, 3);
	assert_int_equal(result.samples, 4);
	assert_true(result.ops == 1000);
	assert_true(result.window_max_cycles == 5000 &&
		    result.window_max_nsec == 2500);
	assert_int_equal(result.retries, 1);
	/* ABI 4: the handshake's missed rounds and disturbed windows. */
	assert_int_equal(result.missed_rounds, 37);
	assert_int_equal(result.disturbed, 2);
	/* Series follow the request's CPU order; values series by series. */
	assert_int_equal(result.series[0].cpu, 5);
	assert_int_equal(result.series[2].cpu, 69);
	assert_true(result.series[0].values[0] == 100);
	assert_true(result.series[1].values[0] == 104);
	assert_true(result.series[2].values[3] == 111);
	cp_run_result_free(&result);
}

static void test_xfer_passes_delay(void **state)
{
	struct cp_xfer_params params = {
		.producer = 1, .consumer = 5, .samples = 3, .size = 8192,
		.variant = CACHEPROBE_XFER_READ, .delay = 17,
	};
	struct cp_run_result result;
	struct cp_error error;

	assert_int_equal(cp_client_xfer(*state, &params, &result, &error), 0);
	assert_int_equal(fake.last_xfer.run.nr_cpus, 2);
	assert_int_equal(fake.last_run_cpus[0], 1);
	assert_int_equal(fake.last_run_cpus[1], 5);
	assert_true(fake.last_xfer.size == 8192);
	assert_int_equal(fake.last_xfer.variant, CACHEPROBE_XFER_READ);
	assert_int_equal(fake.last_xfer.delay, 17);
	assert_int_equal(result.nr_series, 1);
	assert_int_equal(result.series[0].cpu, 5);	/* the consumer */
	assert_true(result.ops == 128);
	assert_true(result.series[0].values[2] == 702);
	cp_run_result_free(&result);
}

static void test_xfer_delay_too_large_explained(void **state)
{
	struct cp_xfer_params params = {
		.producer = 1, .consumer = 5, .samples = 3, .size = 8192,
		.variant = CACHEPROBE_XFER_MODIFY,
		.delay = CACHEPROBE_MAX_DELAY + 904,
	};
	struct cp_run_result result;
	struct cp_error error;

	assert_int_equal(cp_client_xfer(*state, &params, &result, &error),
			 -EINVAL);
	assert_int_equal(fake.last_xfer.delay, 5000);
	assert_non_null(strstr(error.msg, "DELAY too large"));
}

/* Without ABI 4's options the struct is what an ABI 3 module takes. */
static void test_chase_defaults_are_zeros(void **state)
{
	struct cp_chase_params params = {
		.cpu = 5, .samples = 2, .size = 1 << 20, .hops = 1000,
	};
	struct cp_run_result result;
	struct cp_error error;

	assert_int_equal(cp_client_chase(*state, &params, &result, &error), 0);
	assert_int_equal(fake.last_chase.pages, 0);
	assert_int_equal(fake.last_chase.chases, 0);
	assert_true(fake.last_chase.seed == 0);
	assert_true(fake.last_chase.run.page_bytes == 0 &&
		    fake.last_chase.run.missed_rounds == 0 &&
		    fake.last_chase.run.disturbed == 0);
	assert_true(result.page_bytes == 4096);
	/* An ABI 3 module (and a one-CPU command) leaves them 0. */
	assert_int_equal(result.missed_rounds, 0);
	assert_int_equal(result.disturbed, 0);
	assert_true(result.ops == 1000);
	cp_run_result_free(&result);
}

static void test_chase_passes_options(void **state)
{
	struct cp_chase_params params = {
		.cpu = 1, .samples = 3, .size = 4 << 20, .hops = 4096,
		.pages = CACHEPROBE_PAGES_2M, .chases = 4,
		.seed = 0xfeedfacecafef00dULL, .has_seed = true,
	};
	struct cp_run_result result;
	struct cp_error error;

	assert_int_equal(cp_client_chase(*state, &params, &result, &error), 0);
	assert_int_equal(fake.last_chase.pages, CACHEPROBE_PAGES_2M);
	assert_int_equal(fake.last_chase.chases, 4);
	assert_true(fake.last_chase.seed == 0xfeedfacecafef00dULL);
	assert_int_equal(fake.last_chase.hops, 4096);
	assert_int_equal(result.nr_series, 1);
	assert_int_equal(result.series[0].cpu, 1);
	assert_true(result.series[0].values[2] == 302);
	assert_true(result.page_bytes == 2u << 20);
	cp_run_result_free(&result);

	/* A seed without has_seed is not sent: the module draws one. */
	params.has_seed = false;
	assert_int_equal(cp_client_chase(*state, &params, &result, &error), 0);
	assert_true(fake.last_chase.seed == 0);
	cp_run_result_free(&result);
}

/* The struct's seed 0 means "draw one": asking for seed 0 is refused
 * before the module sees it, not answered with another chain. */
static void test_chase_seed_zero_refused(void **state)
{
	struct cp_chase_params params = {
		.cpu = 1, .samples = 1, .size = 1 << 20, .hops = 64,
		.seed = 0, .has_seed = true,
	};
	struct cp_run_result result;
	struct cp_error error;

	assert_int_equal(cp_client_chase(*state, &params, &result, &error),
			 -EINVAL);
	assert_int_equal(fake.chase_calls, 0);
	assert_non_null(strstr(error.msg, "seed 0"));
	assert_null(result.series);
}

/* ABI 5: ACCESS's seed in the struct, 0 when none; seed 0 refused as
 * for CHASE; the reply's OPS (whole steps) is what the result says. */
static void test_access_seed(void **state)
{
	struct cp_access_params params = {
		.cpu = 1, .samples = 2, .size = 16384, .width = 2,
		.offset = 63, .variant = CACHEPROBE_ACCESS_LOAD_LATENCY,
		.accesses = 250,
	};
	struct cp_run_result result;
	struct cp_error error;

	assert_int_equal(cp_client_access(*state, &params, &result, &error),
			 0);
	assert_true(fake.last_access.seed == 0);
	assert_int_equal(fake.last_access.accesses, 250);
	assert_true(result.ops == 256);
	cp_run_result_free(&result);
	params.seed = 0x5eed;
	params.has_seed = true;
	assert_int_equal(cp_client_access(*state, &params, &result, &error),
			 0);
	assert_true(fake.last_access.seed == 0x5eed);
	cp_run_result_free(&result);
	params.seed = 0;
	assert_int_equal(cp_client_access(*state, &params, &result, &error),
			 -EINVAL);
	assert_int_equal(fake.access_calls, 2);
	assert_non_null(strstr(error.msg, "seed 0"));
}

static void test_chase_module_refusal(void **state)
{
	struct cp_chase_params params = {
		.cpu = 1, .samples = 1, .size = 1 << 20, .hops = 34,
		.chases = 17,
	};
	struct cp_run_result result;
	struct cp_error error;

	assert_int_equal(cp_client_chase(*state, &params, &result, &error),
			 -EINVAL);
	assert_non_null(strstr(error.msg, "CHASES out of range"));
	params.chases = 4;
	assert_int_equal(cp_client_chase(*state, &params, &result, &error),
			 -EINVAL);
	assert_non_null(strstr(error.msg, "OPS not a multiple of CHASES"));
}

/* The latency area's CHASE requests (areas/latency/latency_kernel_run.c): an ABI 4
 * module gets the pages, the chases and the seed, and loads per sample a
 * multiple of the chases, in the sizing request and the measurement. */
static void test_latency_kernel_chase_options(void **state)
{
	struct cp_latency_kernel kernel = {
		.client = *state, .max_irqoff_ns = 2000000,
		.abi_version = 4, .has_chase_options = true,
	};
	struct cp_latency_kernel_request request = {
		.cpu = 1, .size = 4 << 20, .stride = 64, .samples = 3,
		.tsc_hz = 1e9, .target_ns = 1e5, .pages = CACHEPROBE_PAGES_2M,
		.chases = 3, .seed = 42,
	};
	struct cp_run_result result;
	struct cp_error error;

	assert_int_equal(cp_latency_kernel_chase(&kernel, &request, &result,
						 &error), 0);
	assert_int_equal(fake.chase_calls, 2);	/* sizing, then the run */
	assert_int_equal(fake.last_chase.pages, CACHEPROBE_PAGES_2M);
	assert_int_equal(fake.last_chase.chases, 3);
	assert_true(fake.last_chase.seed == 42);
	assert_int_equal(fake.last_chase.hops % 3, 0);
	assert_int_equal(fake.last_chase.run.samples, 3);
	assert_true(result.ops == fake.last_chase.hops);
	assert_true(result.page_bytes == 2u << 20);
	cp_run_result_free(&result);

	/* A fixed count is rounded down to whole rounds. */
	request.fixed_hops = 1000;
	assert_int_equal(cp_latency_kernel_chase(&kernel, &request, &result,
						 &error), 0);
	assert_int_equal(fake.chase_calls, 3);
	assert_int_equal(fake.last_chase.hops, 999);
	cp_run_result_free(&result);
}

/* An older module: 2 MiB pages or several chases refused before it is
 * asked, one chase of 4 KiB pages sent as that module takes it. */
static void test_latency_kernel_older_module(void **state)
{
	struct cp_latency_kernel kernel = {
		.client = *state, .max_irqoff_ns = 2000000, .abi_version = 3,
	};
	struct cp_latency_kernel_request request = {
		.cpu = 1, .size = 1 << 20, .stride = 64, .samples = 2,
		.tsc_hz = 1e9, .target_ns = 1e5, .chases = 4, .seed = 42,
	};
	struct cp_run_result result;
	struct cp_error error;

	assert_int_equal(cp_latency_kernel_chase(&kernel, &request, &result,
						 &error), -EOPNOTSUPP);
	assert_non_null(strstr(error.msg, "ABI 3"));
	assert_null(result.series);
	request.chases = 1;
	request.pages = CACHEPROBE_PAGES_2M;
	assert_int_equal(cp_latency_kernel_chase(&kernel, &request, &result,
						 &error), -EOPNOTSUPP);
	assert_int_equal(fake.chase_calls, 0);
	request.pages = CACHEPROBE_PAGES_4K;
	assert_int_equal(cp_latency_kernel_chase(&kernel, &request, &result,
						 &error), 0);
	assert_int_equal(fake.last_chase.pages, 0);
	assert_int_equal(fake.last_chase.chases, 0);
	assert_true(fake.last_chase.seed == 0);
	cp_run_result_free(&result);
}

static void test_bounce_wrong_shape_refused(void **state)
{
	static const uint32_t cpus[] = { 0, 1 };
	struct cp_bounce_params params = {
		.cpus = cpus, .nr_cpus = 2, .samples = 2,
		.variant = CACHEPROBE_BOUNCE_PLAIN, .width = 4,
		.increments = 10,
	};
	struct cp_run_result result;
	struct cp_error error;

	fake.bounce_series = 1;
	assert_int_equal(cp_client_bounce(*state, &params, &result, &error),
			 -EPROTO);
	assert_null(result.series);
	fake.bounce_series = 0;
}

static void test_bounce_module_message(void **state)
{
	static const uint32_t cpus[] = { 1, 1 };
	struct cp_bounce_params params = {
		.cpus = cpus, .nr_cpus = 2, .samples = 2,
		.variant = CACHEPROBE_BOUNCE_PLAIN, .width = 4,
		.increments = 10,
	};
	struct cp_run_result result;
	struct cp_error error;

	fake.fail_with = EINVAL;
	fake.message = "CPU listed twice: CPU 1 appears twice";
	assert_int_equal(cp_client_bounce(*state, &params, &result, &error),
			 -EINVAL);
	assert_string_equal(error.msg, "CPU listed twice: CPU 1 appears twice");
	assert_null(result.series);
	fake.fail_with = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_info_asks_twice,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_flush_every_online_cpu,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_flush_chosen_cpus,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_module_message_reaches_caller,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_errno_without_message_is_explained,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_unterminated_message_is_cut,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_more_results_than_room_refused,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_info_limits,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_bounce_series_per_cpu,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_xfer_passes_delay,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_xfer_delay_too_large_explained,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_chase_defaults_are_zeros,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_chase_passes_options,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_chase_seed_zero_refused,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_chase_module_refusal,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_access_seed,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_latency_kernel_chase_options,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_latency_kernel_older_module,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_bounce_wrong_shape_refused,
						open_client, close_client),
		cmocka_unit_test_setup_teardown(test_bounce_module_message,
						open_client, close_client),
	};

	return cmocka_run_group_tests_name("client_ioctl", tests, NULL, NULL);
}
