// SPDX-License-Identifier: GPL-2.0
#include "util/parse_number.h"

#include <inttypes.h>
#include <string.h>

#include "util/error.h"
#include "util/list_item.h"

int cp_parse_u64(const char *text, uint64_t min, uint64_t max,
		 uint64_t *out, char *why, size_t why_len)
{
	const char *end = text;
	uint64_t value;

	if (*text == '\0')
		return cp_why_invalid(why, why_len, "empty value (expected a number)");
	if (text[strspn(text, "0123456789")] != '\0')
		return cp_why_invalid(why, why_len,
				      "'%s' is not a number (digits only)", text);
	/* Digits only: a refusal can only mean above @max. */
	if (!cp_parse_decimal(&end, max, &value) || value < min)
		return cp_why_invalid(why, why_len,
			       "%s is out of range (%" PRIu64 " to %" PRIu64 ")",
			       text, min, max);
	*out = value;
	return 0;
}

int cp_parse_uint(const char *text, unsigned int min, unsigned int max,
		  unsigned int *out, char *why, size_t why_len)
{
	uint64_t value;
	int ret = cp_parse_u64(text, min, max, &value, why, why_len);

	if (!ret)
		*out = (unsigned int)value;
	return ret;
}
