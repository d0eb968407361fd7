/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cacheprobe family's netlink messages: requests built and replies read
 * against a policy.  Kept apart from the socket so that tests can check
 * them on messages made by hand.
 */
#ifndef CACHEPROBE_NL_MESSAGES_H
#define CACHEPROBE_NL_MESSAGES_H

#include <stddef.h>
#include <stdint.h>

#include "client/client.h"
#include "client/kcmd_request.h"
#include "client/nl_extack.h"

struct nl_msg;

/* The ABI's attribute names without the CACHEPROBE_ATTR_ prefix. */
extern const struct cp_nl_attr_names cp_nl_attr_names;

/* A request for @cmd to the family @family_id, without attributes. */
int cp_nl_new_request(int family_id, uint8_t cmd, struct nl_msg **out,
		      struct cp_error *error);

/*
 * The FLUSH request: FLUSH_METHOD, and CPUS when @cpus is given, as whole
 * u64 words up to the highest member (one zero word for an empty set, which
 * the module rejects with its own message).
 */
int cp_nl_build_flush(int family_id, enum cacheprobe_flush_method method,
		      const struct cp_cpuset *cpus, struct nl_msg **out,
		      struct cp_error *error);

/* Fill @info from a GET_INFO reply; release it with cp_module_info_free. */
int cp_nl_read_info_reply(struct nl_msg *reply, struct cp_module_info *info,
			  struct cp_error *error);

/* FLUSH results as they arrive, possibly over several messages. */
struct cp_flush_results {
	struct cp_cpu_time *results;	/* malloc'ed */
	size_t nr_results;
	size_t capacity;
};

/* Append the FLUSH_RESULT attributes of one reply message to @results. */
int cp_nl_read_flush_reply(struct nl_msg *reply,
			   struct cp_flush_results *results,
			   struct cp_error *error);

/*
 * A measurement command's request: CPU_LIST and SAMPLES, and every other
 * attribute the command takes (0 for the module's default where the ABI
 * has one).
 */
int cp_nl_build_kcmd(int family_id, const struct cp_kcmd *kcmd,
		     struct nl_msg **out, struct cp_error *error);

/*
 * Fill @result (zeroed by the caller) from a measurement reply; release it
 * with cp_run_result_free.  The shape is checked against the request by
 * the caller (cp_kcmd_check_result).
 */
int cp_nl_read_run_reply(struct nl_msg *reply, struct cp_run_result *result,
			 struct cp_error *error);

#endif
