// SPDX-License-Identifier: GPL-2.0
/* Whether the default mode uses the module: the probe asks the module with
 * the smallest CHASE and only its EPERM keeps the area in user mode. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>

#include "areas/area.h"
#include "client/client_ops.h"
#include "client/privilege.h"

/* A transport whose measurement commands fail with @answer (0: succeed
 * with no series, which the client then reports as a bad reply). */
struct fake_client {
	struct cp_client base;
	int answer;
	struct cp_kcmd asked;
	int calls;
};

static int fake_kcmd(struct cp_client *client, const struct cp_kcmd *kcmd,
		     struct cp_run_result *result, struct cp_error *error)
{
	struct fake_client *fake = (struct fake_client *)client;

	(void)result;
	fake->asked = *kcmd;
	fake->calls++;
	if (fake->answer)
		return cp_error_set(error, fake->answer, "refused");
	return 0;
}

static const struct cp_client_ops fake_ops = {
	.name = "fake", .kcmd = fake_kcmd,
};

static struct fake_client fake_answering(int answer)
{
	return (struct fake_client){ .base.ops = &fake_ops, .answer = answer };
}

static void test_probe_is_one_small_chase(void **state)
{
	struct fake_client fake = fake_answering(0);

	(void)state;
	cp_client_may_measure(&fake.base);
	assert_int_equal(fake.calls, 1);
	assert_int_equal(fake.asked.cmd, CACHEPROBE_CMD_CHASE);
	assert_int_equal(fake.asked.nr_cpus, 1);
	assert_int_equal(fake.asked.samples, 1);
	assert_true(fake.asked.size <= 4096);
	assert_true(fake.asked.ops <= 64);
}

static void test_only_eperm_refuses(void **state)
{
	struct fake_client refused = fake_answering(EPERM);
	struct fake_client busy = fake_answering(ETIMEDOUT);
	struct fake_client old = fake_answering(ENOTTY);
	struct fake_client fine = fake_answering(0);

	(void)state;
	assert_false(cp_client_may_measure(&refused.base));
	assert_true(cp_client_may_measure(&busy.base));
	assert_true(cp_client_may_measure(&old.base));
	assert_true(cp_client_may_measure(&fine.base));
}

/* Only AUTO falls back: an explicit kernel mode keeps the module, whose
 * EPERM then tells the user what is missing. */
static void test_only_auto_falls_back(void **state)
{
	struct fake_client refused = fake_answering(EPERM);
	struct fake_client fine = fake_answering(0);
	struct cp_area_options options = { .mode = CP_AREA_MODE_AUTO };

	(void)state;
	assert_true(area_module_refuses_auto(&options, &refused.base));
	assert_false(area_module_refuses_auto(&options, &fine.base));
	options.mode = CP_AREA_MODE_KERNEL;
	assert_false(area_module_refuses_auto(&options, &refused.base));
	options.mode = CP_AREA_MODE_BOTH;
	assert_false(area_module_refuses_auto(&options, &refused.base));
	assert_int_equal(refused.calls, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_is_one_small_chase),
		cmocka_unit_test(test_only_eperm_refuses),
		cmocka_unit_test(test_only_auto_falls_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
