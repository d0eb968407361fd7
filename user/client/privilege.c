// SPDX-License-Identifier: GPL-2.0
#include "client/privilege.h"

#include <errno.h>
#include <sched.h>

bool cp_client_may_measure(struct cp_client *client)
{
	int cpu = sched_getcpu();
	struct cp_chase_params probe = {
		.cpu = cpu < 0 ? 0 : (uint32_t)cpu,
		.samples = 1, .size = 4096, .hops = 16,
	};
	struct cp_run_result result = { 0 };
	struct cp_error error;
	int ret = cp_client_chase(client, &probe, &result, &error);

	cp_run_result_free(&result);
	return ret != -EPERM;
}
