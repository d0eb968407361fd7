// SPDX-License-Identifier: GPL-2.0
/* The text form of CPU sets: the list syntax of /sys/devices/system/cpu. */
#include "machine/cpuset.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/cacheprobe.h>

#include "util/text_sink.h"

size_t cp_cpuset_format(const struct cp_cpuset *set, char *buf, size_t len)
{
	struct cp_text_sink sink;
	int first = cp_cpuset_first(set);

	cp_text_sink_init(&sink, buf, len);
	while (first >= 0) {
		int last = first;
		int next = cp_cpuset_next(set, (unsigned int)first);

		while (next == last + 1) {
			last = next;
			next = cp_cpuset_next(set, (unsigned int)last);
		}
		if (first == last)
			cp_text_sink_printf(&sink, "%s%d", sink.used ? "," : "",
					    first);
		else
			cp_text_sink_printf(&sink, "%s%d-%d",
					    sink.used ? "," : "", first, last);
		first = next;
	}
	return sink.used;
}

char *cp_cpuset_format_alloc(const struct cp_cpuset *set)
{
	size_t len = cp_cpuset_format(set, NULL, 0) + 1;
	char *text = malloc(len);

	if (text)
		cp_cpuset_format(set, text, len);
	return text;
}

/* Where parsing stands, and where to explain a failure. */
struct list_cursor {
	const char *text;
	const char *pos;
	char *why;
	size_t why_len;
};

static int list_error(struct list_cursor *cursor, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int list_error(struct list_cursor *cursor, const char *fmt, ...)
{
	va_list args;

	if (cursor->why_len) {
		va_start(args, fmt);
		vsnprintf(cursor->why, cursor->why_len, fmt, args);
		va_end(args);
	}
	return -EINVAL;
}

/* Explain the character at the cursor, which is not what the grammar wants. */
static int unexpected(struct list_cursor *cursor, const char *expected)
{
	unsigned char bad = (unsigned char)*cursor->pos;
	size_t column = (size_t)(cursor->pos - cursor->text) + 1;

	if (bad == '\0')
		return list_error(cursor, "CPU list ends where %s was expected",
				  expected);
	if (isprint(bad) && bad != ' ')
		return list_error(cursor,
				  "unexpected '%c' at character %zu (expected %s)",
				  bad, column, expected);
	return list_error(cursor,
			  "unexpected %s at character %zu (expected %s)",
			  bad == ' ' ? "space" : "control character", column,
			  expected);
}

static int parse_cpu_id(struct list_cursor *cursor, unsigned int *id)
{
	const char *start = cursor->pos;
	unsigned long value = 0;

	if (!isdigit((unsigned char)*cursor->pos))
		return unexpected(cursor, "a CPU id");
	while (isdigit((unsigned char)*cursor->pos)) {
		/* Stop growing once too large, so long digit runs cannot wrap. */
		if (value < CACHEPROBE_MAX_CPUS)
			value = value * 10 + (unsigned long)(*cursor->pos - '0');
		cursor->pos++;
	}
	if (value >= CACHEPROBE_MAX_CPUS)
		return list_error(cursor,
				  "CPU id %.*s is too large (the limit is %d)",
				  (int)(cursor->pos - start), start,
				  CACHEPROBE_MAX_CPUS - 1);
	*id = (unsigned int)value;
	return 0;
}

static int add_range(struct list_cursor *cursor, struct cp_cpuset *set,
		     unsigned int first, unsigned int last)
{
	for (unsigned int cpu = first; cpu <= last; cpu++) {
		if (cp_cpuset_test(set, cpu))
			return list_error(cursor, "CPU %u is listed twice", cpu);
		cp_cpuset_set(set, cpu);
	}
	return 0;
}

/* One "N" or "N-M" element. */
static int parse_element(struct list_cursor *cursor, struct cp_cpuset *set,
			 bool *was_range)
{
	unsigned int first, last;
	int ret = parse_cpu_id(cursor, &first);

	if (ret)
		return ret;
	last = first;
	*was_range = *cursor->pos == '-';
	if (*was_range) {
		cursor->pos++;
		ret = parse_cpu_id(cursor, &last);
		if (ret)
			return ret;
		if (last < first)
			return list_error(cursor,
					  "range %u-%u is reversed (write %u-%u)",
					  first, last, last, first);
	}
	return add_range(cursor, set, first, last);
}

static int parse_elements(struct list_cursor *cursor, struct cp_cpuset *set)
{
	for (;;) {
		bool was_range;
		int ret = parse_element(cursor, set, &was_range);

		if (ret)
			return ret;
		if (*cursor->pos == '\0')
			return 0;
		if (*cursor->pos != ',')
			return unexpected(cursor,
					  was_range ? "','" : "',' or '-'");
		cursor->pos++;
	}
}

int cp_cpuset_parse(const char *text, struct cp_cpuset **out, char *why,
		    size_t why_len)
{
	struct list_cursor cursor = {
		.text = text, .pos = text, .why = why, .why_len = why_len,
	};
	struct cp_cpuset *set;
	int ret;

	if (why_len)
		why[0] = '\0';
	if (*text == '\0')
		return list_error(&cursor, "empty CPU list");
	set = cp_cpuset_new(CACHEPROBE_MAX_CPUS);
	if (!set) {
		list_error(&cursor, "out of memory");
		return -ENOMEM;
	}
	ret = parse_elements(&cursor, set);
	if (ret) {
		cp_cpuset_free(set);
		return ret;
	}
	*out = set;
	return 0;
}
