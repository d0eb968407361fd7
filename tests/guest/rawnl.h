/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink by hand, for the guest test programs (rawtest, faulttest)
 * that must send what the client library never would.  No libnl: the
 * guests carry as little as possible, and these messages may be malformed
 * on purpose.
 */
#ifndef CACHEPROBE_TESTS_RAWNL_H
#define CACHEPROBE_TESTS_RAWNL_H

#include <linux/netlink.h>
#include <stddef.h>
#include <stdint.h>

struct rawnl_req {
	char buf[8192];
	size_t len;
};

struct rawnl_answer {
	int error;			/* positive errno, 0 for success */
	char msg[512];			/* extack (or ioctl) message */
	/* The attribute the extack blames: its byte offset from the start of
	 * the request's nlmsghdr, or -1 when the ack names none. */
	long bad_offset;
	/* The type of the attribute the ack says is missing, or -1. */
	long missing_type;
	char reply[65536 + 4096];	/* the reply's genl payload */
	size_t reply_len;
};

/* A NETLINK_GENERIC socket asking for extended acks, or -1 (errno set). */
int rawnl_socket(void);

/* Starts a request of family @type, command @cmd, header @version. */
void rawnl_start(struct rawnl_req *req, uint16_t type, uint8_t cmd,
		 uint8_t version);

/* Appends attribute @type with @len bytes of @data, as they are. */
void rawnl_put(struct rawnl_req *req, uint16_t type, const void *data,
	       size_t len);
void rawnl_put_u32(struct rawnl_req *req, uint16_t type, uint32_t value);
void rawnl_put_u64(struct rawnl_req *req, uint16_t type, uint64_t value);

/* Sends @req and collects the last reply (if any) and the ack. */
void rawnl_talk(int fd, struct rawnl_req *req, struct rawnl_answer *ans);

/* The byte offset of the first attribute of @type in @req from the start
 * of its nlmsghdr (as an extack's NLMSGERR_ATTR_OFFS counts), or -1. */
long rawnl_offset_of(const struct rawnl_req *req, uint16_t type);

/* Attribute @type in the flat stream @attrs of @len bytes, or NULL. */
const struct nlattr *rawnl_find(const char *attrs, size_t len, uint16_t type);

uint32_t rawnl_u32(const struct nlattr *attr);
/* The u32 attribute @type of @attrs into *@value: 0, or -1 when it is
 * missing or not four bytes long. */
int rawnl_find_u32(const char *attrs, size_t len, uint16_t type,
		   uint32_t *value);

/* The id of the cacheprobe family, or 0 when it is not registered. */
uint16_t rawnl_family_id(int fd);

#endif
