// SPDX-License-Identifier: GPL-2.0
/* Extended-ack parsing on NLMSG_ERROR messages built by hand, laid out the
 * way the kernel's netlink_ack() lays them out. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <linux/cacheprobe.h>
#include <linux/genetlink.h>

#include "client/nl_extack.h"

/* A message under construction, 4-byte aligned like the kernel's. */
struct buffer {
	union {
		struct nlmsghdr hdr;
		unsigned char bytes[1024];
	};
	size_t len;
};

static void *put(struct buffer *buf, const void *data, size_t len)
{
	void *at = buf->bytes + buf->len;

	assert_true(buf->len + NLMSG_ALIGN(len) <= sizeof(buf->bytes));
	memset(at, 0, NLMSG_ALIGN(len));
	if (data)
		memcpy(at, data, len);
	buf->len += NLMSG_ALIGN(len);
	return at;
}

static void put_attr(struct buffer *buf, uint16_t type, const void *data,
		     size_t len)
{
	struct nlattr attr = { .nla_len = (uint16_t)(NLA_HDRLEN + len),
			       .nla_type = type };

	put(buf, &attr, sizeof(attr));
	/* The kernel pads, but nla_len counts only the payload. */
	put(buf, data, len);
}

static void finish(struct buffer *buf)
{
	buf->hdr.nlmsg_len = (uint32_t)buf->len;
}

/* A FLUSH request: METHOD, then a CPUS mask of @cpus_len bytes. */
static void build_request(struct buffer *req, size_t cpus_len)
{
	struct genlmsghdr genl = { .cmd = CACHEPROBE_CMD_FLUSH, .version = 1 };
	uint32_t method = CACHEPROBE_FLUSH_WBINVD;
	unsigned char cpus[16] = { 0x80 };

	memset(req, 0, sizeof(*req));
	put(req, NULL, sizeof(struct nlmsghdr));
	req->hdr.nlmsg_type = 0x20;
	req->hdr.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req->hdr.nlmsg_seq = 7;
	put(req, &genl, sizeof(genl));
	put_attr(req, CACHEPROBE_ATTR_FLUSH_METHOD, &method, sizeof(method));
	put_attr(req, CACHEPROBE_ATTR_CPUS, cpus, cpus_len);
	finish(req);
}

/* Offset of the CPUS attribute in build_request()'s message. */
#define CPUS_ATTR_OFFSET (NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + 4)

struct tlvs {
	const char *msg;		/* NULL: none */
	int offset;			/* < 0: none */
	int missing_type;		/* < 0: none */
};

/* The kernel's reply to @req: error code, the request (whole unless
 * @capped), then the TLVs. */
static void build_error(struct buffer *out, int error,
			const struct buffer *req, bool capped,
			const struct tlvs *tlvs)
{
	struct nlmsghdr hdr = { .nlmsg_type = NLMSG_ERROR };
	size_t echoed = capped ? sizeof(struct nlmsghdr) : req->hdr.nlmsg_len;
	unsigned char *payload;

	memset(out, 0, sizeof(*out));
	put(out, &hdr, sizeof(hdr));
	payload = put(out, NULL, sizeof(int) + echoed);
	memcpy(payload, &error, sizeof(int));
	memcpy(payload + sizeof(int), req->bytes, echoed);
	if (tlvs) {
		out->hdr.nlmsg_flags |= NLM_F_ACK_TLVS;
		if (tlvs->msg)
			put_attr(out, NLMSGERR_ATTR_MSG, tlvs->msg,
				 strlen(tlvs->msg) + 1);
		if (tlvs->offset >= 0) {
			uint32_t offset = (uint32_t)tlvs->offset;

			put_attr(out, NLMSGERR_ATTR_OFFS, &offset, 4);
		}
		if (tlvs->missing_type >= 0) {
			uint32_t type = (uint32_t)tlvs->missing_type;

			put_attr(out, NLMSGERR_ATTR_MISS_TYPE, &type, 4);
		}
	}
	if (capped)
		out->hdr.nlmsg_flags |= NLM_F_CAPPED;
	finish(out);
}

static const char *const attr_names[CACHEPROBE_ATTR_MAX + 1] = {
	[CACHEPROBE_ATTR_FLUSH_METHOD] = "FLUSH_METHOD",
	[CACHEPROBE_ATTR_CPUS] = "CPUS",
};
static const struct cp_nl_attr_names names = {
	attr_names, CACHEPROBE_ATTR_MAX + 1,
};

static void test_capped_with_message_and_offset(void **state)
{
	struct tlvs tlvs = { "CPU 7 is not online", CPUS_ATTR_OFFSET, -1 };
	struct buffer req, msg;
	struct cp_nl_extack extack;

	(void)state;
	build_request(&req, 8);
	build_error(&msg, -EINVAL, &req, true, &tlvs);
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, msg.len, &extack), 0);
	assert_int_equal(extack.error, EINVAL);
	assert_string_equal(extack.msg, "CPU 7 is not online");
	assert_true(extack.has_offset);
	assert_int_equal(extack.offset, CPUS_ATTR_OFFSET);
	assert_false(extack.has_missing_type);
}

/* Without NETLINK_CAP_ACK the whole request is echoed; a request whose
 * length is not a multiple of 4 checks the alignment of the TLVs. */
static void test_uncapped_unaligned_request(void **state)
{
	struct tlvs tlvs = { "bad mask length", CPUS_ATTR_OFFSET, -1 };
	struct buffer req, msg;
	struct cp_nl_extack extack;

	(void)state;
	build_request(&req, 5);
	req.hdr.nlmsg_len -= 3;	/* exact length: 5 payload bytes, no pad */
	assert_true(req.hdr.nlmsg_len % 4 != 0);
	build_error(&msg, -EINVAL, &req, false, &tlvs);
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, msg.len, &extack), 0);
	assert_string_equal(extack.msg, "bad mask length");
	assert_int_equal(extack.offset, CPUS_ATTR_OFFSET);
}

static void test_missing_attribute(void **state)
{
	struct tlvs tlvs = { NULL, -1, CACHEPROBE_ATTR_FLUSH_METHOD };
	struct buffer req, msg;
	struct cp_nl_extack extack;
	struct cp_error error;

	(void)state;
	build_request(&req, 8);
	build_error(&msg, -EINVAL, &req, true, &tlvs);
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, msg.len, &extack), 0);
	assert_null(extack.msg);
	assert_true(extack.has_missing_type);
	cp_nl_extack_describe(&extack, &req.hdr, &names, "flush", &error);
	assert_int_equal(error.err, EINVAL);
	assert_string_equal(error.msg, "flush failed: Invalid argument "
			    "(missing attribute FLUSH_METHOD)");
}

static void test_plain_error_without_tlvs(void **state)
{
	struct buffer req, msg;
	struct cp_nl_extack extack;

	(void)state;
	build_request(&req, 8);
	build_error(&msg, -EPERM, &req, false, NULL);
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, msg.len, &extack), 0);
	assert_int_equal(extack.error, EPERM);
	assert_null(extack.msg);
	assert_false(extack.has_offset);
}

static void test_ack_is_error_zero(void **state)
{
	struct buffer req, msg;
	struct cp_nl_extack extack;

	(void)state;
	build_request(&req, 8);
	build_error(&msg, 0, &req, true, NULL);
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, msg.len, &extack), 0);
	assert_int_equal(extack.error, 0);
}

static void test_malformed_messages(void **state)
{
	struct tlvs tlvs = { "message", -1, -1 };
	struct buffer req, msg;
	struct cp_nl_extack extack;

	(void)state;
	build_request(&req, 8);
	build_error(&msg, -EINVAL, &req, true, &tlvs);
	/* Shorter than the header claims. */
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, msg.len - 4, &extack),
			 -EPROTO);
	/* Too short to hold struct nlmsgerr. */
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, NLMSG_HDRLEN + 4,
					    &extack), -EPROTO);
	/* Not an error message at all. */
	msg.hdr.nlmsg_type = NLMSG_DONE;
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, msg.len, &extack),
			 -EPROTO);
}

static void test_tlv_overrunning_the_message(void **state)
{
	struct tlvs tlvs = { "message", -1, -1 };
	struct buffer req, msg;
	struct cp_nl_extack extack;
	struct nlattr *attr;

	(void)state;
	build_request(&req, 8);
	build_error(&msg, -EINVAL, &req, true, &tlvs);
	attr = (struct nlattr *)(msg.bytes + NLMSG_HDRLEN +
				 sizeof(struct nlmsgerr));
	attr->nla_len = 200;
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, msg.len, &extack),
			 -EPROTO);
}

static void test_unterminated_message(void **state)
{
	struct tlvs tlvs = { "abc", -1, -1 };
	struct buffer req, msg;
	struct cp_nl_extack extack;
	unsigned char *text;

	(void)state;
	build_request(&req, 8);
	build_error(&msg, -EINVAL, &req, true, &tlvs);
	text = msg.bytes + NLMSG_HDRLEN + sizeof(struct nlmsgerr) + NLA_HDRLEN;
	text[3] = 'd';	/* overwrite the NUL */
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, msg.len, &extack),
			 -EPROTO);
}

static void test_describe_names_the_attribute(void **state)
{
	struct cp_nl_extack extack = {
		.error = EINVAL, .msg = "CPU 7 is not online",
		.has_offset = true, .offset = CPUS_ATTR_OFFSET,
	};
	struct buffer req;
	struct cp_error error;

	(void)state;
	build_request(&req, 8);
	cp_nl_extack_describe(&extack, &req.hdr, &names, "flush", &error);
	assert_int_equal(error.err, EINVAL);
	assert_string_equal(error.msg, "CPU 7 is not online (attribute CPUS)");
	/* An attribute without a name is given by number. */
	cp_nl_extack_describe(&extack, &req.hdr, NULL, "flush", &error);
	assert_string_equal(error.msg,
			    "CPU 7 is not online (attribute type 14)");
	/* An offset outside the request names nothing. */
	extack.offset = 4000;
	cp_nl_extack_describe(&extack, &req.hdr, &names, "flush", &error);
	assert_string_equal(error.msg, "CPU 7 is not online");
}

static void test_describe_without_kernel_message(void **state)
{
	struct cp_nl_extack extack = { .error = EPERM };
	struct cp_error error;

	(void)state;
	cp_nl_extack_describe(&extack, NULL, &names, "flush", &error);
	assert_int_equal(error.err, EPERM);
	assert_string_equal(error.msg, "flush needs CAP_SYS_ADMIN");
	cp_nl_extack_describe(&extack, NULL, &names, NULL, &error);
	assert_string_equal(error.msg, "Operation not permitted");
	extack.error = EOPNOTSUPP;
	cp_nl_extack_describe(&extack, NULL, &names, "flush", &error);
	assert_string_equal(error.msg, "flush failed: Operation not supported");
}

/* A parse, then a description: what the user finally reads. */
static void test_end_to_end_message(void **state)
{
	struct tlvs tlvs = { "CPU 9 is not below nr_cpu_ids 4",
			     CPUS_ATTR_OFFSET, -1 };
	struct buffer req, msg;
	struct cp_nl_extack extack;
	struct cp_error error;

	(void)state;
	build_request(&req, 16);
	build_error(&msg, -EINVAL, &req, false, &tlvs);
	assert_int_equal(cp_nl_extack_parse(&msg.hdr, msg.len, &extack), 0);
	cp_nl_extack_describe(&extack, &req.hdr, &names, "flush", &error);
	assert_int_equal(error.err, EINVAL);
	assert_string_equal(error.msg, "CPU 9 is not below nr_cpu_ids 4 "
			    "(attribute CPUS)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capped_with_message_and_offset),
		cmocka_unit_test(test_uncapped_unaligned_request),
		cmocka_unit_test(test_missing_attribute),
		cmocka_unit_test(test_plain_error_without_tlvs),
		cmocka_unit_test(test_ack_is_error_zero),
		cmocka_unit_test(test_malformed_messages),
		cmocka_unit_test(test_tlv_overrunning_the_message),
		cmocka_unit_test(test_unterminated_message),
		cmocka_unit_test(test_describe_names_the_attribute),
		cmocka_unit_test(test_describe_without_kernel_message),
		cmocka_unit_test(test_end_to_end_message),
	};

	return cmocka_run_group_tests_name("nl_extack", tests, NULL, NULL);
}
