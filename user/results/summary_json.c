// SPDX-License-Identifier: GPL-2.0
#include "results/summary.h"

#include <json-c/json.h>

#include "results/json_print.h"

static json_object *finding_json(const struct cp_finding *f)
{
	json_object *object = json_object_new_object();

	json_object_object_add(object, "area",
			       json_object_new_string(f->area));
	json_object_object_add(object, "topic",
			       json_object_new_string(f->topic));
	json_object_object_add(object, "answer",
			       json_object_new_string(f->answer));
	json_object_object_add(object, "measured",
			       json_object_new_boolean(f->measured));
	json_object_object_add(object, "value", cp_json_number(f->value));
	json_object_object_add(object, "low", cp_json_number(f->low));
	json_object_object_add(object, "high", cp_json_number(f->high));
	json_object_object_add(object, "unit",
			       json_object_new_string(f->unit));
	return object;
}

json_object *cp_summary_json(const struct cp_results *results)
{
	json_object *object = json_object_new_object();
	json_object *findings = json_object_new_array();
	json_object *doubts = json_object_new_array();
	struct cp_summary summary;

	cp_summary_build(results, &summary);
	for (size_t i = 0; i < summary.nr_findings; i++)
		json_object_array_add(findings,
				      finding_json(&summary.findings[i]));
	for (size_t i = 0; i < summary.nr_doubts; i++)
		json_object_array_add(doubts,
				      json_object_new_string(summary.doubts[i]));
	json_object_object_add(object, "findings", findings);
	json_object_object_add(object, "doubts", doubts);
	return object;
}
