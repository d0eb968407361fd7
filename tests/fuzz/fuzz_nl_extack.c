// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: cp_nl_extack_parse and cp_nl_extack_describe, which read
 * the kernel's NLMSG_ERROR messages (capped or not, with or without
 * extended-ack TLVs) and turn them into the user's error message.
 *
 * The input is the received bytes as they are: nlmsg_len, flags, the
 * echoed request's length and the TLVs may all lie.  What is accepted must
 * yield a terminated message string inside the buffer; the description
 * must be a terminated string whatever the offset or attribute type says.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/cacheprobe.h>
#include <linux/genetlink.h>

#include "client/nl_extack.h"
#include "client/nl_messages.h"

/* A FLUSH request as the library sends it, for offsets to point into. */
static struct nlmsghdr *request(void)
{
	static union {
		struct nlmsghdr hdr;
		uint8_t bytes[64];
	} req;
	uint8_t *p = req.bytes;
	struct nlattr *a;

	if (req.hdr.nlmsg_len)
		return &req.hdr;
	req.hdr.nlmsg_type = 0x20;
	req.hdr.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	p[NLMSG_HDRLEN] = CACHEPROBE_CMD_FLUSH;
	p[NLMSG_HDRLEN + 1] = CACHEPROBE_GENL_VERSION;
	a = (struct nlattr *)(p + NLMSG_HDRLEN + GENL_HDRLEN);
	a->nla_type = CACHEPROBE_ATTR_FLUSH_METHOD;
	a->nla_len = NLA_HDRLEN + 4;
	a = (struct nlattr *)((uint8_t *)a + 8);
	a->nla_type = CACHEPROBE_ATTR_CPUS;
	a->nla_len = NLA_HDRLEN + 8;
	req.hdr.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + 8 + 12;
	return &req.hdr;
}

static void check_text(const char *text, size_t cap)
{
	if (!memchr(text, '\0', cap))
		abort();
}

static void describe_all_ways(const struct cp_nl_extack *ext)
{
	struct cp_error error;

	cp_nl_extack_describe(ext, request(), &cp_nl_attr_names, "flush",
			      &error);
	check_text(error.msg, sizeof(error.msg));
	if (error.err != ext->error)
		abort();
	cp_nl_extack_describe(ext, NULL, NULL, NULL, &error);
	check_text(error.msg, sizeof(error.msg));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Received messages are 4-byte aligned; the copy ends exactly at
	 * @size so reads past it are caught. */
	struct nlmsghdr *hdr = malloc(size ? size : 1);
	const char *end = (const char *)hdr + size;
	struct cp_nl_extack ext;
	int ret;

	if (!hdr)
		abort();
	memcpy(hdr, data, size);
	ret = cp_nl_extack_parse(hdr, size, &ext);
	if (ret != 0 && ret != -EPROTO)
		abort();
	if (ret == 0) {
		if (ext.error < 0)
			abort();
		/* The message string lies inside what was received. */
		if (ext.msg && (ext.msg < (const char *)hdr || ext.msg >= end ||
				!memchr(ext.msg, '\0', (size_t)(end - ext.msg))))
			abort();
		describe_all_ways(&ext);
	}
	free(hdr);
	return 0;
}
