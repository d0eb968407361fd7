// SPDX-License-Identifier: GPL-2.0
/* The measurement commands' requests as built, and their replies as read,
 * on messages made here the way the module makes them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "client/kcmd_request.h"
#include "client/nl_messages.h"

#define FAMILY_ID 0x20

static void parse_request(struct nl_msg *msg, uint8_t cmd,
			  struct nlattr **attrs)
{
	struct nlmsghdr *hdr = nlmsg_hdr(msg);
	struct genlmsghdr *genl_hdr = genlmsg_hdr(hdr);

	assert_int_equal(hdr->nlmsg_type, FAMILY_ID);
	assert_int_equal(genl_hdr->cmd, cmd);
	assert_int_equal(genl_hdr->version, CACHEPROBE_GENL_VERSION);
	assert_int_equal(genlmsg_parse(hdr, 0, attrs, CACHEPROBE_ATTR_MAX,
				       NULL), 0);
}

static void assert_u32(struct nlattr **attrs, int type, uint32_t want)
{
	assert_non_null(attrs[type]);
	assert_int_equal(nla_len(attrs[type]), 4);
	assert_int_equal(nla_get_u32(attrs[type]), want);
}

static void test_chase_request(void **state)
{
	struct cp_kcmd kcmd = {
		.cmd = CACHEPROBE_CMD_CHASE, .cpus = { 3 }, .nr_cpus = 1,
		.samples = 10, .size = 1 << 20, .ops = 4096, .stride = 128,
		.order = CACHEPROBE_ORDER_SEQUENTIAL,
		.prepare = CACHEPROBE_PREPARE_CLFLUSH,
	};
	struct nlattr *attrs[CACHEPROBE_ATTR_MAX + 1];
	struct nl_msg *msg = NULL;
	struct cp_error error;
	uint32_t cpu;

	(void)state;
	assert_int_equal(cp_nl_build_kcmd(FAMILY_ID, &kcmd, &msg, &error), 0);
	parse_request(msg, CACHEPROBE_CMD_CHASE, attrs);
	assert_int_equal(nla_len(attrs[CACHEPROBE_ATTR_CPU_LIST]), 4);
	memcpy(&cpu, nla_data(attrs[CACHEPROBE_ATTR_CPU_LIST]), 4);
	assert_int_equal(cpu, 3);
	assert_u32(attrs, CACHEPROBE_ATTR_SAMPLES, 10);
	assert_u32(attrs, CACHEPROBE_ATTR_OPS, 4096);
	assert_u32(attrs, CACHEPROBE_ATTR_STRIDE, 128);
	assert_u32(attrs, CACHEPROBE_ATTR_ORDER, CACHEPROBE_ORDER_SEQUENTIAL);
	assert_u32(attrs, CACHEPROBE_ATTR_PREPARE, CACHEPROBE_PREPARE_CLFLUSH);
	assert_int_equal(nla_len(attrs[CACHEPROBE_ATTR_SIZE]), 8);
	assert_true(nla_get_u64(attrs[CACHEPROBE_ATTR_SIZE]) == 1 << 20);
	/* Only what CHASE takes: the module's policy refuses the rest. */
	assert_null(attrs[CACHEPROBE_ATTR_VARIANT]);
	assert_null(attrs[CACHEPROBE_ATTR_DISTANCE]);
	/* ABI 4's options left 0: not sent, an ABI 3 module takes it. */
	assert_null(attrs[CACHEPROBE_ATTR_PAGES]);
	assert_null(attrs[CACHEPROBE_ATTR_CHASES]);
	assert_null(attrs[CACHEPROBE_ATTR_SEED]);
	nlmsg_free(msg);
}

/* ABI 4: PAGES, CHASES and SEED when given; a seed of 0 is a seed. */
static void test_chase_request_with_options(void **state)
{
	struct cp_kcmd kcmd = {
		.cmd = CACHEPROBE_CMD_CHASE, .cpus = { 1 }, .nr_cpus = 1,
		.samples = 2, .size = 4 << 20, .ops = 4096,
		.pages = CACHEPROBE_PAGES_2M, .chases = 4,
		.seed = 0x0123456789abcdefULL, .has_seed = true,
	};
	struct nlattr *attrs[CACHEPROBE_ATTR_MAX + 1];
	struct nl_msg *msg = NULL;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_nl_build_kcmd(FAMILY_ID, &kcmd, &msg, &error), 0);
	parse_request(msg, CACHEPROBE_CMD_CHASE, attrs);
	assert_u32(attrs, CACHEPROBE_ATTR_PAGES, CACHEPROBE_PAGES_2M);
	assert_u32(attrs, CACHEPROBE_ATTR_CHASES, 4);
	assert_int_equal(nla_len(attrs[CACHEPROBE_ATTR_SEED]), 8);
	assert_true(nla_get_u64(attrs[CACHEPROBE_ATTR_SEED]) ==
		    0x0123456789abcdefULL);
	nlmsg_free(msg);

	kcmd.seed = 0;
	assert_int_equal(cp_nl_build_kcmd(FAMILY_ID, &kcmd, &msg, &error), 0);
	parse_request(msg, CACHEPROBE_CMD_CHASE, attrs);
	assert_non_null(attrs[CACHEPROBE_ATTR_SEED]);
	assert_true(nla_get_u64(attrs[CACHEPROBE_ATTR_SEED]) == 0);
	nlmsg_free(msg);
}

/* ABI 5: ACCESS's SEED only when given (an ABI 4 module refuses it),
 * 0 included. */
static void test_access_request_seed(void **state)
{
	struct cp_kcmd kcmd = {
		.cmd = CACHEPROBE_CMD_ACCESS, .cpus = { 2 }, .nr_cpus = 1,
		.samples = 3, .size = 16384, .ops = 256, .width = 8,
		.offset = 60, .variant = CACHEPROBE_ACCESS_LOAD_LATENCY,
	};
	struct nlattr *attrs[CACHEPROBE_ATTR_MAX + 1];
	struct nl_msg *msg = NULL;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_nl_build_kcmd(FAMILY_ID, &kcmd, &msg, &error), 0);
	parse_request(msg, CACHEPROBE_CMD_ACCESS, attrs);
	assert_u32(attrs, CACHEPROBE_ATTR_WIDTH, 8);
	assert_u32(attrs, CACHEPROBE_ATTR_OFFSET, 60);
	assert_null(attrs[CACHEPROBE_ATTR_SEED]);
	nlmsg_free(msg);

	kcmd.has_seed = true;
	kcmd.seed = 0;
	assert_int_equal(cp_nl_build_kcmd(FAMILY_ID, &kcmd, &msg, &error), 0);
	parse_request(msg, CACHEPROBE_CMD_ACCESS, attrs);
	assert_int_equal(nla_len(attrs[CACHEPROBE_ATTR_SEED]), 8);
	assert_true(nla_get_u64(attrs[CACHEPROBE_ATTR_SEED]) == 0);
	nlmsg_free(msg);
}

static void test_bounce_request_keeps_cpu_order(void **state)
{
	struct cp_kcmd kcmd = {
		.cmd = CACHEPROBE_CMD_BOUNCE, .cpus = { 7, 2, 5 }, .nr_cpus = 3,
		.samples = 2, .ops = 100, .variant = CACHEPROBE_BOUNCE_PLAIN,
		.width = 4, .distance = 0,
	};
	struct nlattr *attrs[CACHEPROBE_ATTR_MAX + 1];
	struct nl_msg *msg = NULL;
	struct cp_error error;
	uint32_t cpus[3];

	(void)state;
	assert_int_equal(cp_nl_build_kcmd(FAMILY_ID, &kcmd, &msg, &error), 0);
	parse_request(msg, CACHEPROBE_CMD_BOUNCE, attrs);
	assert_int_equal(nla_len(attrs[CACHEPROBE_ATTR_CPU_LIST]), 12);
	memcpy(cpus, nla_data(attrs[CACHEPROBE_ATTR_CPU_LIST]), 12);
	assert_int_equal(cpus[0], 7);
	assert_int_equal(cpus[1], 2);
	assert_int_equal(cpus[2], 5);
	/* DISTANCE 0 has a meaning (one shared counter): always sent. */
	assert_u32(attrs, CACHEPROBE_ATTR_DISTANCE, 0);
	assert_u32(attrs, CACHEPROBE_ATTR_WIDTH, 4);
	assert_u32(attrs, CACHEPROBE_ATTR_VARIANT, CACHEPROBE_BOUNCE_PLAIN);
	assert_null(attrs[CACHEPROBE_ATTR_SIZE]);
	nlmsg_free(msg);
}

static struct cp_kcmd xfer_kcmd(uint32_t delay)
{
	return (struct cp_kcmd){
		.cmd = CACHEPROBE_CMD_XFER, .cpus = { 1, 3 }, .nr_cpus = 2,
		.samples = 5, .size = 64 << 10,
		.variant = CACHEPROBE_XFER_MODIFY,
		.order = CACHEPROBE_ORDER_RANDOM, .delay = delay,
	};
}

static void test_xfer_request_with_delay(void **state)
{
	struct cp_kcmd kcmd = xfer_kcmd(CACHEPROBE_MAX_DELAY);
	struct nlattr *attrs[CACHEPROBE_ATTR_MAX + 1];
	struct nl_msg *msg = NULL;
	struct cp_error error;
	uint32_t cpus[2];

	(void)state;
	assert_int_equal(cp_nl_build_kcmd(FAMILY_ID, &kcmd, &msg, &error), 0);
	parse_request(msg, CACHEPROBE_CMD_XFER, attrs);
	memcpy(cpus, nla_data(attrs[CACHEPROBE_ATTR_CPU_LIST]), 8);
	assert_int_equal(cpus[0], 1);	/* producer */
	assert_int_equal(cpus[1], 3);	/* consumer */
	assert_true(nla_get_u64(attrs[CACHEPROBE_ATTR_SIZE]) == 64 << 10);
	assert_u32(attrs, CACHEPROBE_ATTR_VARIANT, CACHEPROBE_XFER_MODIFY);
	assert_u32(attrs, CACHEPROBE_ATTR_ORDER, CACHEPROBE_ORDER_RANDOM);
	assert_u32(attrs, CACHEPROBE_ATTR_DELAY, CACHEPROBE_MAX_DELAY);
	assert_null(attrs[CACHEPROBE_ATTR_OPS]);
	nlmsg_free(msg);
}

/* An ABI 2 module refuses DELAY even when it is 0: left out then. */
static void test_xfer_request_without_delay(void **state)
{
	struct cp_kcmd kcmd = xfer_kcmd(0);
	struct nlattr *attrs[CACHEPROBE_ATTR_MAX + 1];
	struct nl_msg *msg = NULL;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_nl_build_kcmd(FAMILY_ID, &kcmd, &msg, &error), 0);
	parse_request(msg, CACHEPROBE_CMD_XFER, attrs);
	assert_u32(attrs, CACHEPROBE_ATTR_VARIANT, CACHEPROBE_XFER_MODIFY);
	assert_null(attrs[CACHEPROBE_ATTR_DELAY]);
	nlmsg_free(msg);
}

static void test_request_without_cpus_refused(void **state)
{
	struct cp_kcmd kcmd = { .cmd = CACHEPROBE_CMD_PINGPONG, .samples = 1 };
	struct nl_msg *msg = NULL;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_nl_build_kcmd(FAMILY_ID, &kcmd, &msg, &error),
			 -EINVAL);
	assert_null(msg);
}

/* A reply as the module builds it, with @samples values per series, and
 * PAGE_BYTES unless @page_bytes is 0. */
static struct nl_msg *run_reply_pages(uint32_t samples, const uint32_t *cpus,
				      size_t nr_series, size_t values_bytes,
				      uint64_t page_bytes)
{
	struct nl_msg *msg = nlmsg_alloc();
	uint64_t values[16];

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, 0, 1, FAMILY_ID, 0, 0,
				    CACHEPROBE_CMD_PINGPONG, 1));
	nla_put_u32(msg, CACHEPROBE_ATTR_OPS, 8);
	nla_put_u32(msg, CACHEPROBE_ATTR_SAMPLES, samples);
	nla_put_u64(msg, CACHEPROBE_ATTR_WINDOW_MAX_CYCLES, 9000);
	nla_put_u64(msg, CACHEPROBE_ATTR_WINDOW_MAX_NSEC, 4500);
	nla_put_u64(msg, CACHEPROBE_ATTR_WINDOWS, 3);
	nla_put_u32(msg, CACHEPROBE_ATTR_RETRIES, 1);
	for (size_t i = 0; i < nr_series; i++) {
		struct nlattr *nest = nla_nest_start(msg,
						     CACHEPROBE_ATTR_SERIES);

		for (uint32_t j = 0; j < 16; j++)
			values[j] = 1000 * (i + 1) + j;
		nla_put_u32(msg, CACHEPROBE_SERIES_CPU, cpus[i]);
		nla_put(msg, CACHEPROBE_SERIES_VALUES, (int)values_bytes,
			values);
		nla_nest_end(msg, nest);
	}
	if (page_bytes)
		nla_put_u64(msg, CACHEPROBE_ATTR_PAGE_BYTES, page_bytes);
	return msg;
}

static struct nl_msg *run_reply(uint32_t samples, const uint32_t *cpus,
				size_t nr_series, size_t values_bytes)
{
	return run_reply_pages(samples, cpus, nr_series, values_bytes, 0);
}

/* @msg read into @result and checked against @kcmd: both accept it. */
static void read_accepted(struct nl_msg *msg, const struct cp_kcmd *kcmd,
			  struct cp_run_result *result)
{
	struct cp_error error;

	assert_int_equal(cp_nl_read_run_reply(msg, result, &error), 0);
	assert_int_equal(cp_kcmd_check_result(kcmd, result, &error), 0);
}

/* @msg is a malformed reply: refused, nothing kept; @msg freed. */
static void assert_reply_refused(struct nl_msg *msg)
{
	struct cp_run_result result = { 0 };
	struct cp_error error;

	assert_int_equal(cp_nl_read_run_reply(msg, &result, &error), -EPROTO);
	assert_null(result.series);
	nlmsg_free(msg);
}

static void test_run_reply_read(void **state)
{
	static const uint32_t cpus[] = { 4 };
	struct cp_kcmd kcmd = { .cmd = CACHEPROBE_CMD_PINGPONG,
				.cpus = { 4, 1 }, .nr_cpus = 2, .samples = 3 };
	struct nl_msg *msg = run_reply(3, cpus, 1, 3 * 8);
	struct cp_run_result result = { 0 };

	(void)state;
	read_accepted(msg, &kcmd, &result);
	assert_int_equal(result.samples, 3);
	assert_true(result.ops == 8);
	assert_true(result.window_max_cycles == 9000);
	assert_true(result.window_max_nsec == 4500);
	assert_true(result.windows == 3);
	assert_int_equal(result.retries, 1);
	assert_int_equal(result.nr_series, 1);
	assert_int_equal(result.series[0].cpu, 4);
	assert_true(result.series[0].values[0] == 1000);
	assert_true(result.series[0].values[2] == 1002);
	/* No PAGE_BYTES (any command but CHASE, or an older module). */
	assert_true(result.page_bytes == 0);
	/* No MISSED_ROUNDS or DISTURBED (a module of ABI 3 or older). */
	assert_int_equal(result.missed_rounds, 0);
	assert_int_equal(result.disturbed, 0);
	cp_run_result_free(&result);
	nlmsg_free(msg);
}

/* ABI 4: every run reply's MISSED_ROUNDS and DISTURBED. */
static void test_run_reply_missed_rounds(void **state)
{
	static const uint32_t cpus[] = { 4 };
	struct cp_kcmd kcmd = { .cmd = CACHEPROBE_CMD_PINGPONG,
				.cpus = { 4, 1 }, .nr_cpus = 2, .samples = 3 };
	struct nl_msg *msg = run_reply(3, cpus, 1, 3 * 8);
	struct cp_run_result result = { 0 };

	(void)state;
	nla_put_u32(msg, CACHEPROBE_ATTR_MISSED_ROUNDS, 37);
	nla_put_u32(msg, CACHEPROBE_ATTR_DISTURBED, 2);
	read_accepted(msg, &kcmd, &result);
	assert_int_equal(result.missed_rounds, 37);
	assert_int_equal(result.disturbed, 2);
	assert_int_equal(result.retries, 1);	/* not mixed up */
	assert_true(result.series[0].values[2] == 1002);
	cp_run_result_free(&result);
	nlmsg_free(msg);
}

/* A MISSED_ROUNDS of the wrong size is a malformed reply. */
static void test_run_reply_bad_missed_rounds_refused(void **state)
{
	static const uint32_t cpus[] = { 4 };
	struct nl_msg *msg = run_reply(3, cpus, 1, 3 * 8);

	(void)state;
	nla_put_u64(msg, CACHEPROBE_ATTR_MISSED_ROUNDS, 37);
	assert_reply_refused(msg);
}

static void test_run_reply_page_bytes(void **state)
{
	static const uint32_t cpus[] = { 2 };
	struct cp_kcmd kcmd = { .cmd = CACHEPROBE_CMD_CHASE, .cpus = { 2 },
				.nr_cpus = 1, .samples = 2 };
	struct nl_msg *msg = run_reply_pages(2, cpus, 1, 2 * 8, 2u << 20);
	struct cp_run_result result = { 0 };

	(void)state;
	read_accepted(msg, &kcmd, &result);
	assert_true(result.page_bytes == 2u << 20);
	cp_run_result_free(&result);
	nlmsg_free(msg);
}

static void test_run_reply_short_values_refused(void **state)
{
	static const uint32_t cpus[] = { 0 };

	(void)state;
	assert_reply_refused(run_reply(3, cpus, 1, 2 * 8));
}

static void test_run_reply_wrong_series_refused(void **state)
{
	static const uint32_t cpus[] = { 1, 0 };
	struct cp_kcmd bounce = { .cmd = CACHEPROBE_CMD_BOUNCE,
				  .cpus = { 0, 1 }, .nr_cpus = 2,
				  .samples = 2 };
	struct cp_kcmd xfer = { .cmd = CACHEPROBE_CMD_XFER, .cpus = { 0, 1 },
				.nr_cpus = 2, .samples = 2 };
	struct nl_msg *msg = run_reply(2, cpus, 2, 2 * 8);
	struct cp_run_result result = { 0 };
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_nl_read_run_reply(msg, &result, &error), 0);
	/* Series out of the request's CPU order, or too many of them. */
	assert_int_equal(cp_kcmd_check_result(&bounce, &result, &error),
			 -EPROTO);
	assert_int_equal(cp_kcmd_check_result(&xfer, &result, &error),
			 -EPROTO);
	cp_run_result_free(&result);
	nlmsg_free(msg);
}

static void test_series_cpus_by_command(void **state)
{
	struct cp_kcmd xfer = { .cmd = CACHEPROBE_CMD_XFER, .cpus = { 2, 3 },
				.nr_cpus = 2 };
	struct cp_kcmd pingpong = { .cmd = CACHEPROBE_CMD_PINGPONG,
				    .cpus = { 2, 3 }, .nr_cpus = 2 };
	uint32_t cpus[CACHEPROBE_RUN_MAX_CPUS];

	(void)state;
	assert_int_equal(cp_kcmd_series_cpus(&xfer, cpus), 1);
	assert_int_equal(cpus[0], 3);	/* the consumer */
	assert_int_equal(cp_kcmd_series_cpus(&pingpong, cpus), 1);
	assert_int_equal(cpus[0], 2);	/* the initiator */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chase_request),
		cmocka_unit_test(test_chase_request_with_options),
		cmocka_unit_test(test_access_request_seed),
		cmocka_unit_test(test_bounce_request_keeps_cpu_order),
		cmocka_unit_test(test_xfer_request_with_delay),
		cmocka_unit_test(test_xfer_request_without_delay),
		cmocka_unit_test(test_request_without_cpus_refused),
		cmocka_unit_test(test_run_reply_read),
		cmocka_unit_test(test_run_reply_page_bytes),
		cmocka_unit_test(test_run_reply_missed_rounds),
		cmocka_unit_test(test_run_reply_bad_missed_rounds_refused),
		cmocka_unit_test(test_run_reply_short_values_refused),
		cmocka_unit_test(test_run_reply_wrong_series_refused),
		cmocka_unit_test(test_series_cpus_by_command),
	};

	return cmocka_run_group_tests_name("nl_kcmd", tests, NULL, NULL);
}
