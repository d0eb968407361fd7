/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The way to cacheprobe.ko.  One interface over the module's two transports
 * (generic netlink and the /dev/cacheprobe ioctls): callers never learn
 * which one carries a request, except by asking for its name.
 *
 * Every operation returns 0 or a negative errno and fills a struct cp_error
 * with the errno and a sentence: the module's own explanation when it gave
 * one (netlink extended ack or the ioctl message buffer), ours otherwise.
 */
#ifndef CACHEPROBE_CLIENT_H
#define CACHEPROBE_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/cacheprobe.h>

#include "cpuset.h"
#include "error.h"

/* Start of the message cp_client_open gives when no transport exists. */
#define CP_MSG_MODULE_NOT_LOADED "cacheprobe module not loaded"

enum cp_transport {
	CP_TRANSPORT_AUTO,	/* netlink if the family resolves, else ioctl */
	CP_TRANSPORT_NETLINK,
	CP_TRANSPORT_IOCTL,
};

struct cp_client;

struct cp_module_info {
	char module_version[CACHEPROBE_VERSION_LEN];
	uint32_t abi_version;
	uint32_t nr_cpu_ids;
	uint32_t nr_possible_cpus;
	uint32_t nr_online_cpus;
	uint32_t tsc_khz;		/* 0: the kernel does not know */
	uint32_t cache_line_size;
	uint32_t max_cpus;
	uint64_t features;		/* CACHEPROBE_FEAT_* */
	struct cp_cpuset *possible_cpus;
	struct cp_cpuset *online_cpus;
};

/* One CPU's share of a per-CPU operation. */
struct cp_cpu_time {
	uint32_t cpu;
	uint64_t cycles;		/* TSC ticks */
	uint64_t nsec;			/* 0 when the TSC rate is unknown */
};

/*
 * Connect.  AUTO tries netlink, then /dev/cacheprobe; when neither exists
 * it fails with -ENOENT and a message starting CP_MSG_MODULE_NOT_LOADED.
 */
int cp_client_open(enum cp_transport transport, struct cp_client **out,
		   struct cp_error *error);
void cp_client_close(struct cp_client *client);
/* "netlink" or "ioctl". */
const char *cp_client_transport_name(const struct cp_client *client);

/* Fill @out; release it with cp_module_info_free. */
int cp_client_info(struct cp_client *client, struct cp_module_info *out,
		   struct cp_error *error);
void cp_module_info_free(struct cp_module_info *info);

/*
 * Flush the caches of @cpus (NULL: every online CPU) with @method and
 * return each CPU's time, in increasing CPU order, in a malloc'ed array
 * (*@results, to free()) of *@nr_results entries.  The module validates
 * @cpus: offline ids and ids beyond nr_cpu_ids fail with -EINVAL.
 */
int cp_client_flush(struct cp_client *client,
		    enum cacheprobe_flush_method method,
		    const struct cp_cpuset *cpus, struct cp_cpu_time **results,
		    size_t *nr_results, struct cp_error *error);

#endif
