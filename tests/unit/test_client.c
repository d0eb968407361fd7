// SPDX-License-Identifier: GPL-2.0
/* The client interface: transport selection, error reporting through the
 * ioctl path, and the checks it applies to every transport's results. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_ops.h"

/* /dev/null opens like the device but knows no ioctl: every request meets
 * ENOTTY, as with a module of another ABI. */
static void test_ioctl_enotty_is_explained(void **state)
{
	struct cp_client *client = NULL;
	struct cp_module_info info;
	struct cp_cpu_time *results = NULL;
	size_t nr_results = 99;
	struct cp_cpuset *cpus = cp_cpuset_new(4);
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_ioctl_client_open("/dev/null", &client, &error), 0);
	assert_string_equal(cp_client_transport_name(client), "ioctl");
	assert_int_equal(cp_client_info(client, &info, &error), -ENOTTY);
	assert_int_equal(error.err, ENOTTY);
	assert_string_equal(error.msg, "the module does not know the get-info "
			    "request (a module of another ABI?)");
	assert_null(info.online_cpus);
	cp_cpuset_set(cpus, 1);
	assert_int_equal(cp_client_flush(client, CACHEPROBE_FLUSH_WBINVD, cpus,
					 &results, &nr_results, &error),
			 -ENOTTY);
	assert_non_null(strstr(error.msg, "the flush request"));
	assert_null(results);
	assert_int_equal(nr_results, 0);
	/* Every online CPU: learning nr_cpu_ids is what fails first. */
	assert_int_equal(cp_client_flush(client, CACHEPROBE_FLUSH_WBINVD, NULL,
					 &results, &nr_results, &error),
			 -ENOTTY);
	cp_cpuset_free(cpus);
	cp_client_close(client);
}

static void test_ioctl_missing_device(void **state)
{
	struct cp_client *client = NULL;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_ioctl_client_open("no-such-cacheprobe-device",
					      &client, &error), -ENOENT);
	assert_int_equal(error.err, ENOENT);
	assert_string_equal(error.msg, "cannot open no-such-cacheprobe-device "
			    "(is the cacheprobe module loaded?)");
	assert_null(client);
}

/* Where the module is absent, AUTO must say so in one sentence naming both
 * transports; where it is loaded there is nothing to check here. */
static void test_auto_without_module(void **state)
{
	struct cp_client *client = NULL;
	struct cp_error error;
	int ret = cp_client_open(CP_TRANSPORT_AUTO, &client, &error);

	(void)state;
	if (ret == 0) {
		cp_client_close(client);
		skip();
	}
	assert_int_equal(ret, -ENOENT);
	assert_int_equal(error.err, ENOENT);
	assert_string_equal(error.msg, CP_MSG_MODULE_NOT_LOADED ": no generic "
			    "netlink family \"cacheprobe\" and no "
			    "/dev/cacheprobe");
}

static void test_unknown_transport(void **state)
{
	struct cp_client *client = NULL;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_client_open((enum cp_transport)42, &client, &error),
			 -EINVAL);
	assert_string_equal(error.msg, "unknown transport 42");
}

/* A transport that answers with whatever the test puts in it. */
struct fake_client {
	struct cp_client base;
	const struct cp_cpu_time *answer;
	size_t nr_answer;
};

static int fake_flush(struct cp_client *client,
		      enum cacheprobe_flush_method method,
		      const struct cp_cpuset *cpus, struct cp_cpu_time **results,
		      size_t *nr_results, struct cp_error *error)
{
	struct fake_client *fake = (struct fake_client *)client;

	(void)method;
	(void)cpus;
	(void)error;
	*results = malloc(fake->nr_answer * sizeof(**results) + 1);
	memcpy(*results, fake->answer, fake->nr_answer * sizeof(**results));
	*nr_results = fake->nr_answer;
	return 0;
}

static const struct cp_client_ops fake_ops = {
	.name = "fake", .flush = fake_flush,
};

static int flush_fake(const struct cp_cpu_time *answer, size_t nr_answer,
		      struct cp_cpu_time **results, size_t *nr_results,
		      struct cp_error *error)
{
	struct fake_client fake = {
		.base.ops = &fake_ops, .answer = answer, .nr_answer = nr_answer,
	};

	return cp_client_flush(&fake.base, CACHEPROBE_FLUSH_WBINVD, NULL,
			       results, nr_results, error);
}

static void test_results_in_order_pass(void **state)
{
	static const struct cp_cpu_time answer[] = {
		{ 0, 10, 4 }, { 2, 20, 8 }, { 8191, 30, 12 },
	};
	struct cp_cpu_time *results = NULL;
	size_t nr_results = 0;
	struct cp_error error;

	(void)state;
	assert_int_equal(flush_fake(answer, 3, &results, &nr_results, &error), 0);
	assert_int_equal(nr_results, 3);
	assert_int_equal(results[2].cpu, 8191);
	assert_true(results[1].cycles == 20 && results[1].nsec == 8);
	free(results);
}

static void test_results_out_of_order_or_range_refused(void **state)
{
	static const struct cp_cpu_time unordered[] = { { 3, 1, 1 }, { 1, 1, 1 } };
	static const struct cp_cpu_time repeated[] = { { 1, 1, 1 }, { 1, 1, 1 } };
	static const struct cp_cpu_time beyond[] = { { 8192, 1, 1 } };
	static const struct {
		const struct cp_cpu_time *answer;
		size_t nr;
	} cases[] = { { unordered, 2 }, { repeated, 2 }, { beyond, 1 } };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cp_cpu_time *results = NULL;
		size_t nr_results = 5;
		struct cp_error error;

		assert_int_equal(flush_fake(cases[i].answer, cases[i].nr,
					    &results, &nr_results, &error),
				 -EPROTO);
		assert_int_equal(error.err, EPROTO);
		assert_non_null(strstr(error.msg, "out of order or range"));
		assert_null(results);
		assert_int_equal(nr_results, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ioctl_enotty_is_explained),
		cmocka_unit_test(test_ioctl_missing_device),
		cmocka_unit_test(test_auto_without_module),
		cmocka_unit_test(test_unknown_transport),
		cmocka_unit_test(test_results_in_order_pass),
		cmocka_unit_test(test_results_out_of_order_or_range_refused),
	};

	return cmocka_run_group_tests_name("client", tests, NULL, NULL);
}
