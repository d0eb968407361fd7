// SPDX-License-Identifier: GPL-2.0
#include "report/report_machine.h"

#include "machine/placement.h"
#include "report/html_text.h"
#include "util/format.h"

static void row(FILE *out, const char *name, const char *value)
{
	fputs("<tr><th>", out);
	html_escape(out, name);
	fputs("</th><td>", out);
	html_escape(out, *value ? value : "none");
	fputs("</td></tr>\n", out);
}

static void module_row(FILE *out, const struct cp_environment *env)
{
	char text[CP_ENV_TEXT + 64];

	if (env->abi_version)
		snprintf(text, sizeof(text), "cacheprobe.ko %s, ABI %u",
			 env->module_version, env->abi_version);
	else
		snprintf(text, sizeof(text),
			 "user mode only (the cacheprobe module was not loaded)");
	row(out, "module", text);
}

/* Only when measured: runs on one CPU and older files have no probe. */
static void placement_row(FILE *out, const struct cp_environment *env)
{
	char text[96];

	if (!cp_placement_measured(&env->placement))
		return;
	cp_placement_format(&env->placement, text, sizeof(text));
	row(out, "CPU round trip", text);
}

static void clock_rows(FILE *out, const struct cp_results *results)
{
	const struct cp_environment *env = &results->environment;
	double ns_per_tick = env->tsc_hz > 0 ? 1e9 / env->tsc_hz : 0;
	char text[160], sample[32];

	snprintf(text, sizeof(text), "%.4g GHz (%s), %s", env->tsc_hz / 1e9,
		 env->tsc_source,
		 env->tsc_invariant ? "invariant" : "NOT invariant");
	row(out, "TSC", text);
	snprintf(text, sizeof(text),
		 "timer overhead %.0f ticks (%.1f ns), step %.0f ticks; NOTHING floor %.3f ticks per iteration (subtracted)",
		 results->timer_overhead_ticks,
		 results->timer_overhead_ticks * ns_per_tick,
		 results->timer_granularity_ticks,
		 results->nothing_ticks_per_iteration);
	row(out, "instrument", text);
	snprintf(text, sizeof(text), "%u samples per measurement, %s each",
		 results->samples_requested,
		 cp_format_ns(results->target_sample_ns, sample,
			      sizeof(sample)));
	row(out, "harness", text);
}

static void machine_table(FILE *out, const struct cp_results *results)
{
	const struct cp_environment *env = &results->environment;
	char text[160];

	fputs("<table class=\"kv\">\n", out);
	row(out, "CPU", env->cpu_model);
	row(out, "microcode", env->microcode);
	snprintf(text, sizeof(text), "%u", env->nr_online_cpus);
	row(out, "online CPUs", text);
	row(out, "kernel", env->kernel);
	module_row(out, env);
	row(out, "host", env->hostname);
	row(out, "date", env->date);
	row(out, "governor", env->governors);
	row(out, "boost", env->boost);
	row(out, "SMT", env->smt);
	row(out, "hypervisor", env->hypervisor);
	placement_row(out, env);
	row(out, "isolated CPUs", env->isolated_cpus);
	snprintf(text, sizeof(text), "%.2f %.2f %.2f", env->load_average[0],
		 env->load_average[1], env->load_average[2]);
	row(out, "load average", text);
	clock_rows(out, results);
	snprintf(text, sizeof(text), "cacheprobe-run %s, %s",
		 results->tool_version, results->schema);
	row(out, "tool", text);
	fputs("</table>\n", out);
}

static void warnings(FILE *out, const struct cp_results *results)
{
	struct cp_env_warning list[8];
	size_t count = cp_environment_warnings(&results->environment, list, 8);

	if (count > 8)
		count = 8;
	if (!count)
		return;
	fputs("<div class=\"warn\"><strong>Environment warnings</strong><ul>\n",
	      out);
	for (size_t i = 0; i < count; i++) {
		fputs("<li>", out);
		html_escape(out, list[i].text);
		fputs("</li>\n", out);
	}
	fputs("</ul></div>\n", out);
}

/* What the run left out is said before anything it measured. */
static void skipped_areas(FILE *out, const struct cp_results *results)
{
	for (size_t i = 0; i < results->nr_skipped_areas; i++) {
		const struct cp_skipped_area *skipped =
			&results->skipped_areas[i];

		fputs("<p class=\"banner\">Not measured: ", out);
		html_escape(out, skipped->name);
		fputs(" (", out);
		html_escape(out, skipped->reason);
		fputs(").</p>\n", out);
	}
}

void report_machine(FILE *out, const struct cp_results *results)
{
	fputs("<section id=\"machine\"><h2>Machine</h2>\n", out);
	if (results->interrupted) {
		fputs("<p class=\"banner\">This run was interrupted", out);
		if (results->interrupted_reason[0]) {
			fputs(" (", out);
			html_escape(out, results->interrupted_reason);
			fputs(")", out);
		}
		fputs(": the results are partial.</p>\n", out);
	}
	skipped_areas(out, results);
	machine_table(out, results);
	warnings(out, results);
	fputs("</section>\n", out);
}
