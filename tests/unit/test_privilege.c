// SPDX-License-Identifier: GPL-2.0
/* Which --mode reaches for the module, with and without CAP_SYS_ADMIN in
 * the effective set.  The tests drop and raise the capability in the
 * effective set only, so they need it permitted (root, as make check). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sys/capability.h>

#include "areas/area.h"
#include "lib/privilege.h"

static int set_admin_effective(cap_flag_value_t value)
{
	cap_t caps = cap_get_proc();
	cap_value_t admin = CAP_SYS_ADMIN;
	int ret;

	if (!caps)
		return -1;
	ret = cap_set_flag(caps, CAP_EFFECTIVE, 1, &admin, value);
	if (!ret)
		ret = cap_set_proc(caps);
	cap_free(caps);
	return ret;
}

static bool wanted(enum cp_area_mode mode)
{
	struct cp_area_options options = { .mode = mode };

	return area_module_wanted(&options);
}

static int need_admin_permitted(void **state)
{
	(void)state;
	return set_admin_effective(CAP_SET);
}

static int raise_admin(void **state)
{
	(void)state;
	return set_admin_effective(CAP_SET);
}

static void test_with_admin(void **state)
{
	(void)state;
	assert_true(cp_may_measure_in_kernel());
	assert_true(wanted(CP_AREA_MODE_AUTO));
	assert_true(wanted(CP_AREA_MODE_KERNEL));
	assert_true(wanted(CP_AREA_MODE_BOTH));
	assert_false(wanted(CP_AREA_MODE_USER));
}

/* AUTO stays in user mode; an explicit kernel mode still asks the module,
 * whose EPERM then names what is missing. */
static void test_without_admin(void **state)
{
	(void)state;
	assert_int_equal(set_admin_effective(CAP_CLEAR), 0);
	assert_false(cp_may_measure_in_kernel());
	assert_false(wanted(CP_AREA_MODE_AUTO));
	assert_true(wanted(CP_AREA_MODE_KERNEL));
	assert_true(wanted(CP_AREA_MODE_BOTH));
	assert_false(wanted(CP_AREA_MODE_USER));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_with_admin),
		cmocka_unit_test_teardown(test_without_admin, raise_admin),
	};

	return cmocka_run_group_tests(tests, need_admin_permitted, NULL);
}
