// SPDX-License-Identifier: GPL-2.0
#include "areas/bounce/bounce_choices.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/list_item.h"

/* The sweep: inside one line, its edge (56 and 60 are the last 8- and
 * 4-byte slots of a 64-byte line), the next line (64, 96), the
 * adjacent-line pair's edge (128) and well beyond it. */
static const uint32_t default_distances[] = {
	0, 4, 8, 16, 32, 48, 56, 60, 64, 96, 128, 192, 256,
};

static const char *const op_names[CP_BOUNCE_NR_OPS] = {
	[CP_BOUNCE_PLAIN] = "plain",
	[CP_BOUNCE_ATOMIC] = "atomic",
};

const char *cp_bounce_op_name(enum cp_bounce_op op)
{
	return op >= 0 && op < CP_BOUNCE_NR_OPS ? op_names[op] : "invalid";
}

/* A decimal number without sign or spaces, at most @max, and nothing
 * after it. */
static bool parse_number(const char *text, uint32_t max, uint32_t *out)
{
	uint64_t value;

	if (!cp_parse_decimal(&text, max, &value) || *text)
		return false;
	*out = (uint32_t)value;
	return true;
}

static bool listed(const uint32_t *values, size_t n, uint32_t value)
{
	for (size_t i = 0; i < n; i++)
		if (values[i] == value)
			return true;
	return false;
}

int cp_bounce_parse_distances(const char *text,
			      struct cp_bounce_choices *choices, char *why,
			      size_t why_len)
{
	const char *cursor = text;
	char item[32];
	bool too_long;
	uint32_t value;

	choices->nr_distances = 0;
	if (!*text)
		return cp_why_invalid(why, why_len, "empty list of distances");
	while (cp_list_next(&cursor, item, sizeof(item), &too_long)) {
		if (!*item)
			return cp_why_invalid(why, why_len, "empty item in the list");
		if (too_long || !parse_number(item, UINT32_MAX, &value))
			return cp_why_invalid(why, why_len,
				      "'%s' is not a distance in bytes", item);
		if (value > CP_BOUNCE_MAX_DISTANCE)
			return cp_why_invalid(why, why_len,
				      "distance %s is above the maximum of %u bytes",
				      item, CP_BOUNCE_MAX_DISTANCE);
		if (listed(choices->distances, choices->nr_distances, value))
			return cp_why_invalid(why, why_len, "distance %u is listed twice",
				      value);
		if (choices->nr_distances == CP_BOUNCE_MAX_DISTANCES)
			return cp_why_invalid(why, why_len,
				      "more than %d distances",
				      CP_BOUNCE_MAX_DISTANCES);
		choices->distances[choices->nr_distances++] = value;
	}
	choices->distances_chosen = true;
	return 0;
}

int cp_bounce_parse_widths(const char *text,
			   struct cp_bounce_choices *choices, char *why,
			   size_t why_len)
{
	const char *cursor = text;
	char item[32];
	bool too_long;
	uint32_t value;

	choices->nr_widths = 0;
	if (!*text)
		return cp_why_invalid(why, why_len, "empty list of widths");
	while (cp_list_next(&cursor, item, sizeof(item), &too_long)) {
		if (too_long || !parse_number(item, 8, &value) ||
		    (value != 4 && value != 8))
			return cp_why_invalid(why, why_len,
				      "'%s' is not a counter width (4 or 8 bytes)",
				      item);
		for (size_t i = 0; i < choices->nr_widths; i++)
			if (choices->widths[i] == value)
				return cp_why_invalid(why, why_len,
					      "width %u is listed twice", value);
		choices->widths[choices->nr_widths++] = value;
	}
	return 0;
}

int cp_bounce_parse_ops(const char *text, struct cp_bounce_choices *choices,
			char *why, size_t why_len)
{
	const char *cursor = text;
	char item[32];
	bool too_long;

	choices->nr_ops = 0;
	if (!*text)
		return cp_why_invalid(why, why_len, "empty list of increment kinds");
	while (cp_list_next(&cursor, item, sizeof(item), &too_long)) {
		int op = -1;

		for (int k = 0; k < CP_BOUNCE_NR_OPS && !too_long; k++)
			if (strcmp(item, op_names[k]) == 0)
				op = k;
		if (op < 0)
			return cp_why_invalid(why, why_len,
				      "'%s' is not an increment kind (plain, atomic)",
				      item);
		for (size_t i = 0; i < choices->nr_ops; i++)
			if ((int)choices->ops[i] == op)
				return cp_why_invalid(why, why_len,
					      "'%s' is listed twice", item);
		choices->ops[choices->nr_ops++] = (enum cp_bounce_op)op;
	}
	return 0;
}

bool cp_bounce_distance_fits(uint32_t distance, unsigned int width)
{
	return width && distance % width == 0;
}

static int check_chosen_distances(const struct cp_bounce_choices *choices,
				  char *why, size_t why_len)
{
	for (size_t i = 0; i < choices->nr_distances; i++)
		for (size_t k = 0; k < choices->nr_widths; k++)
			if (!cp_bounce_distance_fits(choices->distances[i],
						     choices->widths[k]))
				return cp_why_invalid(why, why_len,
					      "distance %u is not a multiple of the counter width %u",
					      choices->distances[i],
					      choices->widths[k]);
	return 0;
}

int cp_bounce_choices_complete(struct cp_bounce_choices *choices, char *why,
			       size_t why_len)
{
	if (!choices->nr_widths) {
		choices->widths[0] = 4;
		choices->widths[1] = 8;
		choices->nr_widths = 2;
	}
	if (!choices->nr_ops) {
		choices->ops[0] = CP_BOUNCE_PLAIN;
		choices->ops[1] = CP_BOUNCE_ATOMIC;
		choices->nr_ops = 2;
	}
	if (choices->distances_chosen)
		return check_chosen_distances(choices, why, why_len);
	memcpy(choices->distances, default_distances, sizeof(default_distances));
	choices->nr_distances =
		sizeof(default_distances) / sizeof(default_distances[0]);
	return 0;
}
