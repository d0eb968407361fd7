// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink request path through libnl against a family every kernel
 * has, the generic netlink controller ("nlctrl"): replies, acks, and the
 * kernel's own errno and extended-ack message reaching the caller.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "client/nl_transact.h"

static const char *const ctrl_attr_names[CTRL_ATTR_MAX + 1] = {
	[CTRL_ATTR_FAMILY_ID] = "FAMILY_ID",
	[CTRL_ATTR_FAMILY_NAME] = "FAMILY_NAME",
};

/* Family names are at most 15 characters (GENL_NAMSIZ - 1). */
#define NO_SUCH_FAMILY "cp-no-such"

static int open_socket(void **state)
{
	struct nl_sock *sock = NULL;
	struct cp_error error;

	if (cp_nl_socket_open(&sock, &error)) {
		print_message("no generic netlink here: %s\n", error.msg);
		return -1;
	}
	*state = sock;
	return 0;
}

static int close_socket(void **state)
{
	cp_nl_socket_close(*state);
	return 0;
}

static struct nl_msg *getfamily_request(void)
{
	struct nl_msg *msg = nlmsg_alloc();

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ,
				    GENL_ID_CTRL, 0, 0, CTRL_CMD_GETFAMILY, 1));
	return msg;
}

struct family_reply {
	int replies;
	uint16_t family_id;
};

static int on_family(struct nl_msg *reply, void *arg, struct cp_error *error)
{
	struct family_reply *seen = arg;
	struct nlattr *attrs[CTRL_ATTR_MAX + 1];

	(void)error;
	seen->replies++;
	if (genlmsg_parse(nlmsg_hdr(reply), 0, attrs, CTRL_ATTR_MAX, NULL) < 0 ||
	    !attrs[CTRL_ATTR_FAMILY_ID])
		return cp_error_set(error, EPROTO, "no family id");
	seen->family_id = nla_get_u16(attrs[CTRL_ATTR_FAMILY_ID]);
	return 0;
}

static int transact(struct nl_sock *sock, struct nl_msg *msg,
		    struct family_reply *seen, struct cp_error *error)
{
	struct cp_nl_request request = {
		.msg = msg, .on_reply = on_family, .arg = seen,
		.attr_names = { ctrl_attr_names, CTRL_ATTR_MAX + 1 },
		.what = "getfamily",
	};
	int ret = cp_nl_transact(sock, &request, error);

	nlmsg_free(msg);
	return ret;
}

static void test_reply_then_ack(void **state)
{
	struct nl_msg *msg = getfamily_request();
	struct family_reply seen = { 0 };
	struct cp_error error;

	assert_int_equal(nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, "nlctrl"), 0);
	assert_int_equal(transact(*state, msg, &seen, &error), 0);
	assert_int_equal(error.err, 0);
	assert_int_equal(seen.replies, 1);
	assert_int_equal(seen.family_id, GENL_ID_CTRL);
}

/* The kernel's policy rejects a one-byte FAMILY_ID (a u16) with an
 * extended-ack message and the offset of the attribute; the errno is
 * ERANGE on current kernels (the attribute is shorter than its type),
 * EINVAL on some older ones. */
static void test_kernel_message_and_attribute_reach_caller(void **state)
{
	struct nl_msg *msg = getfamily_request();
	struct family_reply seen = { 0 };
	struct cp_error error;
	uint8_t too_short = 1;
	int ret;

	assert_int_equal(nla_put(msg, CTRL_ATTR_FAMILY_ID, 1, &too_short), 0);
	ret = transact(*state, msg, &seen, &error);
	assert_true(ret == -ERANGE || ret == -EINVAL);
	assert_int_equal(error.err, -ret);
	assert_int_equal(seen.replies, 0);
	/* Not our fallback: the text came from the kernel. */
	assert_null(strstr(error.msg, "getfamily failed"));
	assert_non_null(strstr(error.msg, " (attribute FAMILY_ID)"));
	assert_true(strlen(error.msg) > strlen(" (attribute FAMILY_ID)"));
}

static void test_errno_without_message(void **state)
{
	struct nl_msg *msg = getfamily_request();
	struct family_reply seen = { 0 };
	struct cp_error error;

	assert_int_equal(nla_put_string(msg, CTRL_ATTR_FAMILY_NAME,
					NO_SUCH_FAMILY), 0);
	assert_int_equal(transact(*state, msg, &seen, &error), -ENOENT);
	assert_int_equal(error.err, ENOENT);
	assert_true(error.msg[0] != '\0');
}

/* After an error nothing is left queued: the next request gets its own
 * answer, not the previous one's. */
static void test_socket_reusable_after_error(void **state)
{
	struct nl_msg *bad = getfamily_request();
	struct nl_msg *good = getfamily_request();
	struct family_reply seen = { 0 };
	struct cp_error error;

	assert_int_equal(nla_put_string(bad, CTRL_ATTR_FAMILY_NAME,
					NO_SUCH_FAMILY), 0);
	assert_int_equal(transact(*state, bad, &seen, &error), -ENOENT);
	assert_int_equal(nla_put_string(good, CTRL_ATTR_FAMILY_NAME, "nlctrl"),
			 0);
	assert_int_equal(transact(*state, good, &seen, &error), 0);
	assert_int_equal(seen.replies, 1);
}

static int fail_reply(struct nl_msg *reply, void *arg, struct cp_error *error)
{
	(void)reply;
	(void)arg;
	return cp_error_set(error, EPROTO, "reply rejected by the test");
}

/* A reply the caller refuses fails the request, and the ack behind it is
 * still consumed. */
static void test_reply_failure_is_reported(void **state)
{
	struct nl_msg *msg = getfamily_request();
	struct nl_msg *next = getfamily_request();
	struct family_reply seen = { 0 };
	struct cp_nl_request request = { .msg = msg, .on_reply = fail_reply };
	struct cp_error error;

	assert_int_equal(nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, "nlctrl"), 0);
	assert_int_equal(cp_nl_transact(*state, &request, &error), -EPROTO);
	assert_string_equal(error.msg, "reply rejected by the test");
	nlmsg_free(msg);
	assert_int_equal(nla_put_string(next, CTRL_ATTR_FAMILY_NAME, "nlctrl"),
			 0);
	assert_int_equal(transact(*state, next, &seen, &error), 0);
	assert_int_equal(seen.replies, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reply_then_ack),
		cmocka_unit_test(test_kernel_message_and_attribute_reach_caller),
		cmocka_unit_test(test_errno_without_message),
		cmocka_unit_test(test_socket_reusable_after_error),
		cmocka_unit_test(test_reply_failure_is_reported),
	};

	return cmocka_run_group_tests_name("nl_transact", tests, open_socket,
					   close_socket);
}
