// SPDX-License-Identifier: GPL-2.0
#include "client/nl_extack.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "util/text_sink.h"

/* Where the TLVs start: after the echoed request, whole or capped. */
static size_t tlv_offset(const struct nlmsghdr *hdr, const struct nlmsgerr *e)
{
	if (hdr->nlmsg_flags & NLM_F_CAPPED)
		return NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*e));
	/* The kernel echoes the error code and the whole original message. */
	return NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(e->error) +
					  (size_t)e->msg.nlmsg_len);
}

static int read_u32(const struct nlattr *attr, uint32_t *value)
{
	if (attr->nla_len != NLA_HDRLEN + sizeof(*value))
		return -EPROTO;
	memcpy(value, (const char *)attr + NLA_HDRLEN, sizeof(*value));
	return 0;
}

static int read_string(const struct nlattr *attr, const char **value)
{
	const char *text = (const char *)attr + NLA_HDRLEN;
	size_t text_len = attr->nla_len - NLA_HDRLEN;

	if (text_len == 0 || text[text_len - 1] != '\0')
		return -EPROTO;
	*value = text;
	return 0;
}

static int read_tlv(const struct nlattr *attr, struct cp_nl_extack *out)
{
	switch (attr->nla_type & NLA_TYPE_MASK) {
	case NLMSGERR_ATTR_MSG:
		return read_string(attr, &out->msg);
	case NLMSGERR_ATTR_OFFS:
		out->has_offset = true;
		return read_u32(attr, &out->offset);
	case NLMSGERR_ATTR_MISS_TYPE:
		out->has_missing_type = true;
		return read_u32(attr, &out->missing_type);
	default:
		return 0;	/* newer kernels add more; none is needed */
	}
}

static int read_tlvs(const char *start, size_t len, struct cp_nl_extack *out)
{
	size_t pos = 0;

	while (len - pos >= NLA_HDRLEN) {
		const struct nlattr *attr = (const void *)(start + pos);
		int ret;

		if (attr->nla_len < NLA_HDRLEN || attr->nla_len > len - pos)
			return -EPROTO;
		ret = read_tlv(attr, out);
		if (ret)
			return ret;
		pos += NLA_ALIGN(attr->nla_len);
		if (pos > len)
			break;
	}
	return 0;
}

int cp_nl_extack_parse(const struct nlmsghdr *hdr, size_t len,
		       struct cp_nl_extack *out)
{
	const size_t min_len = NLMSG_HDRLEN + sizeof(struct nlmsgerr);
	const struct nlmsgerr *e;
	size_t tlv_start;

	memset(out, 0, sizeof(*out));
	if (len < min_len || hdr->nlmsg_type != NLMSG_ERROR ||
	    hdr->nlmsg_len < min_len || hdr->nlmsg_len > len)
		return -EPROTO;
	e = NLMSG_DATA(hdr);
	/* INT_MIN has no positive counterpart; no errno is that large. */
	if (e->error == INT_MIN)
		return -EPROTO;
	out->error = e->error < 0 ? -e->error : e->error;
	if (!(hdr->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	tlv_start = tlv_offset(hdr, e);
	if (tlv_start > hdr->nlmsg_len)
		return -EPROTO;
	return read_tlvs((const char *)hdr + tlv_start,
			 hdr->nlmsg_len - tlv_start, out);
}

static void append_attr_name(struct cp_text_sink *sink, const char *label,
			     uint32_t type, const struct cp_nl_attr_names *names)
{
	if (names && type < names->nr_names && names->names[type])
		cp_text_sink_printf(sink, " (%s %s)", label,
				    names->names[type]);
	else
		cp_text_sink_printf(sink, " (%s type %u)", label, type);
}

/* The type of the attribute at @offset in @request, if one is there. */
static bool attr_type_at(const struct nlmsghdr *request, uint32_t offset,
			 uint32_t *type)
{
	struct nlattr attr;

	/* Attributes start 4-byte aligned; any other offset names none. */
	if (!request || offset < NLMSG_HDRLEN || offset % NLA_ALIGNTO ||
	    (size_t)offset + NLA_HDRLEN > request->nlmsg_len)
		return false;
	memcpy(&attr, (const char *)request + offset, sizeof(attr));
	*type = attr.nla_type & NLA_TYPE_MASK;
	return true;
}

void cp_nl_extack_describe(const struct cp_nl_extack *extack,
			   const struct nlmsghdr *request,
			   const struct cp_nl_attr_names *names,
			   const char *what, struct cp_error *error)
{
	struct cp_error base;
	struct cp_text_sink sink;
	uint32_t type;

	if (extack->msg && extack->msg[0])
		cp_error_set(&base, extack->error, "%s", extack->msg);
	else if (what)
		cp_error_explain(&base, extack->error, what);
	else
		cp_error_set(&base, extack->error, "%s",
			     strerror(extack->error));
	error->err = extack->error;
	cp_text_sink_init(&sink, error->msg, sizeof(error->msg));
	cp_text_sink_printf(&sink, "%s", base.msg);
	if (extack->has_offset && attr_type_at(request, extack->offset, &type))
		append_attr_name(&sink, "attribute", type, names);
	if (extack->has_missing_type)
		append_attr_name(&sink, "missing attribute",
				 extack->missing_type, names);
}
