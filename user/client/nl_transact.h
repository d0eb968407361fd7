/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One generic netlink request and its replies, with the kernel's errno and
 * extended-ack message delivered intact (see nl_extack.h for why libnl's own
 * error reporting is not enough).
 */
#ifndef CACHEPROBE_NL_TRANSACT_H
#define CACHEPROBE_NL_TRANSACT_H

#include <stddef.h>

#include "util/error.h"
#include "client/nl_extack.h"

struct nl_msg;
struct nl_sock;

/* A connected generic netlink socket with extended acks enabled and a
 * receive path that sizes itself to each message (large replies). */
int cp_nl_socket_open(struct nl_sock **out, struct cp_error *error);
void cp_nl_socket_close(struct nl_sock *sock);

/* Called for each reply message; returns 0 or a negative errno, having
 * filled @error. */
typedef int (*cp_nl_reply_fn)(struct nl_msg *reply, void *arg,
			      struct cp_error *error);

struct cp_nl_request {
	struct nl_msg *msg;		/* sent with NLM_F_ACK */
	cp_nl_reply_fn on_reply;	/* NULL when no reply is expected */
	void *arg;
	struct cp_nl_attr_names attr_names;	/* for error messages */
	const char *what;	/* the operation, to explain a bare errno */
};

/*
 * Send @request and read until the kernel acknowledges it or reports an
 * error.  Returns 0 or a negative errno with @error filled: the kernel's
 * errno and message, the first error of on_reply, or a local failure.
 */
int cp_nl_transact(struct nl_sock *sock, const struct cp_nl_request *request,
		   struct cp_error *error);

/* A positive errno for a (negative or positive) libnl error code. */
int cp_nl_errno(int nl_err);

#endif
