/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the client: what a transport provides.  Not for callers. */
#ifndef CACHEPROBE_CLIENT_OPS_H
#define CACHEPROBE_CLIENT_OPS_H

#include "client/client.h"
#include "client/kcmd_request.h"

struct cp_client_ops {
	const char *name;
	void (*close)(struct cp_client *client);
	int (*info)(struct cp_client *client, struct cp_module_info *out,
		    struct cp_error *error);
	int (*flush)(struct cp_client *client,
		     enum cacheprobe_flush_method method,
		     const struct cp_cpuset *cpus,
		     struct cp_cpu_time **results, size_t *nr_results,
		     struct cp_error *error);
	/* A measurement command; @result is zeroed by the caller. */
	int (*kcmd)(struct cp_client *client, const struct cp_kcmd *kcmd,
		    struct cp_run_result *result, struct cp_error *error);
};

/* Each transport embeds this first in its own state. */
struct cp_client {
	const struct cp_client_ops *ops;
};

/* -ENOENT when the generic netlink family does not exist. */
int cp_netlink_client_open(struct cp_client **out, struct cp_error *error);
/* -ENOENT when @device_path does not exist. */
int cp_ioctl_client_open(const char *device_path, struct cp_client **out,
			 struct cp_error *error);

#endif
