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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/cacheprobe.h>

#include "machine/cpuset.h"
#include "util/error.h"

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
	/* ABI 2 and later; 0 from an ABI 1 module. */
	uint64_t max_irqoff_ns;		/* longest interrupt-off window */
	uint64_t max_buffer_bytes;	/* largest measurement buffer */
	uint32_t partner_timeout_ms;
	uint32_t max_values;		/* samples x series per reply */
	/* ABI 4 and later; 0 from an older module. */
	uint32_t max_chases;		/* CHASE's most chases at once */
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

/*
 * --- Measurement commands (ABI 2): see the UAPI header for what each one
 * measures, its limits and errors. ---
 *
 * Each returns, in a struct cp_run_result, one series of samples per timed
 * CPU and the longest interrupt-off window the module used.  A value is the
 * TSC ticks of one sample, which covers @ops operations: value / ops is the
 * cost of one (hop, access, round trip, increment, line).  Fields left 0 in
 * the parameters take the module's defaults where the header gives one.
 */

/* One timed CPU's samples. */
struct cp_series {
	uint32_t cpu;
	uint64_t *values;		/* samples entries, TSC ticks */
};

struct cp_run_result {
	uint32_t samples;		/* values per series */
	uint64_t ops;			/* operations each value covers */
	uint64_t window_max_cycles;	/* longest interrupt-off window */
	uint64_t window_max_nsec;	/* the same in ns; 0: rate unknown */
	uint64_t windows;		/* windows used by the leading CPU */
	uint32_t retries;		/* samples run again after an overrun */
	uint64_t page_bytes;		/* CHASE (ABI 4): the smallest page
					 * mapping the buffer; 0 when the
					 * module did not report it */
	uint32_t missed_rounds;		/* ABI 4: rounds a partner CPU did
					 * not join in time (busy or
					 * descheduled); 0 from an older
					 * module */
	uint32_t disturbed;		/* ABI 4: samples run again after
					 * something unseen stretched their
					 * window; not in retries */
	size_t nr_series;
	struct cp_series *series;	/* release with cp_run_result_free */
};

void cp_run_result_free(struct cp_run_result *result);

struct cp_chase_params {
	uint32_t cpu;
	uint32_t samples;
	uint64_t size;			/* buffer bytes */
	uint32_t stride;		/* 0: the cache line size */
	uint32_t order;			/* enum cacheprobe_order, 0: random */
	uint32_t hops;			/* loads per sample, over all chases:
					 * a multiple of chases */
	uint32_t prepare;		/* enum cacheprobe_prepare, 0: none */
	/*
	 * ABI 4; an older module refuses them unless 0 (and !has_seed), and
	 * 0 is never sent, so such a request reaches it unchanged.
	 */
	uint32_t pages;			/* enum cacheprobe_pages, 0: 4K */
	uint32_t chases;		/* 1..CACHEPROBE_MAX_CHASES, 0: 1 */
	uint64_t seed;			/* of the random order, if has_seed */
	bool has_seed;			/* false: the module draws one; over
					 * ioctl seed 0 is no seed either */
};

struct cp_access_params {
	uint32_t cpu;
	uint32_t samples;
	uint64_t size;			/* buffer bytes */
	uint32_t stride;		/* 0: offset + width, rounded to lines */
	uint32_t width;			/* 1, 2, 4, 8, 16, 32, 64 */
	uint32_t offset;		/* from the start of each slot */
	uint32_t variant;		/* enum cacheprobe_access_variant */
	uint32_t accesses;		/* per sample; the module does whole
					 * loop steps (ABI 5: 16 or 4) */
	/* ABI 5: LOAD_LATENCY's cycle, sent if has_seed (an older module
	 * refuses it); false: the module draws one; over ioctl seed 0 is
	 * no seed either. */
	uint64_t seed;
	bool has_seed;
};

struct cp_pingpong_params {
	uint32_t initiator;		/* its series is the result */
	uint32_t responder;
	uint32_t samples;
	uint32_t variant;		/* enum cacheprobe_pingpong_variant */
	uint32_t round_trips;		/* per sample */
};

struct cp_bounce_params {
	const uint32_t *cpus;		/* 2..CACHEPROBE_RUN_MAX_CPUS, distinct */
	size_t nr_cpus;
	uint32_t samples;
	uint32_t variant;		/* enum cacheprobe_bounce_variant */
	uint32_t width;			/* counter bytes, 4 or 8 */
	uint32_t distance;		/* bytes between counters, 0: shared */
	uint32_t increments;		/* per CPU and sample */
};

struct cp_xfer_params {
	uint32_t producer;
	uint32_t consumer;		/* its series is the result */
	uint32_t samples;
	uint64_t size;			/* block bytes, whole lines */
	uint32_t variant;		/* enum cacheprobe_xfer_variant */
	uint32_t order;			/* enum cacheprobe_order, 0: random */
	uint32_t delay;			/* dependent adds after each load,
					 * 0..CACHEPROBE_MAX_DELAY; ABI 3 when
					 * not 0 */
};

/* One series, for @params->cpu. */
int cp_client_chase(struct cp_client *client,
		    const struct cp_chase_params *params,
		    struct cp_run_result *result, struct cp_error *error);
/* One series, for @params->cpu. */
int cp_client_access(struct cp_client *client,
		     const struct cp_access_params *params,
		     struct cp_run_result *result, struct cp_error *error);
/* One series, the initiator's. */
int cp_client_pingpong(struct cp_client *client,
		       const struct cp_pingpong_params *params,
		       struct cp_run_result *result, struct cp_error *error);
/* One series per CPU, in @params->cpus order. */
int cp_client_bounce(struct cp_client *client,
		     const struct cp_bounce_params *params,
		     struct cp_run_result *result, struct cp_error *error);
/* One series, the consumer's; ops is the number of lines in the block. */
int cp_client_xfer(struct cp_client *client,
		   const struct cp_xfer_params *params,
		   struct cp_run_result *result, struct cp_error *error);

#endif
