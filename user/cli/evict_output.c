// SPDX-License-Identifier: GPL-2.0
#include "cli/evict_output.h"

#include <json-c/json.h>

#include "cli/cli_util.h"
#include "results/json_print.h"
#include "util/format.h"

static void print_warmth(const char *label,
			 const struct cacheprobe_warmth *warmth, FILE *out)
{
	fprintf(out, "  %-8s %5.1f %% cached (", label,
		warmth->cached_ppm / 1e4);
	for (uint32_t k = 0; k < warmth->nr_levels; k++)
		fprintf(out, "%s%s %.1f %%", k ? ", " : "",
			warmth->levels[k].name, warmth->levels[k].ppm / 1e4);
	fprintf(out, "; %u lines)\n", warmth->lines_timed);
}

void evict_print(const struct evict_report *report, FILE *out)
{
	const struct evict_outcome *outcome = &report->outcome;
	char size[32];

	fprintf(out, "evict: %s on CPUs %s in %.3g ms", report->method,
		report->cpus ? report->cpus : "(unknown)",
		outcome->evict_ns / 1e6);
	if (report->garbage_bytes) {
		cp_format_size(report->garbage_bytes, size, sizeof(size));
		fprintf(out, " (%s read)", size);
	}
	fputc('\n', out);
	cli_print_line(out, 4, "  why: %s", report->reason);
	if (!outcome->probe_bytes)
		return;
	cp_format_size(outcome->probe_bytes, size, sizeof(size));
	fprintf(out, "probe of %s on CPU %d, share of its lines still cached:\n",
		size, outcome->probe_cpu);
	print_warmth("warm", &outcome->warm, out);
	print_warmth("evicted", &outcome->evicted, out);
}

static json_object *warmth_json(const struct cacheprobe_warmth *warmth)
{
	json_object *object = json_object_new_object();
	json_object *levels = json_object_new_array();

	json_object_object_add(object, "lines_timed",
			       json_object_new_int64(warmth->lines_timed));
	json_object_object_add(object, "cached_ppm",
			       json_object_new_int64(warmth->cached_ppm));
	for (uint32_t k = 0; k < warmth->nr_levels; k++) {
		json_object *level = json_object_new_object();

		json_object_object_add(level, "name",
				       json_object_new_string(warmth->levels[k].name));
		json_object_object_add(level, "ppm",
				       json_object_new_int64(warmth->levels[k].ppm));
		json_object_array_add(levels, level);
	}
	json_object_object_add(object, "levels", levels);
	return object;
}

static json_object *probe_json(const struct evict_outcome *outcome)
{
	json_object *probe = json_object_new_object();

	json_object_object_add(probe, "bytes",
			       json_object_new_int64((int64_t)outcome->probe_bytes));
	json_object_object_add(probe, "cpu",
			       json_object_new_int(outcome->probe_cpu));
	json_object_object_add(probe, "warm", warmth_json(&outcome->warm));
	json_object_object_add(probe, "evicted",
			       warmth_json(&outcome->evicted));
	return probe;
}

int evict_write_json(const void *context, FILE *out)
{
	const struct evict_report *report = context;
	json_object *root = json_object_new_object();

	json_object_object_add(root, "schema",
			       json_object_new_string("cacheprobe-evict/1"));
	json_object_object_add(root, "method",
			       json_object_new_string(report->method));
	json_object_object_add(root, "reason",
			       json_object_new_string(report->reason));
	json_object_object_add(root, "cpus",
			       report->cpus ? json_object_new_string(report->cpus)
					    : NULL);
	json_object_object_add(root, "open_ns",
			       json_object_new_double(report->open_ns));
	json_object_object_add(root, "evict_ns",
			       json_object_new_double(report->outcome.evict_ns));
	json_object_object_add(root, "garbage_bytes",
			       json_object_new_int64((int64_t)report->garbage_bytes));
	json_object_object_add(root, "probe",
			       report->outcome.probe_bytes
				       ? probe_json(&report->outcome) : NULL);
	return cp_json_print(root, out);
}
