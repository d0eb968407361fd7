// SPDX-License-Identifier: GPL-2.0
/* The client over the misc device's ioctls. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "client/client_ops.h"

/* The ABI never resizes its structs (the size is part of the ioctl number);
 * a change here would be a new ABI, so let the build notice. */
_Static_assert(sizeof(struct cacheprobe_ioc_head) == 16, "ioc_head size");
_Static_assert(sizeof(struct cacheprobe_info) == 136, "info size");
_Static_assert(sizeof(struct cacheprobe_flush) == 80, "flush size");
_Static_assert(sizeof(struct cacheprobe_cpu_time) == 24, "cpu_time size");
_Static_assert(sizeof(struct cacheprobe_run) == 88, "run size");
_Static_assert(sizeof(struct cacheprobe_chase) == 144, "chase size");
_Static_assert(sizeof(struct cacheprobe_access) == 152, "access size");
_Static_assert(sizeof(struct cacheprobe_pingpong) == 128, "pingpong size");
_Static_assert(sizeof(struct cacheprobe_bounce) == 136, "bounce size");
_Static_assert(sizeof(struct cacheprobe_xfer) == 136, "xfer size");

struct ioctl_client {
	struct cp_client base;
	int fd;
};

/* The module's explanation lands here (see struct cacheprobe_ioc_head). */
struct module_message {
	char text[CACHEPROBE_MSG_MAX];
};

static struct ioctl_client *to_ioctl(struct cp_client *client)
{
	return (struct ioctl_client *)client;
}

static void head_init(struct cacheprobe_ioc_head *head,
		      struct module_message *message)
{
	message->text[0] = '\0';
	head->msg = (uintptr_t)message->text;
	head->msg_len = sizeof(message->text);
	head->flags = 0;
}

/* ioctl() with the errno and the module's message turned into @error. */
static int call(struct ioctl_client *client, unsigned long request, void *arg,
		struct module_message *message, const char *what,
		struct cp_error *error)
{
	int err;

	if (ioctl(client->fd, request, arg) == 0)
		return 0;
	err = errno;
	message->text[sizeof(message->text) - 1] = '\0';
	if (message->text[0])
		return cp_error_set(error, err, "%s", message->text);
	return cp_error_explain(error, err, what);
}

/* --- GET_INFO --- */

static int query_info(struct ioctl_client *client,
		      struct cacheprobe_info *info, uint64_t *possible,
		      uint64_t *online, uint32_t mask_bytes,
		      struct cp_error *error)
{
	struct module_message message;

	memset(info, 0, sizeof(*info));
	head_init(&info->head, &message);
	info->mask_bytes = mask_bytes;
	info->possible_cpus = (uintptr_t)possible;
	info->online_cpus = (uintptr_t)online;
	return call(client, CACHEPROBE_IOC_GET_INFO, info, &message,
		    "get-info", error);
}

static uint32_t mask_bytes_for(uint32_t nr_cpu_ids)
{
	return (nr_cpu_ids + 63) / 64 * (uint32_t)sizeof(uint64_t);
}

static void copy_info_numbers(const struct cacheprobe_info *info,
			      struct cp_module_info *out)
{
	snprintf(out->module_version, sizeof(out->module_version), "%.*s",
		 (int)sizeof(info->module_version), info->module_version);
	out->abi_version = info->abi_version;
	out->nr_cpu_ids = info->nr_cpu_ids;
	out->nr_possible_cpus = info->nr_possible_cpus;
	out->nr_online_cpus = info->nr_online_cpus;
	out->tsc_khz = info->tsc_khz;
	out->cache_line_size = info->cache_line_size;
	out->features = info->features;
	out->max_cpus = info->max_cpus;
	out->max_irqoff_ns = info->max_irqoff_ns;
	out->max_buffer_bytes = info->max_buffer_bytes;
	out->partner_timeout_ms = info->partner_timeout_ms;
	out->max_values = info->max_values;
	out->max_chases = info->max_chases;
}

static int read_masks(const struct cacheprobe_info *info,
		      const uint64_t *possible, const uint64_t *online,
		      uint32_t buffer_bytes, struct cp_module_info *out,
		      struct cp_error *error)
{
	if (info->mask_bytes > buffer_bytes ||
	    cp_cpuset_from_abi(possible, info->mask_bytes,
			       &out->possible_cpus) ||
	    cp_cpuset_from_abi(online, info->mask_bytes, &out->online_cpus))
		return cp_error_set(error, EPROTO,
				    "the module wrote CPU masks of %u bytes "
				    "into buffers of %u", info->mask_bytes,
				    buffer_bytes);
	return 0;
}

/* nr_cpu_ids from a first call without mask buffers. */
static int probe_nr_cpu_ids(struct ioctl_client *client, uint32_t *nr_cpu_ids,
			    struct cp_error *error)
{
	struct cacheprobe_info probe;
	int ret = query_info(client, &probe, NULL, NULL, 0, error);

	if (ret)
		return ret;
	if (probe.nr_cpu_ids == 0 || probe.nr_cpu_ids > CACHEPROBE_MAX_CPUS)
		return cp_error_set(error, EPROTO,
				    "the module reports nr_cpu_ids %u",
				    probe.nr_cpu_ids);
	*nr_cpu_ids = probe.nr_cpu_ids;
	return 0;
}

static int ioctl_info(struct cp_client *client, struct cp_module_info *out,
		      struct cp_error *error)
{
	struct ioctl_client *dev = to_ioctl(client);
	struct cacheprobe_info info;
	uint64_t *possible = NULL, *online = NULL;
	uint32_t nr_cpu_ids, mask_bytes;
	int ret = probe_nr_cpu_ids(dev, &nr_cpu_ids, error);

	if (ret)
		return ret;
	mask_bytes = mask_bytes_for(nr_cpu_ids);
	possible = calloc(1, mask_bytes);
	online = calloc(1, mask_bytes);
	if (!possible || !online)
		ret = cp_error_set(error, ENOMEM, "no memory for CPU masks");
	if (!ret)
		ret = query_info(dev, &info, possible, online, mask_bytes,
				 error);
	if (!ret) {
		copy_info_numbers(&info, out);
		ret = read_masks(&info, possible, online, mask_bytes, out,
				 error);
	}
	free(possible);
	free(online);
	if (ret)
		cp_module_info_free(out);
	return ret;
}

/* --- FLUSH --- */

/* The request's CPU mask and how many results it can produce. */
struct flush_plan {
	uint64_t words[CACHEPROBE_CPUMASK_MAX_BYTES / sizeof(uint64_t)];
	uint32_t cpus_bytes;	/* 0: every online CPU */
	uint32_t results_cap;
};

static int plan_flush(struct ioctl_client *client,
		      const struct cp_cpuset *cpus, struct flush_plan *plan,
		      struct cp_error *error)
{
	size_t nr_words;

	if (!cpus) {
		/* Room for every CPU id, not just the online count, so a CPU
		 * coming online meanwhile cannot overflow the array. */
		plan->cpus_bytes = 0;
		return probe_nr_cpu_ids(client, &plan->results_cap, error);
	}
	/* An empty set still goes out as one word, for the module to reject
	 * with its own message. */
	nr_words = cp_cpuset_abi_words(cpus);
	if (nr_words == 0)
		nr_words = 1;
	cp_cpuset_to_abi(cpus, plan->words, nr_words);
	plan->cpus_bytes = (uint32_t)(nr_words * sizeof(uint64_t));
	plan->results_cap = cp_cpuset_count(cpus);
	return 0;
}

static int copy_results(const struct cacheprobe_cpu_time *raw,
			const struct cacheprobe_flush *request,
			struct cp_cpu_time **results, size_t *nr_results,
			struct cp_error *error)
{
	struct cp_cpu_time *copy;

	if (request->nr_results > request->results_cap)
		return cp_error_set(error, EPROTO,
				    "the module reports %u results for %u slots",
				    request->nr_results, request->results_cap);
	copy = calloc(request->nr_results ? request->nr_results : 1,
		      sizeof(*copy));
	if (!copy)
		return cp_error_set(error, ENOMEM, "no memory for results");
	for (uint32_t i = 0; i < request->nr_results; i++) {
		copy[i].cpu = raw[i].cpu;
		copy[i].cycles = raw[i].cycles;
		copy[i].nsec = raw[i].nsec;
	}
	*results = copy;
	*nr_results = request->nr_results;
	return 0;
}

static int ioctl_flush(struct cp_client *client,
		       enum cacheprobe_flush_method method,
		       const struct cp_cpuset *cpus,
		       struct cp_cpu_time **results, size_t *nr_results,
		       struct cp_error *error)
{
	struct ioctl_client *dev = to_ioctl(client);
	struct cacheprobe_cpu_time *raw;
	struct cacheprobe_flush request = { 0 };
	struct module_message message;
	struct flush_plan plan;
	int ret = plan_flush(dev, cpus, &plan, error);

	if (ret)
		return ret;
	raw = calloc(plan.results_cap ? plan.results_cap : 1, sizeof(*raw));
	if (!raw)
		return cp_error_set(error, ENOMEM, "no memory for results");
	head_init(&request.head, &message);
	request.method = (uint32_t)method;
	request.cpus_bytes = plan.cpus_bytes;
	request.cpus = plan.cpus_bytes ? (uintptr_t)plan.words : 0;
	request.results = (uintptr_t)raw;
	request.results_cap = plan.results_cap;
	ret = call(dev, CACHEPROBE_IOC_FLUSH, &request, &message, "flush",
		   error);
	if (!ret)
		ret = copy_results(raw, &request, results, nr_results, error);
	free(raw);
	return ret;
}

/* --- measurement commands --- */

/* Every measurement struct starts with the head, then the run. */
union kcmd_arg {
	struct cacheprobe_chase chase;
	struct cacheprobe_access access;
	struct cacheprobe_pingpong pingpong;
	struct cacheprobe_bounce bounce;
	struct cacheprobe_xfer xfer;
};

/* The struct for @kcmd, and its ioctl number. */
static unsigned long encode_kcmd(const struct cp_kcmd *kcmd,
				 union kcmd_arg *arg)
{
	memset(arg, 0, sizeof(*arg));
	switch (kcmd->cmd) {
	case CACHEPROBE_CMD_CHASE:
		arg->chase.size = kcmd->size;
		arg->chase.stride = kcmd->stride;
		arg->chase.order = kcmd->order;
		arg->chase.hops = kcmd->ops;
		arg->chase.prepare = kcmd->prepare;
		arg->chase.pages = kcmd->pages;
		arg->chase.chases = kcmd->chases;
		/* 0 is "no seed" here: the module draws one. */
		arg->chase.seed = kcmd->has_seed ? kcmd->seed : 0;
		return CACHEPROBE_IOC_CHASE;
	case CACHEPROBE_CMD_ACCESS:
		arg->access.size = kcmd->size;
		arg->access.stride = kcmd->stride;
		arg->access.width = kcmd->width;
		arg->access.offset = kcmd->offset;
		arg->access.variant = kcmd->variant;
		arg->access.accesses = kcmd->ops;
		arg->access.seed = kcmd->has_seed ? kcmd->seed : 0;
		return CACHEPROBE_IOC_ACCESS;
	case CACHEPROBE_CMD_PINGPONG:
		arg->pingpong.variant = kcmd->variant;
		arg->pingpong.round_trips = kcmd->ops;
		return CACHEPROBE_IOC_PINGPONG;
	case CACHEPROBE_CMD_BOUNCE:
		arg->bounce.variant = kcmd->variant;
		arg->bounce.width = kcmd->width;
		arg->bounce.distance = kcmd->distance;
		arg->bounce.increments = kcmd->ops;
		return CACHEPROBE_IOC_BOUNCE;
	case CACHEPROBE_CMD_XFER:
		arg->xfer.size = kcmd->size;
		arg->xfer.variant = kcmd->variant;
		arg->xfer.order = kcmd->order;
		arg->xfer.delay = kcmd->delay;
		return CACHEPROBE_IOC_XFER;
	}
	return 0;
}

static int decode_run(const struct cp_kcmd *kcmd,
		      const struct cacheprobe_run *run, const uint64_t *values,
		      size_t cap, struct cp_run_result *result,
		      struct cp_error *error)
{
	uint32_t cpus[CACHEPROBE_RUN_MAX_CPUS];
	size_t nr = cp_kcmd_series_cpus(kcmd, cpus);
	int ret;

	if (run->nr_series != nr || run->nr_values > cap ||
	    run->nr_values != (size_t)run->nr_series * kcmd->samples)
		return cp_error_set(error, EPROTO,
				    "the module returned %u series and %u "
				    "values for %zu series of %u samples",
				    run->nr_series, run->nr_values, nr,
				    kcmd->samples);
	ret = cp_run_result_alloc(result, nr, kcmd->samples, error);
	if (ret)
		return ret;
	result->ops = run->ops;
	result->window_max_cycles = run->window_max_cycles;
	result->window_max_nsec = run->window_max_nsec;
	result->windows = run->windows;
	result->retries = run->retries;
	result->page_bytes = run->page_bytes;
	result->missed_rounds = run->missed_rounds;
	result->disturbed = run->disturbed;
	for (size_t i = 0; i < nr; i++) {
		result->series[i].cpu = cpus[i];
		memcpy(result->series[i].values, values + i * kcmd->samples,
		       kcmd->samples * sizeof(uint64_t));
	}
	return 0;
}

static int ioctl_kcmd(struct cp_client *client, const struct cp_kcmd *kcmd,
		      struct cp_run_result *result, struct cp_error *error)
{
	struct ioctl_client *dev = to_ioctl(client);
	uint32_t series_cpus[CACHEPROBE_RUN_MAX_CPUS];
	struct module_message message;
	union kcmd_arg arg;
	struct cacheprobe_run *run = &arg.chase.run;
	unsigned long request = encode_kcmd(kcmd, &arg);
	size_t cap = cp_kcmd_series_cpus(kcmd, series_cpus) *
		     (size_t)(kcmd->samples ? kcmd->samples : 1);
	uint64_t *values;
	int ret;

	if (!request)
		return cp_error_set(error, EINVAL, "unknown command %u",
				    kcmd->cmd);
	/* The struct's seed 0 means "draw one": not the chain asked for. */
	if ((kcmd->cmd == CACHEPROBE_CMD_CHASE ||
	     kcmd->cmd == CACHEPROBE_CMD_ACCESS) && kcmd->has_seed && !kcmd->seed)
		return cp_error_set(error, EINVAL,
				    "the ioctl cannot ask for seed 0 (0 there "
				    "means the module draws one); use netlink "
				    "or another seed");
	/* Beyond the module's limit: let it refuse with its own message. */
	if (cap > CACHEPROBE_MAX_VALUES)
		cap = 1;
	values = calloc(cap, sizeof(*values));
	if (!values)
		return cp_error_set(error, ENOMEM, "no memory for samples");
	head_init(&arg.chase.head, &message);
	run->cpus = (uintptr_t)kcmd->cpus;
	run->nr_cpus = kcmd->nr_cpus;
	run->samples = kcmd->samples;
	run->values = (uintptr_t)values;
	run->values_cap = (uint32_t)cap;
	ret = call(dev, request, &arg, &message, cp_kcmd_name(kcmd->cmd),
		   error);
	if (!ret)
		ret = decode_run(kcmd, run, values, cap, result, error);
	free(values);
	return ret;
}

/* --- connection --- */

static void ioctl_close(struct cp_client *client)
{
	struct ioctl_client *dev = to_ioctl(client);

	close(dev->fd);
	free(dev);
}

static const struct cp_client_ops ioctl_ops = {
	.name = "ioctl",
	.close = ioctl_close,
	.info = ioctl_info,
	.flush = ioctl_flush,
	.kcmd = ioctl_kcmd,
};

static int explain_open_failure(const char *device_path, int err,
				struct cp_error *error)
{
	const char *hint = "";

	if (err == ENOENT)
		hint = " (is the cacheprobe module loaded?)";
	else if (err == EACCES)
		hint = " (the device is for root only)";
	/* No strerror here: the errno travels beside the message. */
	return cp_error_set(error, err, "cannot open %s%s", device_path, hint);
}

int cp_ioctl_client_open(const char *device_path, struct cp_client **out,
			 struct cp_error *error)
{
	struct ioctl_client *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return cp_error_set(error, ENOMEM, "no memory for a client");
	dev->fd = open(device_path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		int err = errno;

		free(dev);
		return explain_open_failure(device_path, err, error);
	}
	dev->base.ops = &ioctl_ops;
	*out = &dev->base;
	return 0;
}
