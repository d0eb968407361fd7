// SPDX-License-Identifier: GPL-2.0
/* The JSON reader: strict about what compare relies on (schema, every
 * measurement's identity and samples), lenient about descriptive fields. */
#include "results/results_json.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <json-c/json.h>

#include "results/json_split.h"

struct reader {
	const char *path;
	struct cp_error *error;
	bool intervals;		/* compute the medians' bootstrap intervals */
};

static json_object *member(json_object *object, const char *key)
{
	json_object *value = NULL;

	if (!json_object_is_type(object, json_type_object))
		return NULL;
	json_object_object_get_ex(object, key, &value);
	return value;
}

static int missing(struct reader *reader, const char *where, const char *key,
		   const char *kind)
{
	return cp_error_set(reader->error, EINVAL,
			    "%s: %s lacks \"%s\" (%s)", reader->path, where,
			    key, kind);
}

static int read_text(struct reader *reader, json_object *object,
		     const char *where, const char *key, char *out,
		     size_t len, bool required)
{
	json_object *value = member(object, key);

	if (!json_object_is_type(value, json_type_string)) {
		if (required)
			return missing(reader, where, key, "a string");
		return 0;
	}
	snprintf(out, len, "%s", json_object_get_string(value));
	return 0;
}

/* A measurement's identity is compared whole: a longer one than the
 * field holds is refused, not cut (two cut names would be one). */
static int read_identity(struct reader *reader, json_object *object,
			 const char *where, const char *key, char *out,
			 size_t len, bool required)
{
	json_object *value = member(object, key);
	size_t text_len;

	if (!json_object_is_type(value, json_type_string)) {
		if (required)
			return missing(reader, where, key, "a string");
		return 0;
	}
	text_len = strlen(json_object_get_string(value));
	if (text_len >= len)
		return cp_error_set(reader->error, EINVAL,
				    "%s: %s: \"%s\" is %zu characters long, more than the %zu this version reads",
				    reader->path, where, key, text_len,
				    len - 1);
	memcpy(out, json_object_get_string(value), text_len + 1);
	return 0;
}

static bool is_number(json_object *value)
{
	return json_object_is_type(value, json_type_double) ||
	       json_object_is_type(value, json_type_int);
}

static double number_or(json_object *object, const char *key, double fallback)
{
	json_object *value = member(object, key);

	return is_number(value) ? json_object_get_double(value) : fallback;
}

/* Samples are finite numbers.  Not always above zero: a time per
 * operation at the floor of the loop (the harness's residue, a throughput
 * hidden under the loop's own cost) minus that floor is near zero either
 * way; compare gives such a measurement no ratio. */
static int read_doubles(struct reader *reader, json_object *array,
			const char *where, const char *key, double **out,
			size_t *n)
{
	size_t length;

	if (!json_object_is_type(array, json_type_array))
		return missing(reader, where, key, "an array of numbers");
	length = json_object_array_length(array);
	*out = malloc((length ? length : 1) * sizeof(**out));
	if (!*out)
		return cp_error_set(reader->error, ENOMEM, "no memory");
	for (size_t i = 0; i < length; i++) {
		json_object *value = json_object_array_get_idx(array, i);

		const char *wrong = NULL;

		if (!is_number(value))
			wrong = "is not a number";
		else if (isnan(json_object_get_double(value)))
			wrong = "is NaN";
		else if (isinf(json_object_get_double(value)))
			wrong = "is infinite";
		if (wrong) {
			free(*out);
			*out = NULL;
			return cp_error_set(reader->error, EINVAL,
					    "%s: %s: \"%s\"[%zu] %s",
					    reader->path, where, key, i, wrong);
		}
		(*out)[i] = json_object_get_double(value);
	}
	*n = length;
	return 0;
}

#define ENV_TEXT(field) { #field, offsetof(struct cp_environment, field), \
			  sizeof(((struct cp_environment *)0)->field) }

/* The descriptive text fields of "environment", read when present. */
static const struct {
	const char *key;
	size_t offset, size;
} environment_texts[] = {
	ENV_TEXT(cpu_model), ENV_TEXT(microcode), ENV_TEXT(kernel),
	ENV_TEXT(hostname), ENV_TEXT(date), ENV_TEXT(module_version),
	ENV_TEXT(governors), ENV_TEXT(boost), ENV_TEXT(smt),
	ENV_TEXT(hypervisor), ENV_TEXT(isolated_cpus), ENV_TEXT(nohz_full_cpus),
	ENV_TEXT(huge_pages),
};

/* @value as a CPU number, or false when it is not a whole number that
 * fits one. */
static bool cpu_number(json_object *value, unsigned int *out)
{
	int64_t number = json_object_get_int64(value);

	if (!json_object_is_type(value, json_type_int) || number < 0 ||
	    number > UINT_MAX)
		return false;
	*out = (unsigned int)number;
	return true;
}

/* @value as a round trip in ns: finite, not negative (0: not measured). */
static bool round_trip(json_object *value, double *out)
{
	double ns = json_object_get_double(value);

	if (!is_number(value) || !isfinite(ns) || ns < 0)
		return false;
	*out = ns;
	return true;
}

static bool is_pair(json_object *value)
{
	return json_object_is_type(value, json_type_array) &&
	       json_object_array_length(value) == 2;
}

/*
 * "placement", absent in older files and where the run did not measure
 * it.  Descriptive like the rest of "environment", so a malformed one
 * does not refuse the file; but it is taken whole or not at all, since
 * CPUs without their round trips, or one reading without the other,
 * would make compare see a placement that was never measured.
 */
static void read_placement(json_object *environment,
			   struct cp_placement_probe *probe)
{
	json_object *object = member(environment, "placement");
	json_object *cpus = member(object, "cpus");
	json_object *trips = member(object, "round_trip_ns");
	struct cp_placement_probe found = { .cpus = { 0 } };

	if (!is_pair(cpus) || !is_pair(trips))
		return;
	for (size_t i = 0; i < 2; i++)
		if (!cpu_number(json_object_array_get_idx(cpus, i),
				&found.cpus[i]) ||
		    !round_trip(json_object_array_get_idx(trips, i),
				&found.round_trip_ns[i]))
			return;
	*probe = found;
}

static void read_environment(json_object *root, struct cp_results *results)
{
	struct cp_environment *env = &results->environment;
	json_object *object = member(root, "environment");
	json_object *clock = member(root, "clock");
	json_object *load = member(object, "load_average");
	struct reader quiet = { .path = "", .error = NULL };

	for (size_t i = 0; i < sizeof(environment_texts) /
			       sizeof(environment_texts[0]); i++)
		read_text(&quiet, object, "", environment_texts[i].key,
			  (char *)env + environment_texts[i].offset,
			  environment_texts[i].size, false);
	env->abi_version = (uint32_t)number_or(object, "abi_version", 0);
	for (size_t i = 0; i < 3 && json_object_is_type(load, json_type_array) &&
			   i < json_object_array_length(load); i++)
		env->load_average[i] = json_object_get_double(
			json_object_array_get_idx(load, i));
	env->nr_online_cpus = (unsigned int)number_or(object, "online_cpus", 0);
	read_placement(object, &env->placement);
	env->tsc_hz = number_or(clock, "tsc_hz", 0);
	read_text(&quiet, clock, "", "tsc_source", env->tsc_source,
		  sizeof(env->tsc_source), false);
	env->tsc_invariant = json_object_get_boolean(member(clock,
							   "tsc_invariant"));
	results->timer_overhead_ticks =
		number_or(clock, "timer_overhead_ticks", 0);
	results->timer_granularity_ticks =
		number_or(clock, "timer_granularity_ticks", 0);
}

static void read_harness(json_object *root, struct cp_results *results)
{
	json_object *harness = member(root, "harness");
	const char *reason;

	results->samples_requested =
		(unsigned int)number_or(harness, "samples_requested", 0);
	results->target_sample_ns = number_or(harness, "target_sample_ns", 0);
	results->nothing_ticks_per_iteration =
		number_or(harness, "nothing_ticks_per_iteration", 0);
	results->interrupted =
		json_object_get_boolean(member(root, "interrupted"));
	reason = json_object_get_string(member(root, "interrupted_reason"));
	snprintf(results->interrupted_reason,
		 sizeof(results->interrupted_reason), "%s", reason ? reason : "");
}

/* Absent in files of older versions: nothing was left out then. */
static void read_skipped(json_object *root, struct cp_results *results)
{
	json_object *list = member(root, "skipped_areas");

	if (!json_object_is_type(list, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *item = json_object_array_get_idx(list, i);
		const char *name =
			json_object_get_string(member(item, "name"));
		const char *reason =
			json_object_get_string(member(item, "reason"));

		if (name && cp_results_skip_area(results, name,
						 reason ? reason : ""))
			break;
	}
}

/* Absent in files of older versions: their notes were warnings. */
static void read_area_notes(json_object *root, struct cp_results *results)
{
	json_object *list = member(root, "area_notes");

	if (!json_object_is_type(list, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *item = json_object_array_get_idx(list, i);
		const char *area =
			json_object_get_string(member(item, "area"));
		const char *text =
			json_object_get_string(member(item, "note"));

		if (area && text &&
		    cp_results_note(results, area, "%s", text))
			break;
	}
}

static void read_params(json_object *object, struct cp_measurement *m)
{
	json_object *params = member(object, "params");

	if (!json_object_is_type(params, json_type_object))
		return;
	json_object_object_foreach(params, key, value)
		if (is_number(value))
			cp_measurement_add_param(m, key,
						 json_object_get_int64(value));
}

static void read_warnings(json_object *object, struct cp_measurement *m)
{
	json_object *warnings = member(object, "warnings");

	if (!json_object_is_type(warnings, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(warnings); i++)
		cp_measurement_warn(m, "%s",
				    json_object_get_string(
					    json_object_array_get_idx(warnings, i)));
}

static int read_samples(struct reader *reader, json_object *object,
			const char *where, struct cp_measurement *m)
{
	double *ticks = NULL, *ns = NULL;
	size_t nr_ticks = 0, nr_ns = 0;
	int ret;

	ret = read_doubles(reader, member(object, "samples_ns"), where,
			   "samples_ns", &ns, &nr_ns);
	if (!ret)
		ret = read_doubles(reader, member(object, "samples_ticks"),
				   where, "samples_ticks", &ticks, &nr_ticks);
	if (!ret && nr_ticks != nr_ns)
		ret = cp_error_set(reader->error, EINVAL,
				   "%s: %s has %zu samples in ns but %zu in ticks",
				   reader->path, where, nr_ns, nr_ticks);
	if (!ret && nr_ns == 0)
		ret = cp_error_set(reader->error, EINVAL,
				   "%s: %s has no samples", reader->path, where);
	if (ret) {
		free(ticks);
		free(ns);
		return ret;
	}
	m->ticks = ticks;
	m->ns = ns;
	m->nr_samples = nr_ns;
	/* The samples are the record; statistics are recomputed from them. */
	if (reader->intervals
		    ? cp_stats_compute_rounds(ns, nr_ns, m->samples_per_round,
					      &m->stats_ns)
		    : cp_stats_summarize(ns, nr_ns, &m->stats_ns))
		return cp_error_set(reader->error, ENOMEM, "no memory");
	return 0;
}

/* "samples_per_round": absent or a count from 1 on. */
static int read_rounds(struct reader *reader, json_object *object,
		       const char *where, struct cp_measurement *m)
{
	json_object *value = member(object, "samples_per_round");
	int64_t per_round;

	if (!value)
		return 0;
	per_round = json_object_get_int64(value);
	if (!json_object_is_type(value, json_type_int) || per_round < 1 ||
	    per_round > UINT32_MAX)
		return cp_error_set(reader->error, EINVAL,
				    "%s: %s: samples_per_round must be a whole number from 1 on",
				    reader->path, where);
	m->samples_per_round = (unsigned int)per_round;
	return 0;
}

static int read_measurement(struct reader *reader, json_object *object,
			    size_t index, struct cp_measurement *m)
{
	char where[sizeof(m->area) + sizeof(m->name) + sizeof(m->mode) + 48];
	int ret;

	snprintf(where, sizeof(where), "measurement %zu", index);
	ret = read_identity(reader, object, where, "area", m->area,
			    sizeof(m->area), true);
	if (!ret)
		ret = read_identity(reader, object, where, "name", m->name,
				    sizeof(m->name), true);
	if (!ret)
		ret = read_identity(reader, object, where, "mode", m->mode,
				    sizeof(m->mode), false);
	if (ret)
		return ret;
	/* From here on the measurement is named, not numbered. */
	snprintf(where, sizeof(where), "measurement %zu (%s: %s%s%s%s)", index,
		 m->area, m->name, *m->mode ? " [" : "", m->mode,
		 *m->mode ? "]" : "");
	read_text(reader, object, where, "note", m->note, sizeof(m->note),
		  false);
	read_params(object, m);
	m->count = (uint64_t)number_or(object, "count", 0);
	m->scale = (uint64_t)number_or(object, "scale", 0);
	m->core_cycles_per_tick = number_or(object, "core_cycles_per_tick", 0);
	m->interrupted = json_object_get_boolean(member(object, "interrupted"));
	m->preempted_retaken =
		(unsigned int)number_or(object, "preempted_retaken", 0);
	ret = read_rounds(reader, object, where, m);
	if (ret)
		return ret;
	read_warnings(object, m);
	return read_samples(reader, object, where, m);
}

static int read_measurements(struct reader *reader, json_object *root,
			     struct cp_results *results)
{
	json_object *array = member(root, "measurements");

	if (!json_object_is_type(array, json_type_array))
		return missing(reader, "the document", "measurements",
			       "an array");
	for (size_t i = 0; i < json_object_array_length(array); i++) {
		struct cp_measurement *m = cp_results_add(results);

		if (!m)
			return cp_error_set(reader->error, ENOMEM, "no memory");
		int ret = read_measurement(reader,
					   json_object_array_get_idx(array, i),
					   i, m);
		if (ret)
			return ret;
	}
	return 0;
}

static void read_levels(json_object *root, struct cp_results *results)
{
	json_object *array = member(root, "latency_levels");
	struct reader quiet = { .path = "", .error = NULL };

	if (!json_object_is_type(array, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(array) &&
			   results->nr_levels < CP_MAX_LEVELS; i++) {
		json_object *object = json_object_array_get_idx(array, i);
		struct cp_level_estimate *level =
			&results->levels[results->nr_levels++];

		read_text(&quiet, object, "", "name", level->name,
			  sizeof(level->name), false);
		level->nominal_bytes = (uint64_t)number_or(object,
							   "nominal_bytes", 0);
		level->effective_bytes =
			(uint64_t)number_or(object, "effective_bytes", 0);
		level->latency_ns = number_or(object, "latency_ns", 0);
		level->latency_ticks = number_or(object, "latency_ticks", 0);
		level->latency_cycles = number_or(object, "latency_cycles", 0);
		level->threshold_ns = number_or(object, "threshold_ns", 0);
	}
}

static int check_schema(struct reader *reader, json_object *root,
			struct cp_results *results)
{
	json_object *schema = member(root, "schema");
	const char *family = CP_RESULTS_SCHEMA;
	size_t family_len = strcspn(family, "/") + 1;

	if (!json_object_is_type(root, json_type_object))
		return cp_error_set(reader->error, EINVAL,
				    "%s: not a cacheprobe results file (the document is %s, not an object)",
				    reader->path,
				    json_type_to_name(json_object_get_type(root)));
	if (!json_object_is_type(schema, json_type_string))
		return cp_error_set(reader->error, EINVAL,
				    "%s: not a cacheprobe results file (no \"schema\")",
				    reader->path);
	if (strncmp(json_object_get_string(schema), family, family_len))
		return cp_error_set(reader->error, EINVAL,
				    "%s: not a cacheprobe results file (its schema is \"%s\")",
				    reader->path, json_object_get_string(schema));
	if (strcmp(json_object_get_string(schema), CP_RESULTS_SCHEMA) != 0)
		return cp_error_set(reader->error, EINVAL,
				    "%s: schema \"%s\" is not %s, which this version reads",
				    reader->path, json_object_get_string(schema),
				    CP_RESULTS_SCHEMA);
	read_text(reader, member(root, "tool"), "", "version",
		  results->tool_version, sizeof(results->tool_version), false);
	return 0;
}

/* The whole of @file, NUL-terminated, in *@text (freed by the caller);
 * @expected bytes (the size a regular file has) read without growing. */
static int read_all(FILE *file, size_t expected, char **text, size_t *len)
{
	size_t size = 0, capacity = expected < 4096 ? 4096 : expected + 2;
	char *buffer = malloc(capacity), *grown;

	while (buffer) {
		size += fread(buffer + size, 1, capacity - size - 1, file);
		if (ferror(file)) {
			int err = errno ? errno : EIO;

			free(buffer);
			return -err;
		}
		if (feof(file)) {
			buffer[size] = '\0';
			*text = buffer;
			*len = size;
			return 0;
		}
		if (size + 1 < capacity)
			continue;
		grown = capacity > SIZE_MAX / 2 ? NULL
						: realloc(buffer, capacity * 2);
		if (!grown)
			free(buffer);
		buffer = grown;
		capacity *= 2;
	}
	return -ENOMEM;
}

/*
 * json-c's own messages ("json_tokener_parse_ex failed: continue") do not
 * say what is wrong with the file; these do, with where.
 */
static int parse_text(struct reader *reader, const char *text, size_t len,
		      json_object **out)
{
	json_tokener *tokener = json_tokener_new();
	enum json_tokener_error jerr;
	json_object *root;
	size_t end;
	bool parsed;

	if (!tokener)
		return cp_error_set(reader->error, ENOMEM, "%s: out of memory",
				    reader->path);
	if (len > INT_MAX - 1) {
		json_tokener_free(tokener);
		return cp_error_set(reader->error, EINVAL,
				    "%s: too large for a result file",
				    reader->path);
	}
	/* len + 1: the NUL ends the last value when it is a bare number. */
	root = json_tokener_parse_ex(tokener, text, (int)len + 1);
	jerr = json_tokener_get_error(tokener);
	end = json_tokener_get_parse_end(tokener);
	json_tokener_free(tokener);
	while (end < len && isspace((unsigned char)text[end]))
		end++;
	/* json-c returns no object, and no error, for a bare null. */
	parsed = root || jerr == json_tokener_success;

	if (parsed && end < len) {
		json_object_put(root);
		return cp_error_set(reader->error, EINVAL,
				    "%s: not valid JSON: text after the end of the document at byte %zu",
				    reader->path, end);
	}
	if (parsed && !root)
		return cp_error_set(reader->error, EINVAL,
				    "%s: not a cacheprobe results file (the document is null)",
				    reader->path);
	if (!root)
		return cp_error_set(reader->error, EINVAL,
				    "%s: not valid JSON: %s at byte %zu",
				    reader->path,
				    jerr == json_tokener_continue ||
				    end >= len ? "the file ends in the middle of the document"
					       : json_tokener_error_desc(jerr),
				    end);
	*out = root;
	return 0;
}

/* The whole file in *@text (NUL-terminated, freed by the caller). */
static int read_file(struct reader *reader, char **text, size_t *len)
{
	FILE *file = fopen(reader->path, "r");
	struct stat st;
	int ret;

	*text = NULL;
	if (!file)
		ret = -errno;
	else if (fstat(fileno(file), &st))
		ret = -errno;
	else if (S_ISDIR(st.st_mode))
		ret = -EISDIR;
	else
		ret = read_all(file, S_ISREG(st.st_mode) ? (size_t)st.st_size : 0,
			       text, len);
	if (file)
		fclose(file);
	if (ret)
		return cp_error_set(reader->error, -ret, "cannot read %s: %s",
				    reader->path, strerror(-ret));
	if (*len == 0)
		return cp_error_set(reader->error, EINVAL,
				    "%s: the file is empty, not a result file",
				    reader->path);
	return 0;
}

/* Everything but the measurements, from the document's @root. */
static int read_top(struct reader *reader, json_object *root,
		    struct cp_results *results)
{
	int ret = check_schema(reader, root, results);

	if (ret)
		return ret;
	read_environment(root, results);
	read_harness(root, results);
	read_skipped(root, results);
	read_area_notes(root, results);
	read_levels(root, results);
	return 0;
}

/* The document parsed whole: what any file the split cannot follow gets,
 * with json-c's account of where it is wrong. */
static int read_whole(struct reader *reader, const char *text, size_t len,
		      struct cp_results *results)
{
	json_object *root = NULL;
	int ret = parse_text(reader, text, len, &root);

	if (!ret)
		ret = read_top(reader, root, results);
	if (!ret)
		ret = read_measurements(reader, root, results);
	json_object_put(root);
	return ret;
}

/* The document with "[]" for the measurements' @array, parsed. */
static json_object *parse_outline(const char *text, size_t len,
				  const struct cp_json_span *array)
{
	size_t head = array->start, tail = len - array->end;
	char *outline = malloc(head + 2 + tail + 1);
	struct reader quiet = { .path = "", .error = NULL };
	json_object *root = NULL;

	if (!outline)
		return NULL;
	memcpy(outline, text, head);
	memcpy(outline + head, "[]", 2);
	memcpy(outline + head + 2, text + array->end, tail);
	outline[head + 2 + tail] = '\0';
	if (parse_text(&quiet, outline, head + 2 + tail, &root))
		root = NULL;
	free(outline);
	return root;
}

/* One element, whole and alone, or -EINVAL.  The byte after it (a ',',
 * ']' or space) ends a bare number. */
static int parse_element(json_tokener *tokener, const char *text,
			 const struct cp_json_span *element, json_object **out)
{
	size_t len = element->end - element->start;

	if (len >= INT_MAX)
		return -EINVAL;
	json_tokener_reset(tokener);
	*out = json_tokener_parse_ex(tokener, text + element->start,
				     (int)len + 1);
	if (json_tokener_get_error(tokener) != json_tokener_success ||
	    json_tokener_get_parse_end(tokener) != len) {
		json_object_put(*out);
		return -EINVAL;
	}
	return 0;
}

/*
 * The measurements one by one from their spans: a few kilobytes of json-c
 * objects at a time.  -EAGAIN when the split or json-c finds a fault,
 * for read_whole to report.
 */
static int read_split_measurements(struct reader *reader, const char *text,
				   const struct cp_json_span *array,
				   struct cp_results *results)
{
	json_tokener *tokener = json_tokener_new();
	struct cp_json_span element;
	size_t pos = array->start, index = 0;
	int ret = 0, more;

	if (!tokener)
		return cp_error_set(reader->error, ENOMEM, "no memory");
	while (!ret && (more = cp_json_next_element(text, array, &pos,
						    &element)) == 1) {
		struct cp_measurement *m;
		json_object *object;

		if (parse_element(tokener, text, &element, &object)) {
			ret = -EAGAIN;
			break;
		}
		m = cp_results_add(results);
		ret = m ? read_measurement(reader, object, index++, m)
			: cp_error_set(reader->error, ENOMEM, "no memory");
		json_object_put(object);
	}
	json_tokener_free(tokener);
	return ret ? ret : more < 0 ? -EAGAIN : 0;
}

static int read_document(struct reader *reader, const char *text, size_t len,
			 struct cp_results *results)
{
	struct cp_json_span array;
	json_object *root;
	int ret;

	if (cp_json_find_array_member(text, len, "measurements", &array))
		return read_whole(reader, text, len, results);
	root = parse_outline(text, len, &array);
	if (!root)
		return read_whole(reader, text, len, results);
	ret = read_top(reader, root, results);
	json_object_put(root);
	if (!ret)
		ret = read_split_measurements(reader, text, &array, results);
	if (ret != -EAGAIN)
		return ret;
	cp_results_free(results);
	cp_results_init(results);
	return read_whole(reader, text, len, results);
}

static int read_json(const char *path, bool intervals,
		     struct cp_results *results, struct cp_error *error)
{
	struct reader reader = {
		.path = path, .error = error, .intervals = intervals,
	};
	size_t len = 0;
	char *text;
	int ret;

	cp_error_clear(error);
	cp_results_init(results);
	ret = read_file(&reader, &text, &len);
	if (!ret)
		ret = read_document(&reader, text, len, results);
	if (!ret && intervals)
		cp_results_cover_timer_step(results);
	free(text);
	if (ret)
		cp_results_free(results);
	return ret;
}

int cp_results_read_json(const char *path, struct cp_results *results,
			 struct cp_error *error)
{
	return read_json(path, true, results, error);
}

int cp_results_read_json_samples(const char *path, struct cp_results *results,
				 struct cp_error *error)
{
	return read_json(path, false, results, error);
}
