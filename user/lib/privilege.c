// SPDX-License-Identifier: GPL-2.0
#include "privilege.h"

#include <sys/capability.h>

bool cp_may_measure_in_kernel(void)
{
	cap_t caps = cap_get_proc();
	cap_flag_value_t admin = CAP_CLEAR;

	if (!caps)
		return false;
	if (cap_get_flag(caps, CAP_SYS_ADMIN, CAP_EFFECTIVE, &admin))
		admin = CAP_CLEAR;
	cap_free(caps);
	return admin == CAP_SET;
}
