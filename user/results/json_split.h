/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the elements of one array member of a JSON document lie, found
 * without building them, so that a large results file can be read one
 * measurement at a time: json-c then builds one small object after
 * another instead of a tree of the whole file (about 15 times the file's
 * size, whose page faults took most of the reading time).
 *
 * This is a structural scan only (strings, escapes, nesting); json-c still
 * parses and checks every byte.  Anything the scan does not understand
 * makes it give up, and the caller parses the whole document as before,
 * which reports the error precisely.
 */
#ifndef CACHEPROBE_JSON_SPLIT_H
#define CACHEPROBE_JSON_SPLIT_H

#include <stddef.h>

struct cp_json_span {
	size_t start, end;	/* [start, end) in the text */
};

/*
 * In @text (@len bytes, a document whose value is an object), the span of
 * the value of member @key when it is an array (from '[' to past ']').
 * 0, or -EINVAL when the document is not an object whose members the scan
 * can follow, or @key is not there exactly once as an array.
 */
int cp_json_find_array_member(const char *text, size_t len, const char *key,
			      struct cp_json_span *array);

/*
 * The next element of @array after *@pos (start it at @array->start):
 * its span in *@element.  1 when one was found, 0 at the end of the
 * array, -EINVAL when the scan cannot follow it.
 */
int cp_json_next_element(const char *text, const struct cp_json_span *array,
			 size_t *pos, struct cp_json_span *element);

#endif
