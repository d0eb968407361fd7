// SPDX-License-Identifier: GPL-2.0
#include "client/nl_messages.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

static const char *const attr_names[CACHEPROBE_ATTR_MAX + 1] = {
	[CACHEPROBE_ATTR_MODULE_VERSION] = "MODULE_VERSION",
	[CACHEPROBE_ATTR_ABI_VERSION] = "ABI_VERSION",
	[CACHEPROBE_ATTR_NR_CPU_IDS] = "NR_CPU_IDS",
	[CACHEPROBE_ATTR_NR_POSSIBLE_CPUS] = "NR_POSSIBLE_CPUS",
	[CACHEPROBE_ATTR_NR_ONLINE_CPUS] = "NR_ONLINE_CPUS",
	[CACHEPROBE_ATTR_POSSIBLE_CPUS] = "POSSIBLE_CPUS",
	[CACHEPROBE_ATTR_ONLINE_CPUS] = "ONLINE_CPUS",
	[CACHEPROBE_ATTR_TSC_KHZ] = "TSC_KHZ",
	[CACHEPROBE_ATTR_FEATURES] = "FEATURES",
	[CACHEPROBE_ATTR_CACHE_LINE_SIZE] = "CACHE_LINE_SIZE",
	[CACHEPROBE_ATTR_MAX_CPUS] = "MAX_CPUS",
	[CACHEPROBE_ATTR_FLUSH_METHOD] = "FLUSH_METHOD",
	[CACHEPROBE_ATTR_CPUS] = "CPUS",
	[CACHEPROBE_ATTR_FLUSH_RESULT] = "FLUSH_RESULT",
	[CACHEPROBE_ATTR_MAX_IRQOFF_NS] = "MAX_IRQOFF_NS",
	[CACHEPROBE_ATTR_MAX_BUFFER_BYTES] = "MAX_BUFFER_BYTES",
	[CACHEPROBE_ATTR_PARTNER_TIMEOUT_MS] = "PARTNER_TIMEOUT_MS",
	[CACHEPROBE_ATTR_MAX_VALUES] = "MAX_VALUES",
	[CACHEPROBE_ATTR_RUN_MAX_CPUS] = "RUN_MAX_CPUS",
	[CACHEPROBE_ATTR_CPU_LIST] = "CPU_LIST",
	[CACHEPROBE_ATTR_SAMPLES] = "SAMPLES",
	[CACHEPROBE_ATTR_OPS] = "OPS",
	[CACHEPROBE_ATTR_SIZE] = "SIZE",
	[CACHEPROBE_ATTR_STRIDE] = "STRIDE",
	[CACHEPROBE_ATTR_ORDER] = "ORDER",
	[CACHEPROBE_ATTR_PREPARE] = "PREPARE",
	[CACHEPROBE_ATTR_VARIANT] = "VARIANT",
	[CACHEPROBE_ATTR_WIDTH] = "WIDTH",
	[CACHEPROBE_ATTR_OFFSET] = "OFFSET",
	[CACHEPROBE_ATTR_DISTANCE] = "DISTANCE",
	[CACHEPROBE_ATTR_WINDOW_MAX_CYCLES] = "WINDOW_MAX_CYCLES",
	[CACHEPROBE_ATTR_WINDOW_MAX_NSEC] = "WINDOW_MAX_NSEC",
	[CACHEPROBE_ATTR_WINDOWS] = "WINDOWS",
	[CACHEPROBE_ATTR_RETRIES] = "RETRIES",
	[CACHEPROBE_ATTR_SERIES] = "SERIES",
	[CACHEPROBE_ATTR_DELAY] = "DELAY",
	[CACHEPROBE_ATTR_PAGES] = "PAGES",
	[CACHEPROBE_ATTR_PAGE_BYTES] = "PAGE_BYTES",
	[CACHEPROBE_ATTR_CHASES] = "CHASES",
	[CACHEPROBE_ATTR_SEED] = "SEED",
	[CACHEPROBE_ATTR_MAX_CHASES] = "MAX_CHASES",
	[CACHEPROBE_ATTR_MISSED_ROUNDS] = "MISSED_ROUNDS",
	[CACHEPROBE_ATTR_DISTURBED] = "DISTURBED",
};

const struct cp_nl_attr_names cp_nl_attr_names = {
	.names = attr_names,
	.nr_names = CACHEPROBE_ATTR_MAX + 1,
};

#define U32_POLICY { .type = NLA_U32, .minlen = 4, .maxlen = 4 }
#define U64_POLICY { .type = NLA_U64, .minlen = 8, .maxlen = 8 }
#define CPUMASK_POLICY { .type = NLA_UNSPEC, .minlen = 8, \
			 .maxlen = CACHEPROBE_CPUMASK_MAX_BYTES }

static const struct nla_policy info_policy[CACHEPROBE_ATTR_MAX + 1] = {
	[CACHEPROBE_ATTR_MODULE_VERSION] = { .type = NLA_STRING,
					     .maxlen = CACHEPROBE_VERSION_LEN },
	[CACHEPROBE_ATTR_ABI_VERSION] = U32_POLICY,
	[CACHEPROBE_ATTR_NR_CPU_IDS] = U32_POLICY,
	[CACHEPROBE_ATTR_NR_POSSIBLE_CPUS] = U32_POLICY,
	[CACHEPROBE_ATTR_NR_ONLINE_CPUS] = U32_POLICY,
	[CACHEPROBE_ATTR_POSSIBLE_CPUS] = CPUMASK_POLICY,
	[CACHEPROBE_ATTR_ONLINE_CPUS] = CPUMASK_POLICY,
	[CACHEPROBE_ATTR_TSC_KHZ] = U32_POLICY,
	[CACHEPROBE_ATTR_FEATURES] = U64_POLICY,
	[CACHEPROBE_ATTR_CACHE_LINE_SIZE] = U32_POLICY,
	[CACHEPROBE_ATTR_MAX_CPUS] = U32_POLICY,
	[CACHEPROBE_ATTR_MAX_IRQOFF_NS] = U64_POLICY,
	[CACHEPROBE_ATTR_MAX_BUFFER_BYTES] = U64_POLICY,
	[CACHEPROBE_ATTR_PARTNER_TIMEOUT_MS] = U32_POLICY,
	[CACHEPROBE_ATTR_MAX_VALUES] = U32_POLICY,
	[CACHEPROBE_ATTR_RUN_MAX_CPUS] = U32_POLICY,
	[CACHEPROBE_ATTR_MAX_CHASES] = U32_POLICY,
};

static const struct nla_policy run_policy[CACHEPROBE_ATTR_MAX + 1] = {
	[CACHEPROBE_ATTR_SAMPLES] = U32_POLICY,
	[CACHEPROBE_ATTR_OPS] = U32_POLICY,
	[CACHEPROBE_ATTR_WINDOW_MAX_CYCLES] = U64_POLICY,
	[CACHEPROBE_ATTR_WINDOW_MAX_NSEC] = U64_POLICY,
	[CACHEPROBE_ATTR_WINDOWS] = U64_POLICY,
	[CACHEPROBE_ATTR_RETRIES] = U32_POLICY,
	[CACHEPROBE_ATTR_SERIES] = { .type = NLA_NESTED },
	[CACHEPROBE_ATTR_PAGE_BYTES] = U64_POLICY,
	[CACHEPROBE_ATTR_MISSED_ROUNDS] = U32_POLICY,
	[CACHEPROBE_ATTR_DISTURBED] = U32_POLICY,
};

static const struct nla_policy series_policy[CACHEPROBE_SERIES_MAX + 1] = {
	[CACHEPROBE_SERIES_CPU] = U32_POLICY,
	[CACHEPROBE_SERIES_VALUES] = { .type = NLA_UNSPEC },
};

static const struct nla_policy flush_policy[CACHEPROBE_ATTR_MAX + 1] = {
	[CACHEPROBE_ATTR_FLUSH_RESULT] = { .type = NLA_NESTED },
};

static const struct nla_policy result_policy[CACHEPROBE_RESULT_MAX + 1] = {
	[CACHEPROBE_RESULT_CPU] = U32_POLICY,
	[CACHEPROBE_RESULT_CYCLES] = U64_POLICY,
	[CACHEPROBE_RESULT_NSEC] = U64_POLICY,
};

/* --- requests --- */

int cp_nl_new_request(int family_id, uint8_t cmd, struct nl_msg **out,
		      struct cp_error *error)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family_id, 0,
				 0, cmd, CACHEPROBE_GENL_VERSION)) {
		nlmsg_free(msg);
		return cp_error_set(error, ENOMEM,
				    "cannot allocate a netlink request");
	}
	*out = msg;
	return 0;
}

static int put_cpus(struct nl_msg *msg, const struct cp_cpuset *cpus,
		    struct cp_error *error)
{
	uint64_t words[CACHEPROBE_CPUMASK_MAX_BYTES / sizeof(uint64_t)];
	size_t nr_words = cp_cpuset_abi_words(cpus);

	if (nr_words == 0)
		nr_words = 1;
	cp_cpuset_to_abi(cpus, words, nr_words);
	if (nla_put(msg, CACHEPROBE_ATTR_CPUS,
		    (int)(nr_words * sizeof(words[0])), words) < 0)
		return cp_error_set(error, ENOMEM,
				    "the CPU mask does not fit a netlink message");
	return 0;
}

int cp_nl_build_flush(int family_id, enum cacheprobe_flush_method method,
		      const struct cp_cpuset *cpus, struct nl_msg **out,
		      struct cp_error *error)
{
	int ret = cp_nl_new_request(family_id, CACHEPROBE_CMD_FLUSH, out,
				    error);

	if (ret)
		return ret;
	if (nla_put_u32(*out, CACHEPROBE_ATTR_FLUSH_METHOD, (uint32_t)method) < 0)
		ret = cp_error_set(error, ENOMEM,
				   "cannot build the FLUSH request");
	else if (cpus)
		ret = put_cpus(*out, cpus, error);
	if (ret)
		nlmsg_free(*out);
	return ret;
}

/* --- GET_INFO reply --- */

static const int required_info_attrs[] = {
	CACHEPROBE_ATTR_MODULE_VERSION, CACHEPROBE_ATTR_ABI_VERSION,
	CACHEPROBE_ATTR_NR_CPU_IDS, CACHEPROBE_ATTR_NR_POSSIBLE_CPUS,
	CACHEPROBE_ATTR_NR_ONLINE_CPUS, CACHEPROBE_ATTR_POSSIBLE_CPUS,
	CACHEPROBE_ATTR_ONLINE_CPUS, CACHEPROBE_ATTR_TSC_KHZ,
	CACHEPROBE_ATTR_FEATURES, CACHEPROBE_ATTR_CACHE_LINE_SIZE,
	CACHEPROBE_ATTR_MAX_CPUS,
};

static int check_required(struct nlattr **attrs, struct cp_error *error)
{
	const size_t nr_required =
		sizeof(required_info_attrs) / sizeof(required_info_attrs[0]);

	for (size_t i = 0; i < nr_required; i++)
		if (!attrs[required_info_attrs[i]])
			return cp_error_set(error, EPROTO,
					    "the module's GET_INFO reply lacks %s",
					    attr_names[required_info_attrs[i]]);
	return 0;
}

static int read_cpumask(struct nlattr *attr, struct cp_cpuset **out,
			struct cp_error *error)
{
	if (cp_cpuset_from_abi(nla_data(attr), (size_t)nla_len(attr), out))
		return cp_error_set(error, EPROTO,
				    "the module sent %d bytes of %s, not whole "
				    "u64 words", nla_len(attr),
				    attr_names[nla_type(attr)]);
	return 0;
}

static void read_info_numbers(struct nlattr **attrs,
			      struct cp_module_info *info)
{
	snprintf(info->module_version, sizeof(info->module_version), "%s",
		 nla_get_string(attrs[CACHEPROBE_ATTR_MODULE_VERSION]));
	info->abi_version = nla_get_u32(attrs[CACHEPROBE_ATTR_ABI_VERSION]);
	info->nr_cpu_ids = nla_get_u32(attrs[CACHEPROBE_ATTR_NR_CPU_IDS]);
	info->nr_possible_cpus =
		nla_get_u32(attrs[CACHEPROBE_ATTR_NR_POSSIBLE_CPUS]);
	info->nr_online_cpus =
		nla_get_u32(attrs[CACHEPROBE_ATTR_NR_ONLINE_CPUS]);
	info->tsc_khz = nla_get_u32(attrs[CACHEPROBE_ATTR_TSC_KHZ]);
	info->features = nla_get_u64(attrs[CACHEPROBE_ATTR_FEATURES]);
	info->cache_line_size =
		nla_get_u32(attrs[CACHEPROBE_ATTR_CACHE_LINE_SIZE]);
	info->max_cpus = nla_get_u32(attrs[CACHEPROBE_ATTR_MAX_CPUS]);
	/* ABI 2: absent from older modules, which leaves them 0. */
	if (attrs[CACHEPROBE_ATTR_MAX_IRQOFF_NS])
		info->max_irqoff_ns =
			nla_get_u64(attrs[CACHEPROBE_ATTR_MAX_IRQOFF_NS]);
	if (attrs[CACHEPROBE_ATTR_MAX_BUFFER_BYTES])
		info->max_buffer_bytes =
			nla_get_u64(attrs[CACHEPROBE_ATTR_MAX_BUFFER_BYTES]);
	if (attrs[CACHEPROBE_ATTR_PARTNER_TIMEOUT_MS])
		info->partner_timeout_ms =
			nla_get_u32(attrs[CACHEPROBE_ATTR_PARTNER_TIMEOUT_MS]);
	if (attrs[CACHEPROBE_ATTR_MAX_VALUES])
		info->max_values =
			nla_get_u32(attrs[CACHEPROBE_ATTR_MAX_VALUES]);
	/* ABI 4. */
	if (attrs[CACHEPROBE_ATTR_MAX_CHASES])
		info->max_chases =
			nla_get_u32(attrs[CACHEPROBE_ATTR_MAX_CHASES]);
}

int cp_nl_read_info_reply(struct nl_msg *reply, struct cp_module_info *info,
			  struct cp_error *error)
{
	struct nlattr *attrs[CACHEPROBE_ATTR_MAX + 1];
	int ret = genlmsg_parse(nlmsg_hdr(reply), 0, attrs,
				CACHEPROBE_ATTR_MAX, info_policy);

	if (ret < 0)
		return cp_error_set(error, EPROTO,
				    "malformed GET_INFO reply: %s",
				    nl_geterror(ret));
	ret = check_required(attrs, error);
	if (ret)
		return ret;
	read_info_numbers(attrs, info);
	ret = read_cpumask(attrs[CACHEPROBE_ATTR_POSSIBLE_CPUS],
			   &info->possible_cpus, error);
	if (!ret)
		ret = read_cpumask(attrs[CACHEPROBE_ATTR_ONLINE_CPUS],
				   &info->online_cpus, error);
	if (ret)
		cp_module_info_free(info);
	return ret;
}

/* --- FLUSH reply --- */

static int append_result(struct cp_flush_results *acc,
			 const struct cp_cpu_time *result,
			 struct cp_error *error)
{
	if (acc->nr_results == acc->capacity) {
		size_t capacity = acc->capacity ? acc->capacity * 2 : 64;
		struct cp_cpu_time *grown =
			realloc(acc->results, capacity * sizeof(*grown));

		if (!grown)
			return cp_error_set(error, ENOMEM,
					    "no memory for flush results");
		acc->results = grown;
		acc->capacity = capacity;
	}
	acc->results[acc->nr_results++] = *result;
	return 0;
}

static int read_result(struct nlattr *nested, struct cp_cpu_time *result,
		       struct cp_error *error)
{
	struct nlattr *attrs[CACHEPROBE_RESULT_MAX + 1];
	int ret = nla_parse_nested(attrs, CACHEPROBE_RESULT_MAX, nested,
				   result_policy);

	if (ret < 0)
		return cp_error_set(error, EPROTO,
				    "malformed FLUSH result: %s",
				    nl_geterror(ret));
	if (!attrs[CACHEPROBE_RESULT_CPU] || !attrs[CACHEPROBE_RESULT_CYCLES] ||
	    !attrs[CACHEPROBE_RESULT_NSEC])
		return cp_error_set(error, EPROTO,
				    "a FLUSH result lacks CPU, CYCLES or NSEC");
	result->cpu = nla_get_u32(attrs[CACHEPROBE_RESULT_CPU]);
	result->cycles = nla_get_u64(attrs[CACHEPROBE_RESULT_CYCLES]);
	result->nsec = nla_get_u64(attrs[CACHEPROBE_RESULT_NSEC]);
	return 0;
}

int cp_nl_read_flush_reply(struct nl_msg *reply,
			   struct cp_flush_results *acc,
			   struct cp_error *error)
{
	struct nlmsghdr *hdr = nlmsg_hdr(reply);
	struct genlmsghdr *genl_hdr;
	struct nlattr *attr;
	int remaining;
	int ret = genlmsg_validate(hdr, 0, CACHEPROBE_ATTR_MAX, flush_policy);

	if (ret < 0)
		return cp_error_set(error, EPROTO, "malformed FLUSH reply: %s",
				    nl_geterror(ret));
	genl_hdr = genlmsg_hdr(hdr);
	nla_for_each_attr(attr, genlmsg_attrdata(genl_hdr, 0),
			  genlmsg_attrlen(genl_hdr, 0), remaining) {
		struct cp_cpu_time result;

		if (nla_type(attr) != CACHEPROBE_ATTR_FLUSH_RESULT)
			continue;
		ret = read_result(attr, &result, error);
		if (!ret)
			ret = append_result(acc, &result, error);
		if (ret)
			return ret;
	}
	return 0;
}

/* --- measurement commands --- */

static int put_kcmd_attrs(struct nl_msg *msg, const struct cp_kcmd *kcmd)
{
	int ret = nla_put(msg, CACHEPROBE_ATTR_CPU_LIST,
			  (int)(kcmd->nr_cpus * sizeof(kcmd->cpus[0])),
			  kcmd->cpus) |
		  nla_put_u32(msg, CACHEPROBE_ATTR_SAMPLES, kcmd->samples);

	switch (kcmd->cmd) {
	case CACHEPROBE_CMD_CHASE:
		ret |= nla_put_u64(msg, CACHEPROBE_ATTR_SIZE, kcmd->size) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_OPS, kcmd->ops) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_STRIDE, kcmd->stride) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_ORDER, kcmd->order) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_PREPARE, kcmd->prepare);
		/* ABI 4, only when asked for: an older module refuses the
		 * attributes even when they are 0. */
		if (kcmd->pages)
			ret |= nla_put_u32(msg, CACHEPROBE_ATTR_PAGES,
					   kcmd->pages);
		if (kcmd->chases)
			ret |= nla_put_u32(msg, CACHEPROBE_ATTR_CHASES,
					   kcmd->chases);
		if (kcmd->has_seed)
			ret |= nla_put_u64(msg, CACHEPROBE_ATTR_SEED,
					   kcmd->seed);
		return ret;
	case CACHEPROBE_CMD_ACCESS:
		ret |= nla_put_u64(msg, CACHEPROBE_ATTR_SIZE, kcmd->size) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_OPS, kcmd->ops) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_STRIDE, kcmd->stride) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_WIDTH, kcmd->width) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_OFFSET, kcmd->offset) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_VARIANT, kcmd->variant);
		/* ABI 5, only when asked for: an older module refuses it. */
		if (kcmd->has_seed)
			ret |= nla_put_u64(msg, CACHEPROBE_ATTR_SEED,
					   kcmd->seed);
		return ret;
	case CACHEPROBE_CMD_PINGPONG:
		return ret | nla_put_u32(msg, CACHEPROBE_ATTR_OPS, kcmd->ops) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_VARIANT, kcmd->variant);
	case CACHEPROBE_CMD_BOUNCE:
		return ret | nla_put_u32(msg, CACHEPROBE_ATTR_OPS, kcmd->ops) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_VARIANT, kcmd->variant) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_WIDTH, kcmd->width) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_DISTANCE,
				   kcmd->distance);
	case CACHEPROBE_CMD_XFER:
		ret |= nla_put_u64(msg, CACHEPROBE_ATTR_SIZE, kcmd->size) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_VARIANT, kcmd->variant) |
		       nla_put_u32(msg, CACHEPROBE_ATTR_ORDER, kcmd->order);
		/* Only when asked for: an ABI 2 module refuses the attribute
		 * even when it is 0. */
		if (kcmd->delay)
			ret |= nla_put_u32(msg, CACHEPROBE_ATTR_DELAY,
					   kcmd->delay);
		return ret;
	}
	return -1;
}

int cp_nl_build_kcmd(int family_id, const struct cp_kcmd *kcmd,
		     struct nl_msg **out, struct cp_error *error)
{
	int ret;

	if (kcmd->nr_cpus == 0 || kcmd->nr_cpus > CACHEPROBE_RUN_MAX_CPUS)
		return cp_error_set(error, EINVAL,
				    "%s needs 1 to %d CPUs, %u given",
				    cp_kcmd_name(kcmd->cmd),
				    CACHEPROBE_RUN_MAX_CPUS, kcmd->nr_cpus);
	ret = cp_nl_new_request(family_id, kcmd->cmd, out, error);
	if (ret)
		return ret;
	if (put_kcmd_attrs(*out, kcmd) != 0) {
		nlmsg_free(*out);
		*out = NULL;
		return cp_error_set(error, ENOMEM,
				    "cannot build the %s request",
				    cp_kcmd_name(kcmd->cmd));
	}
	return 0;
}

static int read_series(struct nlattr *nested, struct cp_series *series,
		       uint32_t samples, struct cp_error *error)
{
	struct nlattr *attrs[CACHEPROBE_SERIES_MAX + 1];
	int ret = nla_parse_nested(attrs, CACHEPROBE_SERIES_MAX, nested,
				   series_policy);

	if (ret < 0)
		return cp_error_set(error, EPROTO, "malformed SERIES: %s",
				    nl_geterror(ret));
	if (!attrs[CACHEPROBE_SERIES_CPU] || !attrs[CACHEPROBE_SERIES_VALUES])
		return cp_error_set(error, EPROTO,
				    "a SERIES lacks its CPU or VALUES");
	if ((size_t)nla_len(attrs[CACHEPROBE_SERIES_VALUES]) !=
	    samples * sizeof(uint64_t))
		return cp_error_set(error, EPROTO,
				    "a SERIES holds %d bytes of values, "
				    "%u samples expected",
				    nla_len(attrs[CACHEPROBE_SERIES_VALUES]),
				    samples);
	series->cpu = nla_get_u32(attrs[CACHEPROBE_SERIES_CPU]);
	/* 4-byte aligned in the message: copied, never cast. */
	memcpy(series->values, nla_data(attrs[CACHEPROBE_SERIES_VALUES]),
	       samples * sizeof(uint64_t));
	return 0;
}

static size_t count_series(struct genlmsghdr *genl_hdr)
{
	struct nlattr *attr;
	size_t count = 0;
	int remaining;

	nla_for_each_attr(attr, genlmsg_attrdata(genl_hdr, 0),
			  genlmsg_attrlen(genl_hdr, 0), remaining)
		if (nla_type(attr) == CACHEPROBE_ATTR_SERIES)
			count++;
	return count;
}

int cp_nl_read_run_reply(struct nl_msg *reply, struct cp_run_result *result,
			 struct cp_error *error)
{
	struct nlattr *attrs[CACHEPROBE_ATTR_MAX + 1];
	struct nlmsghdr *hdr = nlmsg_hdr(reply);
	struct genlmsghdr *genl_hdr;
	struct nlattr *attr;
	size_t i = 0;
	int remaining;
	int ret = genlmsg_parse(hdr, 0, attrs, CACHEPROBE_ATTR_MAX,
				run_policy);

	if (ret < 0)
		return cp_error_set(error, EPROTO,
				    "malformed measurement reply: %s",
				    nl_geterror(ret));
	if (!attrs[CACHEPROBE_ATTR_SAMPLES] || !attrs[CACHEPROBE_ATTR_OPS] ||
	    !attrs[CACHEPROBE_ATTR_WINDOW_MAX_CYCLES] ||
	    !attrs[CACHEPROBE_ATTR_WINDOW_MAX_NSEC])
		return cp_error_set(error, EPROTO,
				    "a measurement reply lacks SAMPLES, OPS "
				    "or the window attributes");
	genl_hdr = genlmsg_hdr(hdr);
	ret = cp_run_result_alloc(result, count_series(genl_hdr),
				  nla_get_u32(attrs[CACHEPROBE_ATTR_SAMPLES]),
				  error);
	if (ret)
		return ret;
	result->ops = nla_get_u32(attrs[CACHEPROBE_ATTR_OPS]);
	result->window_max_cycles =
		nla_get_u64(attrs[CACHEPROBE_ATTR_WINDOW_MAX_CYCLES]);
	result->window_max_nsec =
		nla_get_u64(attrs[CACHEPROBE_ATTR_WINDOW_MAX_NSEC]);
	if (attrs[CACHEPROBE_ATTR_WINDOWS])
		result->windows = nla_get_u64(attrs[CACHEPROBE_ATTR_WINDOWS]);
	if (attrs[CACHEPROBE_ATTR_RETRIES])
		result->retries = nla_get_u32(attrs[CACHEPROBE_ATTR_RETRIES]);
	if (attrs[CACHEPROBE_ATTR_PAGE_BYTES])
		result->page_bytes =
			nla_get_u64(attrs[CACHEPROBE_ATTR_PAGE_BYTES]);
	if (attrs[CACHEPROBE_ATTR_MISSED_ROUNDS])
		result->missed_rounds =
			nla_get_u32(attrs[CACHEPROBE_ATTR_MISSED_ROUNDS]);
	if (attrs[CACHEPROBE_ATTR_DISTURBED])
		result->disturbed =
			nla_get_u32(attrs[CACHEPROBE_ATTR_DISTURBED]);
	nla_for_each_attr(attr, genlmsg_attrdata(genl_hdr, 0),
			  genlmsg_attrlen(genl_hdr, 0), remaining) {
		if (nla_type(attr) != CACHEPROBE_ATTR_SERIES)
			continue;
		ret = read_series(attr, &result->series[i++], result->samples,
				  error);
		if (ret) {
			cp_run_result_free(result);
			return ret;
		}
	}
	return 0;
}
