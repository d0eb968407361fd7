// SPDX-License-Identifier: GPL-2.0
#include "results_fixture.h"

#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/results_json.h"

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

struct cp_measurement *fixture_area_measurement(struct cp_results *results,
						const char *area,
						const char *mode,
						const char *name,
						const double *ns, size_t n)
{
	struct cp_measurement *m;

	fixture_measurement(results, name, ns, n);
	m = &results->measurements[results->nr_measurements - 1];
	snprintf(m->area, sizeof(m->area), "%s", area);
	snprintf(m->mode, sizeof(m->mode), "%s", mode);
	m->nr_params = 0;
	return m;
}

/* Five samples around @ns, not all equal (the statistics need spread). */
static struct cp_measurement *spread(struct cp_results *results,
				     const char *area, const char *mode,
				     const char *name, double ns)
{
	const double samples[] = { ns, ns * 1.02, ns * 0.99, ns * 1.01,
				   ns * 0.98 };

	return fixture_area_measurement(results, area, mode, name, samples,
					sizeof(samples) / sizeof(samples[0]));
}

static void align_access(struct cp_results *results, const char *mode,
			 int width, int offset, int stride, int split,
			 double ns)
{
	char name[64];
	struct cp_measurement *m;
	bool kernel = strcmp(mode, "kernel") == 0;

	snprintf(name, sizeof(name),
		 "load-latency %dB off %d, 24 KiB, stride %d%s", width, offset,
		 stride, kernel ? " (kernel)" : "");
	m = spread(results, "align", mode, name, ns);
	snprintf(m->note, sizeof(m->note), "%s",
		 split == 2 ? "splits a page" : split ? "splits a line"
		 : offset ? "in one line" : "aligned");
	cp_measurement_add_param(m, "width_bytes", width);
	cp_measurement_add_param(m, "offset_bytes", offset);
	cp_measurement_add_param(m, "stride_bytes", stride);
	cp_measurement_add_param(m, "buffer_bytes", 24 << 10);
	cp_measurement_add_param(m, "split", split);
	cp_measurement_add_param(m, "cpu", 1);
	cp_measurement_add_param(m, "line_bytes", 64);
	if (offset)
		cp_measurement_add_param(m, "penalty_milli",
					 split == 2 ? 4000 : split ? 2500 : 1000);
	else if (width == 8 && stride == 256)
		cp_measurement_add_param(m, "line_detected_bytes", 64);
}

static void align_classic(struct cp_results *results, int shift, double ns)
{
	char name[64];
	struct cp_measurement *m;

	snprintf(name, sizeof(name), "classic shift %d, 96 KiB", shift);
	m = spread(results, "align", "user", name, ns);
	snprintf(m->note, sizeof(m->note), "%s",
		 shift == 32 ? "2 lines/step: 64 KiB of lines > L1d"
			     : "1 line/step: 32 KiB of lines, fits L1d");
	cp_measurement_add_param(m, "shift_bytes", shift);
	cp_measurement_add_param(m, "buffer_bytes", 96 << 10);
	cp_measurement_add_param(m, "step_bytes", 192);
	cp_measurement_add_param(m, "lines_per_step", shift == 32 ? 2 : 1);
	cp_measurement_add_param(m, "touched_bytes", shift == 32 ? 65536 : 32768);
	cp_measurement_add_param(m, "line_bytes", 64);
	cp_measurement_add_param(m, "cpu", 1);
	if (shift)
		cp_measurement_add_param(m, "penalty_milli",
					 shift == 32 ? 1500 : 1000);
}

void fixture_align_sweep(struct cp_results *results, const char *mode,
			 unsigned int width)
{
	align_access(results, mode, width, 0, 256, 0, 2);
	align_access(results, mode, width, 32, 256, 0, 2);
	align_access(results, mode, width, 64 - width / 2, 256, 1, 5);
}

void fixture_align(struct cp_results *results, const char *mode)
{
	align_access(results, mode, 8, 0, 256, 0, 2);
	align_access(results, mode, 8, 32, 256, 0, 2);
	align_access(results, mode, 8, 60, 256, 1, 5);
	align_access(results, mode, 8, 64, 256, 0, 2);
	align_access(results, mode, 1, 0, 256, 0, 2);
	align_access(results, mode, 1, 63, 256, 0, 2);
	align_access(results, mode, 8, 0, 4096, 0, 2);
	align_access(results, mode, 8, 4092, 4096, 2, 8);
	if (strcmp(mode, "user") != 0)
		return;
	align_classic(results, 0, 0.5);
	align_classic(results, 31, 0.5);
	align_classic(results, 32, 0.75);
}

/* @producer -1: the memory baseline; @producer == @consumer: same CPU. */
static void xcore_walk(struct cp_results *results, const char *mode,
		       int producer, int consumer, int modify, int kib,
		       double ns)
{
	const char *action = modify ? "modify" : "read";
	char name[64];
	struct cp_measurement *m;

	if (producer < 0)
		snprintf(name, sizeof(name), "memory cpu %d %d KiB", consumer,
			 kib);
	else if (producer == consumer)
		snprintf(name, sizeof(name), "%s same-cpu %d>%d %d KiB",
			 action, producer, consumer, kib);
	else
		snprintf(name, sizeof(name), "%s shared-l3 %d>%d %d KiB",
			 action, producer, consumer, kib);
	m = spread(results, "xcore", mode, name, ns);
	snprintf(m->note, sizeof(m->note), "fits %s",
		 kib <= 48 ? "L1d (48 KiB)" : "L2 (2 MiB)");
	cp_measurement_add_param(m, "size_bytes", (int64_t)kib << 10);
	cp_measurement_add_param(m, "producer", producer);
	cp_measurement_add_param(m, "consumer", consumer);
	cp_measurement_add_param(m, "modify", producer < 0 ? 0 : modify);
	cp_measurement_add_param(m, "delay", 0);
	cp_measurement_add_param(m, "pair_class",
				 producer < 0 || producer == consumer ? -1 : 2);
	if (producer >= 0 && producer != consumer)
		cp_measurement_add_param(m, "penalty_milli", 30000);
}

void fixture_xcore(struct cp_results *results, const char *mode)
{
	static const int sizes[] = { 8, 64 };

	for (size_t i = 0; i < 2; i++) {
		for (int modify = 0; modify <= 1; modify++) {
			xcore_walk(results, mode, 0, 1, modify, sizes[i],
				   60 + 10 * modify);
			xcore_walk(results, mode, 0, 0, modify, sizes[i], 2);
		}
		xcore_walk(results, mode, -1, 1, 0, sizes[i], 100);
	}
}

static void c2c_pair(struct cp_results *results, const char *mode, int cas,
		     int first, int second, int cls, double ns)
{
	char name[32];
	struct cp_measurement *m;

	snprintf(name, sizeof(name), "%s %d:%d", cas ? "cas" : "flag", first,
		 second);
	m = spread(results, "c2c", mode, name, ns);
	cp_measurement_add_param(m, "first", first);
	cp_measurement_add_param(m, "second", second);
	cp_measurement_add_param(m, "pair_class", cls);
	cp_measurement_add_param(m, "cas", cas);
	cp_measurement_add_param(m, "home_cpu", first);
	cp_measurement_add_param(m, "round_trips", 1000);
}

void fixture_c2c(struct cp_results *results, const char *mode)
{
	for (int cas = 1; cas >= 0; cas--) {
		c2c_pair(results, mode, cas, 0, 1, 0, 40);
		c2c_pair(results, mode, cas, 0, 2, 2, 100);
		c2c_pair(results, mode, cas, 1, 2, 2, 120);
	}
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
