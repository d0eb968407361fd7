/* SPDX-License-Identifier: GPL-2.0 */
/* A JSON document as the project writes every one: indented, doubles to
 * 17 significant digits so that each reads back unchanged. */
#ifndef CACHEPROBE_JSON_PRINT_H
#define CACHEPROBE_JSON_PRINT_H

#include <stdio.h>
#include <json-c/json.h>

/* @value as a JSON number, or null when it is NaN or infinite (no
 * figure): JSON has no NaN. */
json_object *cp_json_number(double value);

/* Print @root and a newline to @out, then release @root.  0 or -EIO. */
int cp_json_print(json_object *root, FILE *out);

#endif
