// SPDX-License-Identifier: GPL-2.0
#include "results_fixture.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/results_json.h"

void fixture_results(struct cp_results *results)
{
	struct cp_environment *env = &results->environment;

	cp_results_init(results);
	snprintf(results->tool_version, sizeof(results->tool_version), "9.9.9");
	snprintf(env->cpu_model, sizeof(env->cpu_model), "Test CPU \"quoted\", v2");
	snprintf(env->kernel, sizeof(env->kernel), "6.1.0-test");
	snprintf(env->module_version, sizeof(env->module_version), "not loaded");
	snprintf(env->governors, sizeof(env->governors), "performance");
	snprintf(env->boost, sizeof(env->boost), "off");
	snprintf(env->hypervisor, sizeof(env->hypervisor), "none");
	snprintf(env->tsc_source, sizeof(env->tsc_source), "calibrated");
	env->tsc_hz = FIXTURE_TSC_HZ;
	env->tsc_invariant = true;
	env->load_average[0] = 0.25;
	env->nr_online_cpus = 2;
	results->timer_overhead_ticks = 52;
	results->timer_granularity_ticks = 26;
	results->nothing_ticks_per_iteration = 1.25;
	results->samples_requested = 15;
	results->target_sample_ns = 2e6;
}

void fixture_measurement(struct cp_results *results, const char *name,
			 const double *ns, size_t n)
{
	struct cp_measurement *m = cp_results_add(results);
	double *ticks = malloc(n * sizeof(*ticks));

	if (!m || !ticks)
		abort();
	snprintf(m->area, sizeof(m->area), "latency");
	snprintf(m->name, sizeof(m->name), "%s", name);
	cp_measurement_add_param(m, "size_bytes", 4096);
	m->count = 1000;
	m->scale = 16;
	m->core_cycles_per_tick = 1.5;
	for (size_t i = 0; i < n; i++)
		ticks[i] = ns[i] * FIXTURE_TSC_HZ / 1e9;
	if (cp_measurement_set_samples(m, ticks, n, FIXTURE_TSC_HZ))
		abort();
}

void fixture_temporary_directory(char *out, size_t len)
{
	const char *base = getenv("TMPDIR");

	snprintf(out, len, "%s/cacheprobe-test-XXXXXX",
		 base && *base ? base : P_tmpdir);
	if (!mkdtemp(out))
		abort();
}

char *fixture_write_json(const struct cp_results *results, const char *name)
{
	char directory[512];
	char *path;
	FILE *file;

	fixture_temporary_directory(directory, sizeof(directory));
	path = malloc(strlen(directory) + strlen(name) + 2);
	if (!path)
		abort();
	sprintf(path, "%s/%s", directory, name);
	file = fopen(path, "w");
	if (!file || cp_results_write_json(results, file) || fclose(file))
		abort();
	return path;
}

void fixture_remove(char *path)
{
	unlink(path);
	rmdir(dirname(path));
	free(path);
}
