// SPDX-License-Identifier: GPL-2.0
#include "results/json_print.h"

#include <errno.h>
#include <math.h>

json_object *cp_json_number(double value)
{
	return isfinite(value) ? json_object_new_double(value) : NULL;
}

int cp_json_print(json_object *root, FILE *out)
{
	const char *text;
	int ret = 0;

	json_c_set_serialization_double_format("%.17g", JSON_C_OPTION_THREAD);
	text = json_object_to_json_string_ext(root,
					      JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fputs(text, out) == EOF || fputc('\n', out) == EOF)
		ret = -EIO;
	json_object_put(root);
	return ret;
}
