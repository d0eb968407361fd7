// SPDX-License-Identifier: GPL-2.0
#include "areas/align/align_choices.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/list_item.h"

/* The next item of *@cursor (util/list_item.h); *@bad when it is empty or
 * too long. */
static bool next_item(const char **cursor, char *item, size_t item_len,
		      bool *bad)
{
	if (!cp_list_next(cursor, item, item_len, bad))
		return false;
	*bad = *bad || !item[0];
	return true;
}


/* "N", "A-B" or "A-B:STEP" into @first, @last, @step. */
static bool parse_range(const char *item, uint64_t *first, uint64_t *last,
			uint64_t *step)
{
	const char *c = item;
	uint64_t big = 1ull << 32;

	*step = 1;
	if (!cp_parse_decimal(&c, big, first))
		return false;
	*last = *first;
	if (*c == '-') {
		c++;
		if (!cp_parse_decimal(&c, big, last))
			return false;
		if (*c == ':') {
			c++;
			if (!cp_parse_decimal(&c, big, step) || !*step)
				return false;
		}
	}
	return *c == '\0';
}

static int add_offset(struct cp_align_choices *choices, uint64_t offset,
		      char *why, size_t why_len)
{
	if (offset > CP_ALIGN_MAX_OFFSET)
		return cp_why_invalid(why, why_len,
			      "offset %" PRIu64 " is above %u (offsets stay inside one 4 KiB page)",
			      offset, CP_ALIGN_MAX_OFFSET);
	for (size_t i = 0; i < choices->nr_offsets; i++)
		if (choices->offsets[i] == offset)
			return cp_why_invalid(why, why_len,
				      "offset %" PRIu64 " is listed twice",
				      offset);
	choices->offsets[choices->nr_offsets++] = (uint16_t)offset;
	return 0;
}

int cp_align_parse_offsets(const char *text, struct cp_align_choices *choices,
			   char *why, size_t why_len)
{
	const char *cursor = text;
	uint64_t first, last, step;
	char item[48];
	bool bad;
	int ret;

	choices->nr_offsets = 0;
	if (!*text)
		return cp_why_invalid(why, why_len, "empty list of offsets");
	while (next_item(&cursor, item, sizeof(item), &bad)) {
		if (bad || !parse_range(item, &first, &last, &step))
			return cp_why_invalid(why, why_len,
				      "'%s' is not an offset or a range (N, A-B or A-B:STEP)",
				      item);
		if (last < first)
			return cp_why_invalid(why, why_len,
				      "range %s is reversed", item);
		for (uint64_t o = first; o <= last; o += step) {
			ret = add_offset(choices, o, why, why_len);
			if (ret) {
				choices->nr_offsets = 0;
				return ret;
			}
		}
	}
	return 0;
}

int cp_align_parse_widths(const char *text, struct cp_align_choices *choices,
			  char *why, size_t why_len)
{
	const char *cursor = text, *c;
	char item[16];
	uint64_t value;
	bool bad;

	choices->nr_widths = 0;
	if (!*text)
		return cp_why_invalid(why, why_len, "empty list of widths");
	while (next_item(&cursor, item, sizeof(item), &bad)) {
		c = item;
		if (bad || !cp_parse_decimal(&c, 64, &value) || *c ||
		    !cp_align_width_valid((unsigned int)value)) {
			choices->nr_widths = 0;
			return cp_why_invalid(why, why_len,
				      "'%s' is not an access width (1, 2, 4, 8, 16, 32 or 64 bytes)",
				      item);
		}
		for (size_t i = 0; i < choices->nr_widths; i++)
			if (choices->widths[i] == value) {
				choices->nr_widths = 0;
				return cp_why_invalid(why, why_len,
					      "width %s is listed twice", item);
			}
		choices->widths[choices->nr_widths++] = (unsigned int)value;
	}
	return 0;
}

int cp_align_parse_kinds(const char *text, struct cp_align_choices *choices,
			 char *why, size_t why_len)
{
	const char *cursor = text;
	char item[32];
	bool bad;
	int kind;

	choices->nr_kinds = 0;
	if (!*text)
		return cp_why_invalid(why, why_len, "empty list of kinds");
	while (next_item(&cursor, item, sizeof(item), &bad)) {
		for (kind = 0; kind < CP_ALIGN_NR_KINDS; kind++)
			if (!bad && strcmp(item, cp_align_kind_name(kind)) == 0)
				break;
		for (size_t i = 0; kind < CP_ALIGN_NR_KINDS &&
				   i < choices->nr_kinds; i++)
			if (choices->kinds[i] == (enum cp_align_kind)kind) {
				choices->nr_kinds = 0;
				return cp_why_invalid(why, why_len,
					      "kind %s is listed twice", item);
			}
		if (kind == CP_ALIGN_NR_KINDS) {
			choices->nr_kinds = 0;
			return cp_why_invalid(why, why_len,
				      "unknown kind '%s' (load-latency, load-throughput, store-throughput)",
				      item);
		}
		choices->kinds[choices->nr_kinds++] = kind;
	}
	return 0;
}

/* "l1", "l2", or bytes with an optional K, M or G (binary). */
static bool parse_buffer(const char *item, uint64_t *out)
{
	const char *c = item;
	uint64_t value;
	unsigned int shift = 0;

	if (strcmp(item, "l1") == 0 || strcmp(item, "l2") == 0) {
		*out = item[1] == '1' ? CP_ALIGN_BUFFER_L1 : CP_ALIGN_BUFFER_L2;
		return true;
	}
	if (!cp_parse_decimal(&c, CP_ALIGN_MAX_BUFFER, &value))
		return false;
	if (*c == 'K' || *c == 'k')
		shift = 10;
	else if (*c == 'M' || *c == 'm')
		shift = 20;
	else if (*c == 'G' || *c == 'g')
		shift = 30;
	if (shift)
		c++;
	if (*c || value > CP_ALIGN_MAX_BUFFER >> shift)
		return false;
	*out = value << shift;
	return true;
}

int cp_align_parse_buffers(const char *text, struct cp_align_choices *choices,
			   char *why, size_t why_len)
{
	const char *cursor = text;
	char item[32];
	uint64_t value = 0;
	bool bad;

	choices->nr_buffers = 0;
	if (!*text)
		return cp_why_invalid(why, why_len, "empty list of buffers");
	while (next_item(&cursor, item, sizeof(item), &bad)) {
		int ret = 0;

		if (bad || !parse_buffer(item, &value))
			ret = cp_why_invalid(why, why_len,
				     "'%s' is not l1, l2 or a size up to 1G", item);
		else if (value > CP_ALIGN_BUFFER_L2 &&
			 value < CP_ALIGN_MIN_BUFFER)
			ret = cp_why_invalid(why, why_len,
				     "buffer %s is below %u bytes", item,
				     CP_ALIGN_MIN_BUFFER);
		else if (choices->nr_buffers == CP_ALIGN_MAX_BUFFERS)
			ret = cp_why_invalid(why, why_len, "more than %d buffers",
				     CP_ALIGN_MAX_BUFFERS);
		for (size_t i = 0; !ret && i < choices->nr_buffers; i++)
			if (choices->buffers[i] == value)
				ret = cp_why_invalid(why, why_len,
					     "buffer %s is listed twice", item);
		if (ret) {
			choices->nr_buffers = 0;
			return ret;
		}
		choices->buffers[choices->nr_buffers++] = value;
	}
	return 0;
}
