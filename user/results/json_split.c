// SPDX-License-Identifier: GPL-2.0
#include "results/json_split.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* What ends a number, true, false or null. */
static bool ends_scalar(char c)
{
	return c == ',' || c == ']' || c == '}' || is_space(c);
}

static size_t skip_space(const char *text, size_t pos, size_t len)
{
	while (pos < len && is_space(text[pos]))
		pos++;
	return pos;
}

/* Past the string that starts at @pos (a '"'), or 0 when it does not end. */
static size_t skip_string(const char *text, size_t pos, size_t len)
{
	for (pos++; pos < len; pos++) {
		const char *stop = memchr(text + pos, '"', len - pos);
		const char *escape = memchr(text + pos, '\\',
					    stop ? (size_t)(stop - text) - pos
						 : len - pos);

		if (!stop)
			return 0;
		if (!escape)
			return (size_t)(stop - text) + 1;
		pos = (size_t)(escape - text) + 1;
	}
	return 0;
}

/* Past the value that starts at @pos, or 0 when the scan cannot tell. */
static size_t skip_value(const char *text, size_t pos, size_t len)
{
	size_t depth = 0;

	if (pos >= len)
		return 0;
	if (text[pos] == '"')
		return skip_string(text, pos, len);
	if (text[pos] != '{' && text[pos] != '[') {
		while (pos < len && !ends_scalar(text[pos]))
			pos++;
		return pos;
	}
	for (; pos < len; pos++) {
		if (text[pos] == '"') {
			pos = skip_string(text, pos, len);
			if (!pos)
				return 0;
			pos--;
		} else if (text[pos] == '{' || text[pos] == '[') {
			depth++;
		} else if (text[pos] == '}' || text[pos] == ']') {
			if (--depth == 0)
				return pos + 1;
		}
	}
	return 0;
}

static bool is_key(const char *text, size_t start, size_t end,
		   const char *key)
{
	size_t key_len = strlen(key);

	return end - start == key_len + 2 &&
	       !memcmp(text + start + 1, key, key_len);
}

int cp_json_find_array_member(const char *text, size_t len, const char *key,
			      struct cp_json_span *array)
{
	size_t pos = skip_space(text, 0, len), found = 0;

	if (pos >= len || text[pos] != '{')
		return -EINVAL;
	pos = skip_space(text, pos + 1, len);
	while (pos < len && text[pos] == '"') {
		size_t key_start = pos, key_end = skip_string(text, pos, len);
		size_t value_start, value_end;

		if (!key_end)
			return -EINVAL;
		pos = skip_space(text, key_end, len);
		if (pos >= len || text[pos] != ':')
			return -EINVAL;
		value_start = skip_space(text, pos + 1, len);
		value_end = skip_value(text, value_start, len);
		if (!value_end || value_end == value_start)
			return -EINVAL;
		if (is_key(text, key_start, key_end, key)) {
			if (text[value_start] != '[')
				return -EINVAL;
			array->start = value_start;
			array->end = value_end;
			found++;
		}
		pos = skip_space(text, value_end, len);
		if (pos < len && text[pos] == ',')
			pos = skip_space(text, pos + 1, len);
		else
			break;
	}
	if (pos >= len || text[pos] != '}' || found != 1)
		return -EINVAL;
	return 0;
}

int cp_json_next_element(const char *text, const struct cp_json_span *array,
			 size_t *pos, struct cp_json_span *element)
{
	size_t last = array->end - 1;	/* the array's ']' */
	size_t at;

	if (*pos == last)
		return 0;
	at = skip_space(text, *pos + 1, last);
	if (at == last)
		return text[*pos] == ',' ? -EINVAL : 0;
	element->start = at;
	element->end = skip_value(text, at, last);
	if (!element->end || element->end == at)
		return -EINVAL;
	at = skip_space(text, element->end, last);
	if (at != last && text[at] != ',')
		return -EINVAL;
	*pos = at;
	return 1;
}
