// SPDX-License-Identifier: GPL-2.0
#include "client/client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_ops.h"

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

/* --- measurement commands --- */

static int run_kcmd(struct cp_client *client, const struct cp_kcmd *kcmd,
		    struct cp_run_result *result, struct cp_error *error)
{
	int ret;

	cp_error_clear(error);
	memset(result, 0, sizeof(*result));
	ret = client->ops->kcmd(client, kcmd, result, error);
	if (!ret)
		ret = cp_kcmd_check_result(kcmd, result, error);
	if (ret)
		cp_run_result_free(result);
	return ret;
}

int cp_client_chase(struct cp_client *client,
		    const struct cp_chase_params *params,
		    struct cp_run_result *result, struct cp_error *error)
{
	struct cp_kcmd kcmd = {
		.cmd = CACHEPROBE_CMD_CHASE,
		.cpus = { params->cpu },
		.nr_cpus = 1,
		.samples = params->samples,
		.size = params->size,
		.stride = params->stride,
		.order = params->order,
		.ops = params->hops,
		.prepare = params->prepare,
		.pages = params->pages,
		.chases = params->chases,
		.seed = params->seed,
		.has_seed = params->has_seed,
	};

	return run_kcmd(client, &kcmd, result, error);
}

int cp_client_access(struct cp_client *client,
		     const struct cp_access_params *params,
		     struct cp_run_result *result, struct cp_error *error)
{
	struct cp_kcmd kcmd = {
		.cmd = CACHEPROBE_CMD_ACCESS,
		.cpus = { params->cpu },
		.nr_cpus = 1,
		.samples = params->samples,
		.size = params->size,
		.stride = params->stride,
		.width = params->width,
		.offset = params->offset,
		.variant = params->variant,
		.ops = params->accesses,
		.seed = params->seed,
		.has_seed = params->has_seed,
	};

	return run_kcmd(client, &kcmd, result, error);
}

int cp_client_pingpong(struct cp_client *client,
		       const struct cp_pingpong_params *params,
		       struct cp_run_result *result, struct cp_error *error)
{
	struct cp_kcmd kcmd = {
		.cmd = CACHEPROBE_CMD_PINGPONG,
		.cpus = { params->initiator, params->responder },
		.nr_cpus = 2,
		.samples = params->samples,
		.variant = params->variant,
		.ops = params->round_trips,
	};

	return run_kcmd(client, &kcmd, result, error);
}

int cp_client_bounce(struct cp_client *client,
		     const struct cp_bounce_params *params,
		     struct cp_run_result *result, struct cp_error *error)
{
	struct cp_kcmd kcmd = {
		.cmd = CACHEPROBE_CMD_BOUNCE,
		.samples = params->samples,
		.variant = params->variant,
		.width = params->width,
		.distance = params->distance,
		.ops = params->increments,
	};

	if (params->nr_cpus > CACHEPROBE_RUN_MAX_CPUS) {
		memset(result, 0, sizeof(*result));
		return cp_error_set(error, EINVAL,
				    "bounce takes at most %d CPUs, %zu given",
				    CACHEPROBE_RUN_MAX_CPUS, params->nr_cpus);
	}
	if (params->nr_cpus)
		memcpy(kcmd.cpus, params->cpus,
		       params->nr_cpus * sizeof(uint32_t));
	kcmd.nr_cpus = (uint32_t)params->nr_cpus;
	return run_kcmd(client, &kcmd, result, error);
}

int cp_client_xfer(struct cp_client *client,
		   const struct cp_xfer_params *params,
		   struct cp_run_result *result, struct cp_error *error)
{
	struct cp_kcmd kcmd = {
		.cmd = CACHEPROBE_CMD_XFER,
		.cpus = { params->producer, params->consumer },
		.nr_cpus = 2,
		.samples = params->samples,
		.size = params->size,
		.variant = params->variant,
		.order = params->order,
		.delay = params->delay,
	};

	return run_kcmd(client, &kcmd, result, error);
}
