/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink error messages with extended acknowledgement (NETLINK_EXT_ACK).
 *
 * libnl turns a kernel error into its own error code and drops the extended
 * ack, which carries the module's explanation.  These functions read the raw
 * NLMSG_ERROR message instead; they use no libnl so a test can feed them a
 * message built by hand.
 */
#ifndef CACHEPROBE_NL_EXTACK_H
#define CACHEPROBE_NL_EXTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

#include "util/error.h"

struct cp_nl_extack {
	int error;			/* positive errno; 0 for an ACK */
	const char *msg;		/* NLMSGERR_ATTR_MSG, in the message */
	bool has_offset;
	uint32_t offset;		/* NLMSGERR_ATTR_OFFS: the bad attribute,
					 * in bytes from the request's header */
	bool has_missing_type;
	uint32_t missing_type;		/* NLMSGERR_ATTR_MISS_TYPE */
};

/*
 * Read the NLMSG_ERROR message @hdr, of which @len bytes were received.
 * Works with and without NLM_F_CAPPED (the request echoed whole or only
 * its header).  Returns 0, or -EPROTO for a malformed message.
 */
int cp_nl_extack_parse(const struct nlmsghdr *hdr, size_t len,
		       struct cp_nl_extack *out);

/* Names of a request's attributes by type, for messages; gaps are NULL. */
struct cp_nl_attr_names {
	const char *const *names;
	size_t nr_names;
};

/*
 * Turn @extack into @error: the kernel's message (when it gave none, our
 * explanation of the errno for operation @what, or strerror when @what is
 * NULL), followed by the request attribute it points at, resolved against
 * @request (may be NULL) and named through @names (may be NULL).
 */
void cp_nl_extack_describe(const struct cp_nl_extack *extack,
			   const struct nlmsghdr *request,
			   const struct cp_nl_attr_names *names,
			   const char *what, struct cp_error *error);

#endif
