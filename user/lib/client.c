// SPDX-License-Identifier: GPL-2.0
#include "client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client_ops.h"

#define DEVICE_PATH "/dev/" CACHEPROBE_DEVICE_NAME

static int open_auto(struct cp_client **out, struct cp_error *error)
{
	struct cp_error netlink_error, ioctl_error;
	int netlink_ret, ioctl_ret;

	netlink_ret = cp_netlink_client_open(out, &netlink_error);
	if (netlink_ret == 0)
		return 0;
	ioctl_ret = cp_ioctl_client_open(DEVICE_PATH, out, &ioctl_error);
	if (ioctl_ret == 0)
		return 0;
	if (netlink_ret == -ENOENT && ioctl_ret == -ENOENT)
		return cp_error_set(error, ENOENT, CP_MSG_MODULE_NOT_LOADED
				    ": no generic netlink family \"%s\" and no %s",
				    CACHEPROBE_GENL_NAME, DEVICE_PATH);
	/* A transport that exists but failed says more than a missing one. */
	if (netlink_ret != -ENOENT) {
		if (error)
			*error = netlink_error;
		return netlink_ret;
	}
	if (error)
		*error = ioctl_error;
	return ioctl_ret;
}

int cp_client_open(enum cp_transport transport, struct cp_client **out,
		   struct cp_error *error)
{
	cp_error_clear(error);
	switch (transport) {
	case CP_TRANSPORT_AUTO:
		return open_auto(out, error);
	case CP_TRANSPORT_NETLINK:
		return cp_netlink_client_open(out, error);
	case CP_TRANSPORT_IOCTL:
		return cp_ioctl_client_open(DEVICE_PATH, out, error);
	}
	return cp_error_set(error, EINVAL, "unknown transport %d", transport);
}

void cp_client_close(struct cp_client *client)
{
	if (client)
		client->ops->close(client);
}

const char *cp_client_transport_name(const struct cp_client *client)
{
	return client->ops->name;
}

int cp_client_info(struct cp_client *client, struct cp_module_info *out,
		   struct cp_error *error)
{
	cp_error_clear(error);
	memset(out, 0, sizeof(*out));
	return client->ops->info(client, out, error);
}

void cp_module_info_free(struct cp_module_info *info)
{
	cp_cpuset_free(info->possible_cpus);
	cp_cpuset_free(info->online_cpus);
	info->possible_cpus = NULL;
	info->online_cpus = NULL;
}

/* The ABI promises one result per CPU in increasing CPU order; results that
 * break it would mislabel measurements, so they are refused. */
static int check_results(const struct cp_cpu_time *results, size_t nr_results,
			 struct cp_error *error)
{
	for (size_t i = 0; i < nr_results; i++) {
		if (results[i].cpu >= CACHEPROBE_MAX_CPUS ||
		    (i && results[i].cpu <= results[i - 1].cpu))
			return cp_error_set(error, EPROTO,
					    "the module returned a result for "
					    "CPU %u out of order or range",
					    results[i].cpu);
	}
	return 0;
}

int cp_client_flush(struct cp_client *client,
		    enum cacheprobe_flush_method method,
		    const struct cp_cpuset *cpus, struct cp_cpu_time **results,
		    size_t *nr_results, struct cp_error *error)
{
	cp_error_clear(error);
	int ret;

	*results = NULL;
	*nr_results = 0;
	ret = client->ops->flush(client, method, cpus, results, nr_results,
				 error);
	if (!ret)
		ret = check_results(*results, *nr_results, error);
	if (ret) {
		free(*results);
		*results = NULL;
		*nr_results = 0;
	}
	return ret;
}
