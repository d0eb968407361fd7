// SPDX-License-Identifier: GPL-2.0
/* The client over the generic netlink family CACHEPROBE_GENL_NAME. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/msg.h>

#include "client/client_ops.h"
#include "client/nl_messages.h"
#include "client/nl_transact.h"

struct netlink_client {
	struct cp_client base;
	struct nl_sock *sock;
	int family_id;
};

static struct netlink_client *to_netlink(struct cp_client *client)
{
	return (struct netlink_client *)client;
}

/* Run @msg, named @what in messages, and free it. */
static int transact(struct netlink_client *client, struct nl_msg *msg,
		    cp_nl_reply_fn on_reply, void *arg, const char *what,
		    struct cp_error *error)
{
	struct cp_nl_request request = {
		.msg = msg, .on_reply = on_reply, .arg = arg,
		.attr_names = cp_nl_attr_names, .what = what,
	};
	int ret = cp_nl_transact(client->sock, &request, error);

	nlmsg_free(msg);
	return ret;
}

/* --- GET_INFO --- */

struct info_reply {
	struct cp_module_info *info;
	bool seen;
};

static int on_info_reply(struct nl_msg *reply, void *arg,
			 struct cp_error *error)
{
	struct info_reply *state = arg;

	if (state->seen)
		return cp_error_set(error, EPROTO,
				    "the module sent two GET_INFO replies");
	state->seen = true;
	return cp_nl_read_info_reply(reply, state->info, error);
}

static int netlink_info(struct cp_client *client, struct cp_module_info *out,
			struct cp_error *error)
{
	struct netlink_client *nl = to_netlink(client);
	struct info_reply state = { .info = out };
	struct nl_msg *msg = NULL;
	int ret = cp_nl_new_request(nl->family_id, CACHEPROBE_CMD_GET_INFO,
				    &msg, error);

	if (ret)
		return ret;
	ret = transact(nl, msg, on_info_reply, &state, "get-info", error);
	if (!ret && !state.seen)
		ret = cp_error_set(error, EPROTO, "the module acknowledged "
				   "GET_INFO without a reply");
	if (ret)
		cp_module_info_free(out);
	return ret;
}

/* --- FLUSH --- */

static int on_flush_reply(struct nl_msg *reply, void *arg,
			  struct cp_error *error)
{
	return cp_nl_read_flush_reply(reply, arg, error);
}

static int netlink_flush(struct cp_client *client,
			 enum cacheprobe_flush_method method,
			 const struct cp_cpuset *cpus,
			 struct cp_cpu_time **results, size_t *nr_results,
			 struct cp_error *error)
{
	struct netlink_client *nl = to_netlink(client);
	struct cp_flush_results acc = { 0 };
	struct nl_msg *msg = NULL;
	int ret = cp_nl_build_flush(nl->family_id, method, cpus, &msg, error);

	if (ret)
		return ret;
	ret = transact(nl, msg, on_flush_reply, &acc, "flush", error);
	if (ret) {
		free(acc.results);
		return ret;
	}
	*results = acc.results;
	*nr_results = acc.nr_results;
	return 0;
}

/* --- measurement commands --- */

struct run_reply {
	struct cp_run_result *result;
	bool seen;
};

static int on_run_reply(struct nl_msg *reply, void *arg,
			struct cp_error *error)
{
	struct run_reply *state = arg;

	if (state->seen)
		return cp_error_set(error, EPROTO,
				    "the module sent two measurement replies");
	state->seen = true;
	return cp_nl_read_run_reply(reply, state->result, error);
}

static int netlink_kcmd(struct cp_client *client, const struct cp_kcmd *kcmd,
			struct cp_run_result *result, struct cp_error *error)
{
	struct netlink_client *nl = to_netlink(client);
	struct run_reply state = { .result = result };
	struct nl_msg *msg = NULL;
	int ret = cp_nl_build_kcmd(nl->family_id, kcmd, &msg, error);

	if (ret)
		return ret;
	ret = transact(nl, msg, on_run_reply, &state, cp_kcmd_name(kcmd->cmd),
		       error);
	if (!ret && !state.seen)
		ret = cp_error_set(error, EPROTO, "the module acknowledged "
				   "%s without a reply",
				   cp_kcmd_name(kcmd->cmd));
	if (ret)
		cp_run_result_free(result);
	return ret;
}

/* --- connection --- */

static void netlink_close(struct cp_client *client)
{
	struct netlink_client *nl = to_netlink(client);

	cp_nl_socket_close(nl->sock);
	free(nl);
}

static const struct cp_client_ops netlink_ops = {
	.name = "netlink",
	.close = netlink_close,
	.info = netlink_info,
	.flush = netlink_flush,
	.kcmd = netlink_kcmd,
};

/* The family id, or a negative errno; ENOENT when it does not exist. */
static int resolve_family(struct nl_sock *sock, struct cp_error *error)
{
	int family_id = genl_ctrl_resolve(sock, CACHEPROBE_GENL_NAME);

	if (family_id == -NLE_OBJ_NOTFOUND)
		return cp_error_set(error, ENOENT,
				    "no generic netlink family \"%s\" "
				    "(is the cacheprobe module loaded?)",
				    CACHEPROBE_GENL_NAME);
	if (family_id < 0)
		return cp_error_set(error, cp_nl_errno(family_id),
				    "cannot resolve the generic netlink family "
				    "\"%s\": %s", CACHEPROBE_GENL_NAME,
				    nl_geterror(family_id));
	return family_id;
}

int cp_netlink_client_open(struct cp_client **out, struct cp_error *error)
{
	struct netlink_client *nl = calloc(1, sizeof(*nl));
	int ret;

	if (!nl)
		return cp_error_set(error, ENOMEM, "no memory for a client");
	ret = cp_nl_socket_open(&nl->sock, error);
	if (ret) {
		free(nl);
		return ret;
	}
	ret = resolve_family(nl->sock, error);
	if (ret < 0) {
		netlink_close(&nl->base);
		return ret;
	}
	nl->family_id = ret;
	nl->base.ops = &netlink_ops;
	*out = &nl->base;
	return 0;
}
