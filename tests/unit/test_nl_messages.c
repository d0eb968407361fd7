// SPDX-License-Identifier: GPL-2.0
/* The cacheprobe family's requests as built, and its replies as read, on
 * messages made here the way the module makes them. */
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

#include "client/nl_messages.h"

#define FAMILY_ID 0x20

static struct nl_msg *new_reply(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, 0, 1, FAMILY_ID, 0, 0, cmd, 1));
	return msg;
}

/* Which attribute the helper below leaves out, or alters. */
enum info_variant {
	INFO_COMPLETE,
	INFO_WITHOUT_ONLINE_CPUS,
	INFO_LONG_TSC_KHZ,
	INFO_ODD_MASK,
	INFO_UNTERMINATED_VERSION,
	INFO_WITH_FUTURE_ATTRIBUTE,
};

static void put_masks(struct nl_msg *msg, enum info_variant variant)
{
	uint64_t possible = 0xff, online = 0x2d;

	assert_int_equal(nla_put(msg, CACHEPROBE_ATTR_POSSIBLE_CPUS, 8,
				 &possible), 0);
	if (variant == INFO_ODD_MASK)
		assert_int_equal(nla_put(msg, CACHEPROBE_ATTR_ONLINE_CPUS, 12,
					 "\x2d\0\0\0\0\0\0\0\0\0\0"), 0);
	else if (variant != INFO_WITHOUT_ONLINE_CPUS)
		assert_int_equal(nla_put(msg, CACHEPROBE_ATTR_ONLINE_CPUS, 8,
					 &online), 0);
}

static struct nl_msg *info_reply(enum info_variant variant)
{
	struct nl_msg *msg = new_reply(CACHEPROBE_CMD_GET_INFO);
	uint64_t long_value = 2400000;

	if (variant == INFO_UNTERMINATED_VERSION)
		assert_int_equal(nla_put(msg, CACHEPROBE_ATTR_MODULE_VERSION, 5,
					 "0.1.0"), 0);
	else
		assert_int_equal(nla_put_string(msg,
						CACHEPROBE_ATTR_MODULE_VERSION,
						"0.1.0"), 0);
	nla_put_u32(msg, CACHEPROBE_ATTR_ABI_VERSION, 1);
	nla_put_u32(msg, CACHEPROBE_ATTR_NR_CPU_IDS, 8);
	nla_put_u32(msg, CACHEPROBE_ATTR_NR_POSSIBLE_CPUS, 8);
	nla_put_u32(msg, CACHEPROBE_ATTR_NR_ONLINE_CPUS, 4);
	put_masks(msg, variant);
	if (variant == INFO_LONG_TSC_KHZ)
		nla_put(msg, CACHEPROBE_ATTR_TSC_KHZ, 8, &long_value);
	else
		nla_put_u32(msg, CACHEPROBE_ATTR_TSC_KHZ, 2400000);
	nla_put_u64(msg, CACHEPROBE_ATTR_FEATURES,
		    CACHEPROBE_FEAT_CLFLUSH | CACHEPROBE_FEAT_HYPERVISOR);
	nla_put_u32(msg, CACHEPROBE_ATTR_CACHE_LINE_SIZE, 64);
	nla_put_u32(msg, CACHEPROBE_ATTR_MAX_CPUS, CACHEPROBE_MAX_CPUS);
	if (variant == INFO_WITH_FUTURE_ATTRIBUTE) {
		nla_put_u32(msg, CACHEPROBE_ATTR_MAX + 5, 7);
		/* ABI 4's limit, as a module of ABI 4 sends it. */
		nla_put_u32(msg, CACHEPROBE_ATTR_MAX_CHASES,
			    CACHEPROBE_MAX_CHASES);
	}
	return msg;
}

static void assert_cpus(const struct cp_cpuset *set, const char *expected)
{
	char *text = cp_cpuset_format_alloc(set);

	assert_non_null(text);
	assert_string_equal(text, expected);
	free(text);
}

static void test_info_reply_read(void **state)
{
	struct nl_msg *msg = info_reply(INFO_COMPLETE);
	struct cp_module_info info = { 0 };
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_nl_read_info_reply(msg, &info, &error), 0);
	assert_string_equal(info.module_version, "0.1.0");
	assert_int_equal(info.abi_version, 1);
	assert_int_equal(info.nr_cpu_ids, 8);
	assert_int_equal(info.nr_possible_cpus, 8);
	assert_int_equal(info.nr_online_cpus, 4);
	assert_int_equal(info.tsc_khz, 2400000);
	assert_true(info.features ==
		    (CACHEPROBE_FEAT_CLFLUSH | CACHEPROBE_FEAT_HYPERVISOR));
	assert_int_equal(info.cache_line_size, 64);
	assert_int_equal(info.max_cpus, CACHEPROBE_MAX_CPUS);
	assert_cpus(info.possible_cpus, "0-7");
	assert_cpus(info.online_cpus, "0,2-3,5");
	/* An older module sends no MAX_CHASES: 0. */
	assert_int_equal(info.max_chases, 0);
	cp_module_info_free(&info);
	nlmsg_free(msg);
}

static void test_info_reply_ignores_future_attributes(void **state)
{
	struct nl_msg *msg = info_reply(INFO_WITH_FUTURE_ATTRIBUTE);
	struct cp_module_info info = { 0 };
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_nl_read_info_reply(msg, &info, &error), 0);
	assert_int_equal(info.nr_cpu_ids, 8);
	assert_int_equal(info.max_chases, CACHEPROBE_MAX_CHASES);
	cp_module_info_free(&info);
	nlmsg_free(msg);
}

static void test_info_reply_refused(void **state)
{
	static const struct {
		enum info_variant variant;
		const char *why;
	} cases[] = {
		{ INFO_WITHOUT_ONLINE_CPUS,
		  "the module's GET_INFO reply lacks ONLINE_CPUS" },
		{ INFO_LONG_TSC_KHZ, "malformed GET_INFO reply" },
		{ INFO_UNTERMINATED_VERSION, "malformed GET_INFO reply" },
		{ INFO_ODD_MASK,
		  "the module sent 12 bytes of ONLINE_CPUS, not whole u64 "
		  "words" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nl_msg *msg = info_reply(cases[i].variant);
		struct cp_module_info info = { 0 };
		struct cp_error error;

		assert_int_equal(cp_nl_read_info_reply(msg, &info, &error),
				 -EPROTO);
		assert_int_equal(error.err, EPROTO);
		assert_non_null(strstr(error.msg, cases[i].why));
		assert_null(info.possible_cpus);
		assert_null(info.online_cpus);
		nlmsg_free(msg);
	}
}

/* One nested result, with the 64-bit values behind a PAD attribute as
 * nla_put_u64_64bit() places them in the kernel. */
static void put_result(struct nl_msg *msg, uint32_t cpu, uint64_t cycles,
		       uint64_t nsec, bool with_nsec)
{
	struct nlattr *nest = nla_nest_start(msg, CACHEPROBE_ATTR_FLUSH_RESULT);

	assert_non_null(nest);
	nla_put_u32(msg, CACHEPROBE_RESULT_CPU, cpu);
	nla_put(msg, CACHEPROBE_RESULT_PAD, 0, NULL);
	nla_put_u64(msg, CACHEPROBE_RESULT_CYCLES, cycles);
	if (with_nsec)
		nla_put_u64(msg, CACHEPROBE_RESULT_NSEC, nsec);
	nla_nest_end(msg, nest);
}

static void test_flush_reply_over_two_messages(void **state)
{
	struct nl_msg *first = new_reply(CACHEPROBE_CMD_FLUSH);
	struct nl_msg *second = new_reply(CACHEPROBE_CMD_FLUSH);
	struct cp_flush_results acc = { 0 };
	struct cp_error error;

	(void)state;
	put_result(first, 0, 123456, 51440, true);
	put_result(first, 2, 7, 3, true);
	put_result(second, 8191, UINT64_MAX, 1, true);
	assert_int_equal(cp_nl_read_flush_reply(first, &acc, &error), 0);
	assert_int_equal(cp_nl_read_flush_reply(second, &acc, &error), 0);
	assert_int_equal(acc.nr_results, 3);
	assert_int_equal(acc.results[0].cpu, 0);
	assert_true(acc.results[0].cycles == 123456);
	assert_true(acc.results[0].nsec == 51440);
	assert_int_equal(acc.results[1].cpu, 2);
	assert_int_equal(acc.results[2].cpu, 8191);
	assert_true(acc.results[2].cycles == UINT64_MAX);
	free(acc.results);
	nlmsg_free(first);
	nlmsg_free(second);
}

static void test_flush_reply_of_many_cpus(void **state)
{
	struct nl_msg *msg = nlmsg_alloc_size(1 << 20);
	struct cp_flush_results acc = { 0 };
	struct cp_error error;

	(void)state;
	assert_non_null(genlmsg_put(msg, 0, 1, FAMILY_ID, 0, 0,
				    CACHEPROBE_CMD_FLUSH, 1));
	for (uint32_t cpu = 0; cpu < CACHEPROBE_MAX_CPUS; cpu++)
		put_result(msg, cpu, cpu * 10ull, cpu, true);
	assert_int_equal(cp_nl_read_flush_reply(msg, &acc, &error), 0);
	assert_int_equal(acc.nr_results, CACHEPROBE_MAX_CPUS);
	assert_int_equal(acc.results[5000].cpu, 5000);
	assert_true(acc.results[5000].cycles == 50000);
	free(acc.results);
	nlmsg_free(msg);
}

static void test_flush_result_without_nsec_refused(void **state)
{
	struct nl_msg *msg = new_reply(CACHEPROBE_CMD_FLUSH);
	struct cp_flush_results acc = { 0 };
	struct cp_error error;

	(void)state;
	put_result(msg, 1, 10, 0, false);
	assert_int_equal(cp_nl_read_flush_reply(msg, &acc, &error), -EPROTO);
	assert_string_equal(error.msg,
			    "a FLUSH result lacks CPU, CYCLES or NSEC");
	free(acc.results);
	nlmsg_free(msg);
}

static void test_flush_result_with_short_cycles_refused(void **state)
{
	struct nl_msg *msg = new_reply(CACHEPROBE_CMD_FLUSH);
	struct cp_flush_results acc = { 0 };
	struct cp_error error;
	struct nlattr *nest;

	(void)state;
	nest = nla_nest_start(msg, CACHEPROBE_ATTR_FLUSH_RESULT);
	nla_put_u32(msg, CACHEPROBE_RESULT_CPU, 1);
	nla_put_u32(msg, CACHEPROBE_RESULT_CYCLES, 10);
	nla_put_u64(msg, CACHEPROBE_RESULT_NSEC, 4);
	nla_nest_end(msg, nest);
	assert_int_equal(cp_nl_read_flush_reply(msg, &acc, &error), -EPROTO);
	assert_non_null(strstr(error.msg, "malformed FLUSH result"));
	free(acc.results);
	nlmsg_free(msg);
}

/* The attributes of a request this library built. */
static void parse_request(struct nl_msg *msg, struct nlattr **attrs)
{
	struct genlmsghdr *genl = genlmsg_hdr(nlmsg_hdr(msg));

	assert_int_equal(genl->cmd, CACHEPROBE_CMD_FLUSH);
	assert_int_equal(genl->version, CACHEPROBE_GENL_VERSION);
	assert_int_equal(nlmsg_hdr(msg)->nlmsg_type, FAMILY_ID);
	assert_int_equal(genlmsg_parse(nlmsg_hdr(msg), 0, attrs,
				       CACHEPROBE_ATTR_MAX, NULL), 0);
}

static void test_flush_request_for_all_online(void **state)
{
	struct nlattr *attrs[CACHEPROBE_ATTR_MAX + 1];
	struct nl_msg *msg = NULL;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_nl_build_flush(FAMILY_ID, CACHEPROBE_FLUSH_WBNOINVD,
					   NULL, &msg, &error), 0);
	parse_request(msg, attrs);
	assert_int_equal(nla_get_u32(attrs[CACHEPROBE_ATTR_FLUSH_METHOD]),
			 CACHEPROBE_FLUSH_WBNOINVD);
	assert_null(attrs[CACHEPROBE_ATTR_CPUS]);
	nlmsg_free(msg);
}

static void test_flush_request_mask_length(void **state)
{
	static const struct {
		const char *cpus;	/* NULL: the empty set */
		int bytes;
		size_t word;
		uint64_t value;
	} cases[] = {
		{ "0", 8, 0, 1 },
		{ "1,63", 8, 0, 1ull << 63 | 2 },
		{ "64", 16, 1, 1 },
		{ "0,64", 16, 1, 1 },
		{ "8191", 1024, 127, 1ull << 63 },
		{ NULL, 8, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nlattr *attrs[CACHEPROBE_ATTR_MAX + 1];
		struct cp_cpuset *cpus = cp_cpuset_new(CACHEPROBE_MAX_CPUS);
		struct nl_msg *msg = NULL;
		struct cp_error error;
		uint64_t words[128];
		char why[64];

		if (cases[i].cpus) {
			cp_cpuset_free(cpus);
			assert_int_equal(cp_cpuset_parse(cases[i].cpus, &cpus,
							 why, sizeof(why)), 0);
		}
		assert_int_equal(cp_nl_build_flush(FAMILY_ID,
						   CACHEPROBE_FLUSH_WBINVD,
						   cpus, &msg, &error), 0);
		parse_request(msg, attrs);
		assert_non_null(attrs[CACHEPROBE_ATTR_CPUS]);
		assert_int_equal(nla_len(attrs[CACHEPROBE_ATTR_CPUS]),
				 cases[i].bytes);
		memcpy(words, nla_data(attrs[CACHEPROBE_ATTR_CPUS]),
		       (size_t)cases[i].bytes);
		assert_true(words[cases[i].word] == cases[i].value);
		cp_cpuset_free(cpus);
		nlmsg_free(msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info_reply_read),
		cmocka_unit_test(test_info_reply_ignores_future_attributes),
		cmocka_unit_test(test_info_reply_refused),
		cmocka_unit_test(test_flush_reply_over_two_messages),
		cmocka_unit_test(test_flush_reply_of_many_cpus),
		cmocka_unit_test(test_flush_result_without_nsec_refused),
		cmocka_unit_test(test_flush_result_with_short_cycles_refused),
		cmocka_unit_test(test_flush_request_for_all_online),
		cmocka_unit_test(test_flush_request_mask_length),
	};

	return cmocka_run_group_tests_name("nl_messages", tests, NULL, NULL);
}
