// SPDX-License-Identifier: GPL-2.0
#include "rawnl.h"

#include <errno.h>
#include <linux/cacheprobe.h>
#include <linux/genetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NLMSGERR_ATTR_MISS_TYPE
#define NLMSGERR_ATTR_MISS_TYPE 5
#endif

int rawnl_socket(void)
{
	int one = 1;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd >= 0)
		setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return fd;
}

void rawnl_start(struct rawnl_req *req, uint16_t type, uint8_t cmd,
		 uint8_t version)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)req->buf;
	struct genlmsghdr *genl = NLMSG_DATA(nlh);

	memset(req, 0, sizeof(*req));
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	genl->cmd = cmd;
	genl->version = version;
	req->len = NLMSG_LENGTH(GENL_HDRLEN);
}

void rawnl_put(struct rawnl_req *req, uint16_t type, const void *data,
	       size_t len)
{
	struct nlattr *attr = (struct nlattr *)(req->buf +
						NLMSG_ALIGN(req->len));

	attr->nla_type = type;
	attr->nla_len = NLA_HDRLEN + len;
	memcpy((char *)attr + NLA_HDRLEN, data, len);
	req->len = NLMSG_ALIGN(req->len) + NLA_ALIGN(attr->nla_len);
}

void rawnl_put_u32(struct rawnl_req *req, uint16_t type, uint32_t value)
{
	rawnl_put(req, type, &value, sizeof(value));
}

void rawnl_put_u64(struct rawnl_req *req, uint16_t type, uint64_t value)
{
	rawnl_put(req, type, &value, sizeof(value));
}

long rawnl_offset_of(const struct rawnl_req *req, uint16_t type)
{
	size_t start = NLMSG_LENGTH(GENL_HDRLEN);
	const struct nlattr *attr = rawnl_find(req->buf + start,
					       req->len - start, type);

	return attr ? (long)((const char *)attr - req->buf) : -1;
}

static uint32_t attr_u32(const struct nlattr *attr)
{
	uint32_t value = 0;

	if (attr->nla_len >= NLA_HDRLEN + sizeof(value))
		memcpy(&value, (const char *)attr + NLA_HDRLEN, sizeof(value));
	return value;
}

/* The error and the extack (message, blamed and missing attribute). */
static void parse_ack(struct rawnl_answer *ans, struct nlmsghdr *nlh)
{
	struct nlmsgerr *err = NLMSG_DATA(nlh);
	size_t off = sizeof(*err);
	struct nlattr *attr;

	ans->error = -err->error;
	ans->bad_offset = -1;
	ans->missing_type = -1;
	/* Uncapped, the ack quotes the whole request before its TLVs. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off = NLMSG_ALIGN(off + err->msg.nlmsg_len -
				  sizeof(struct nlmsghdr));
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	while (NLMSG_HDRLEN + off + NLA_HDRLEN <= nlh->nlmsg_len) {
		attr = (struct nlattr *)((char *)err + off);
		if (attr->nla_len < NLA_HDRLEN)
			break;
		if (attr->nla_type == NLMSGERR_ATTR_MSG)
			snprintf(ans->msg, sizeof(ans->msg), "%.*s",
				 (int)(attr->nla_len - NLA_HDRLEN),
				 (char *)attr + NLA_HDRLEN);
		else if (attr->nla_type == NLMSGERR_ATTR_OFFS)
			ans->bad_offset = attr_u32(attr);
		else if (attr->nla_type == NLMSGERR_ATTR_MISS_TYPE)
			ans->missing_type = attr_u32(attr);
		off += NLA_ALIGN(attr->nla_len);
	}
}

static void keep_reply(struct rawnl_answer *ans, struct nlmsghdr *nlh)
{
	ans->reply_len = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	if (ans->reply_len > sizeof(ans->reply))
		ans->reply_len = sizeof(ans->reply);
	memcpy(ans->reply, (char *)NLMSG_DATA(nlh) + GENL_HDRLEN,
	       ans->reply_len);
}

void rawnl_talk(int fd, struct rawnl_req *req, struct rawnl_answer *ans)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)req->buf;
	static char rx[1 << 17];
	ssize_t n;

	memset(ans, 0, sizeof(*ans));
	ans->bad_offset = -1;
	ans->missing_type = -1;
	nlh->nlmsg_len = req->len;
	if (send(fd, req->buf, req->len, 0) < 0) {
		ans->error = errno;
		return;
	}
	for (;;) {
		n = recv(fd, rx, sizeof(rx), 0);
		if (n < 0) {
			ans->error = errno;
			return;
		}
		for (nlh = (struct nlmsghdr *)rx; NLMSG_OK(nlh, (size_t)n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				parse_ack(ans, nlh);
				return;
			}
			keep_reply(ans, nlh);
		}
	}
}

const struct nlattr *rawnl_find(const char *attrs, size_t len, uint16_t type)
{
	const struct nlattr *attr;
	size_t off = 0;

	while (off + NLA_HDRLEN <= len) {
		attr = (const struct nlattr *)(attrs + off);
		if (attr->nla_len < NLA_HDRLEN || off + attr->nla_len > len)
			return NULL;
		if ((attr->nla_type & NLA_TYPE_MASK) == type)
			return attr;
		off += NLA_ALIGN(attr->nla_len);
	}
	return NULL;
}

uint32_t rawnl_u32(const struct nlattr *attr)
{
	uint32_t value;

	memcpy(&value, (const char *)attr + NLA_HDRLEN, sizeof(value));
	return value;
}

int rawnl_find_u32(const char *attrs, size_t len, uint16_t type,
		   uint32_t *value)
{
	const struct nlattr *a = rawnl_find(attrs, len, type);

	if (!a || a->nla_len != NLA_HDRLEN + sizeof(*value))
		return -1;
	*value = rawnl_u32(a);
	return 0;
}

uint16_t rawnl_family_id(int fd)
{
	static struct rawnl_answer ans;
	const struct nlattr *attr;
	struct rawnl_req req;

	rawnl_start(&req, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	rawnl_put(&req, CTRL_ATTR_FAMILY_NAME, CACHEPROBE_GENL_NAME,
		  sizeof(CACHEPROBE_GENL_NAME));
	rawnl_talk(fd, &req, &ans);
	attr = rawnl_find(ans.reply, ans.reply_len, CTRL_ATTR_FAMILY_ID);
	return ans.error || !attr ? 0 : (uint16_t)rawnl_u32(attr);
}
