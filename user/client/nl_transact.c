// SPDX-License-Identifier: GPL-2.0
#include "client/nl_transact.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

/* A FLUSH reply for CACHEPROBE_MAX_CPUS CPUs (about 52 bytes each) and its
 * ack fit with room. */
#define RECEIVE_BUFFER_BYTES (1 << 20)

int cp_nl_errno(int nl_err)
{
	switch (nl_err < 0 ? -nl_err : nl_err) {
	case NLE_NOMEM:		return ENOMEM;
	case NLE_PERM:		return EPERM;
	case NLE_NOACCESS:	return EACCES;
	case NLE_OBJ_NOTFOUND:	return ENOENT;
	case NLE_INTR:		return EINTR;
	case NLE_AGAIN:		return EAGAIN;
	case NLE_MSG_TRUNC:	return EMSGSIZE;
	case NLE_MSGSIZE:	return EMSGSIZE;
	case NLE_OPNOTSUPP:	return EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:	return EAFNOSUPPORT;
	case NLE_INVAL:		return EINVAL;
	case NLE_RANGE:		return ERANGE;
	case NLE_BUSY:		return EBUSY;
	default:		return EPROTO;
	}
}

static void enable_extended_ack(struct nl_sock *sock)
{
	int one = 1;

	/* Kernels before 4.12 lack it; errors then come without a message,
	 * which describe() replaces with strerror, so failing here is fine. */
	(void)setsockopt(nl_socket_get_fd(sock), SOL_NETLINK, NETLINK_EXT_ACK,
			 &one, sizeof(one));
}

/*
 * The kernel queues a reply of any size on an empty socket, but drops what
 * follows while the queue exceeds the receive buffer: the ack behind a
 * large FLUSH reply would be lost.  SO_RCVBUFFORCE goes past rmem_max for
 * root (CAP_NET_ADMIN), who is also the one allowed to flush; anyone else
 * gets what SO_RCVBUF allows, which is plenty for GET_INFO.
 */
static void enlarge_receive_buffer(struct nl_sock *sock)
{
	int bytes = RECEIVE_BUFFER_BYTES;
	int fd = nl_socket_get_fd(sock);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)))
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes,
				 sizeof(bytes));
}

int cp_nl_socket_open(struct nl_sock **out, struct cp_error *error)
{
	struct nl_sock *sock = nl_socket_alloc();
	int ret;

	if (!sock)
		return cp_error_set(error, ENOMEM,
				    "cannot allocate a netlink socket");
	ret = genl_connect(sock);
	if (ret < 0) {
		nl_socket_free(sock);
		return cp_error_set(error, cp_nl_errno(ret),
				    "cannot open a generic netlink socket: %s",
				    nl_geterror(ret));
	}
	enable_extended_ack(sock);
	/* Peeking lets libnl size its buffer to each message instead of
	 * truncating a large FLUSH reply at its default page. */
	nl_socket_enable_msg_peek(sock);
	enlarge_receive_buffer(sock);
	*out = sock;
	return 0;
}

void cp_nl_socket_close(struct nl_sock *sock)
{
	nl_socket_free(sock);
}

struct transact_state {
	const struct cp_nl_request *request;
	struct cp_error *error;
	int result;	/* first failure, negative errno */
	bool done;	/* the ack or the kernel's error arrived */
};

static void remember_failure(struct transact_state *state, int ret)
{
	if (!state->result)
		state->result = ret;
}

static int on_valid(struct nl_msg *reply, void *arg)
{
	struct transact_state *state = arg;
	struct cp_error reply_error;
	int ret;

	/* After a bad reply keep reading, so the ack does not linger in the
	 * socket for the next request, but parse nothing more. */
	if (state->result || !state->request->on_reply)
		return NL_OK;
	cp_error_clear(&reply_error);
	ret = state->request->on_reply(reply, state->request->arg,
				       &reply_error);
	if (ret) {
		remember_failure(state, ret);
		if (state->error)
			*state->error = reply_error;
	}
	return NL_OK;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct transact_state *state = arg;

	(void)msg;
	state->done = true;
	return NL_STOP;
}

static int on_error(struct sockaddr_nl *peer, struct nlmsgerr *nlerr,
		    void *arg)
{
	struct transact_state *state = arg;
	/* libnl hands over the payload of the NLMSG_ERROR message, which
	 * follows its header in the same buffer; the TLVs need the header. */
	const struct nlmsghdr *hdr =
		(const void *)((const char *)nlerr - NLMSG_HDRLEN);
	struct cp_nl_extack extack;
	struct cp_error kernel_error;

	(void)peer;
	state->done = true;
	if (cp_nl_extack_parse(hdr, hdr->nlmsg_len, &extack) < 0) {
		remember_failure(state, cp_error_set(state->error, EPROTO,
				 "malformed netlink error message"));
		return NL_STOP;
	}
	cp_nl_extack_describe(&extack, nlmsg_hdr(state->request->msg),
			      &state->request->attr_names, state->request->what,
			      &kernel_error);
	if (!state->result && state->error)
		*state->error = kernel_error;
	remember_failure(state, -kernel_error.err);
	return NL_STOP;
}

static struct nl_cb *transact_callbacks(struct nl_sock *sock,
					struct transact_state *state)
{
	/* nl_socket_get_cb() takes a reference, which must be dropped. */
	struct nl_cb *socket_cb = nl_socket_get_cb(sock);
	struct nl_cb *cb = nl_cb_clone(socket_cb);

	nl_cb_put(socket_cb);
	if (!cb)
		return NULL;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, state);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, state);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, state);
	return cb;
}

static int receive_until_done(struct nl_sock *sock, struct nl_cb *cb,
			      struct transact_state *state)
{
	while (!state->done) {
		int ret = nl_recvmsgs(sock, cb);

		/* on_error stops libnl with an error code of its own; the
		 * kernel's errno is already in state->result. */
		if (ret < 0 && !state->done)
			return cp_error_set(state->error, cp_nl_errno(ret),
					    "netlink receive failed: %s",
					    nl_geterror(ret));
	}
	return state->result;
}

int cp_nl_transact(struct nl_sock *sock, const struct cp_nl_request *request,
		   struct cp_error *error)
{
	struct transact_state state = { .request = request, .error = error };
	struct nl_cb *cb;
	int ret;

	cp_error_clear(error);
	cb = transact_callbacks(sock, &state);
	if (!cb)
		return cp_error_set(error, ENOMEM,
				    "cannot allocate netlink callbacks");
	nlmsg_hdr(request->msg)->nlmsg_flags |= NLM_F_ACK;
	ret = nl_send_auto(sock, request->msg);
	if (ret < 0)
		ret = cp_error_set(error, cp_nl_errno(ret),
				   "netlink send failed: %s", nl_geterror(ret));
	else
		ret = receive_until_done(sock, cb, &state);
	nl_cb_put(cb);
	return ret;
}
