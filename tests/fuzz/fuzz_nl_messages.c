// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the readers of the module's replies in nl_messages.c,
 * cp_nl_read_info_reply (GET_INFO) and cp_nl_read_flush_reply (FLUSH).
 *
 * Input: one selector byte (even: GET_INFO, odd: FLUSH) and the message
 * after the netlink header (genl header and attributes), which arrives as
 * libnl hands it over: nlmsg_len equal to the bytes received.  An accepted
 * reply must give sane values; a refused one EPROTO and a message; nothing
 * may leak (LeakSanitizer) on either path.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/msg.h>

#include "client/nl_messages.h"

static struct nl_msg *to_msg(const uint8_t *data, size_t size)
{
	size_t len = NLMSG_HDRLEN + size;
	struct nlmsghdr *hdr = calloc(1, NLMSG_ALIGN(len));
	struct nl_msg *msg;

	if (!hdr)
		abort();
	hdr->nlmsg_len = (uint32_t)len;
	hdr->nlmsg_type = 0x20;
	memcpy((uint8_t *)hdr + NLMSG_HDRLEN, data, size);
	msg = nlmsg_convert(hdr);
	free(hdr);
	if (!msg)
		abort();
	return msg;
}

static void check_refusal(int ret, const struct cp_error *error)
{
	if (ret != -EPROTO && ret != -ENOMEM)
		abort();
	if (!memchr(error->msg, '\0', sizeof(error->msg)) || !error->msg[0])
		abort();
}

static void read_info(struct nl_msg *msg)
{
	struct cp_module_info info;
	struct cp_error error;
	int ret;

	memset(&info, 0, sizeof(info));
	memset(&error, 0, sizeof(error));
	ret = cp_nl_read_info_reply(msg, &info, &error);
	if (ret) {
		check_refusal(ret, &error);
		if (info.possible_cpus || info.online_cpus)
			abort();	/* freed on failure */
		return;
	}
	if (!memchr(info.module_version, '\0', sizeof(info.module_version)) ||
	    !info.possible_cpus || !info.online_cpus)
		abort();
	cp_module_info_free(&info);
}

static void read_flush(struct nl_msg *msg)
{
	struct cp_flush_results acc = { 0 };
	struct cp_error error;
	int ret;

	memset(&error, 0, sizeof(error));
	ret = cp_nl_read_flush_reply(msg, &acc, &error);
	if (ret)
		check_refusal(ret, &error);
	if (acc.nr_results > acc.capacity)
		abort();
	free(acc.results);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nl_msg *msg;

	if (size < 1 || size > 65536)
		return 0;
	msg = to_msg(data + 1, size - 1);
	if (data[0] % 2)
		read_flush(msg);
	else
		read_info(msg);
	nlmsg_free(msg);
	return 0;
}
