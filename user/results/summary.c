// SPDX-License-Identifier: GPL-2.0
#include "results/summary.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/cpu_pairs.h"
#include "machine/environment.h"
#include "util/name_bytes.h"
#include "stats/stats.h"

/* Under this share of lines still cached, an eviction counts as cold. */
#define COLD_WORST_PPM 10000
#define MAX_CLASSES 8

static struct cp_finding *add(struct cp_summary *s, const char *area,
			      const char *topic)
{
	struct cp_finding *f;

	if (s->nr_findings == CP_SUMMARY_MAX_FINDINGS)
		return NULL;
	f = &s->findings[s->nr_findings++];
	memset(f, 0, sizeof(*f));
	snprintf(f->area, sizeof(f->area), "%s", area);
	snprintf(f->topic, sizeof(f->topic), "%s", topic);
	f->value = f->low = f->high = NAN;
	return f;
}

static void say(struct cp_finding *f, bool measured, const char *format, ...)
	__attribute__((format(printf, 3, 4)));

static void say(struct cp_finding *f, bool measured, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	vsnprintf(f->answer, sizeof(f->answer), format, args);
	va_end(args);
	f->measured = measured;
}

static void figure(struct cp_finding *f, double value, double low,
		   double high, const char *unit)
{
	f->value = value;
	f->low = low;
	f->high = high;
	snprintf(f->unit, sizeof(f->unit), "%s", unit);
}

static void not_measured(struct cp_summary *s, const char *area,
			 const char *topic, const char *why)
{
	struct cp_finding *f = add(s, area, topic);

	if (f)
		say(f, false, "not measured (%s)", why);
}

static bool ran(const struct cp_results *r, const char *area)
{
	for (size_t i = 0; i < r->nr_measurements; i++)
		if (strcmp(r->measurements[i].area, area) == 0)
			return true;
	return false;
}

/* "user" when @area measured in user mode, else "kernel". */
static const char *mode_of(const struct cp_results *r, const char *area)
{
	for (size_t i = 0; i < r->nr_measurements; i++)
		if (strcmp(r->measurements[i].area, area) == 0 &&
		    strcmp(r->measurements[i].mode, "user") == 0)
			return "user";
	return "kernel";
}

static bool of(const struct cp_measurement *m, const char *area,
	       const char *mode)
{
	return strcmp(m->area, area) == 0 && strcmp(m->mode, mode) == 0 &&
	       m->nr_samples;
}

static int64_t param(const struct cp_measurement *m, const char *name)
{
	return cp_measurement_param(m, name, -1);
}

/* The latency measurement of @mode's first curve (the levels' curve)
 * within (@above, @upto] nearest in time to @ns, or NULL. */
static const struct cp_measurement *
plateau_point(const struct cp_results *r, const char *mode, uint64_t above,
	      uint64_t upto, double ns)
{
	const struct cp_measurement *best = NULL, *first = NULL;

	for (size_t i = 0; i < r->nr_measurements; i++) {
		const struct cp_measurement *m = &r->measurements[i];
		int64_t size = param(m, "size_bytes");

		if (!of(m, "latency", mode))
			continue;
		if (!first)
			first = m;
		if (param(m, "page_bytes") != param(first, "page_bytes") ||
		    param(m, "chases") != param(first, "chases") ||
		    size <= (int64_t)above || (upto && size > (int64_t)upto))
			continue;
		if (!best || fabs(m->stats_ns.median - ns) <
				     fabs(best->stats_ns.median - ns))
			best = m;
	}
	return best;
}

/*
 * A level's figure is the chase nearest its plateau, with that chase's own
 * interval: the plateau itself (the curve's estimate over several sizes)
 * has none, and printing it beside another size's interval could put the
 * figure outside its own bracket.
 */
static void level_answer(struct cp_finding *f,
			 const struct cp_level_estimate *l,
			 const struct cp_measurement *m, bool last)
{
	char effective[32], nominal[32], at[48] = "";
	double ns = l->latency_ns;

	if (m) {
		char size[32];

		ns = m->stats_ns.median;
		figure(f, ns, m->stats_ns.median_ci_low,
		       m->stats_ns.median_ci_high, "ns");
		cp_name_bytes((uint64_t)param(m, "size_bytes"), size,
			      sizeof(size));
		snprintf(at, sizeof(at), " (the %s chase)", size);
	} else {
		figure(f, ns, NAN, NAN, "ns");
	}
	cp_name_bytes(l->effective_bytes, effective, sizeof(effective));
	cp_name_bytes(l->nominal_bytes, nominal, sizeof(nominal));
	if (last && !l->nominal_bytes)
		say(f, true, "%.3g ns per dependent load beyond the caches%s",
		    ns, at);
	else if (last)
		say(f, true, "%.3g ns per dependent load%s; %s nominal, where the curve ended",
		    ns, at, nominal);
	else
		say(f, true, "%.3g ns per dependent load%s, effective %s of %s nominal",
		    ns, at, effective, nominal);
}

static void levels(const struct cp_results *r, struct cp_summary *s)
{
	const char *mode = mode_of(r, "latency");
	uint64_t above = 0;

	if (!r->nr_levels) {
		not_measured(s, "latency", "cache levels", ran(r, "latency")
			? "the latency curve showed no level"
			: "latency did not run");
		return;
	}
	for (size_t i = 0; i < r->nr_levels; i++) {
		const struct cp_level_estimate *l = &r->levels[i];
		bool last = i + 1 == r->nr_levels;
		const struct cp_measurement *m = plateau_point(
			r, mode, above, last ? 0 : l->effective_bytes,
			l->latency_ns);
		struct cp_finding *f = add(s, "latency", l->name);

		if (!f)
			return;
		level_answer(f, l, m, last);
		above = l->effective_bytes;
	}
}

static const struct cp_measurement *first_with(const struct cp_results *r,
					       const char *area,
					       const char *name)
{
	const char *mode = mode_of(r, area);

	for (size_t i = 0; i < r->nr_measurements; i++)
		if (of(&r->measurements[i], area, mode) &&
		    param(&r->measurements[i], name) >= 0)
			return &r->measurements[i];
	return NULL;
}

/* "; atomic increments x7.98 against padded counters": the atomic twin of
 * @classic (the same CPUs, 4-byte counters 4 B apart), whose plain
 * increments can hide most of the cost in the store buffer. */
static void atomic_beside(const struct cp_results *r,
			  const struct cp_measurement *classic, char *out,
			  size_t len)
{
	const char *plain = strstr(classic->name, " plain 4B d=4");
	char twin[sizeof(classic->name)];

	out[0] = '\0';
	if (!plain)
		return;
	snprintf(twin, sizeof(twin), "%.*s atomic 4B d=4",
		 (int)(plain - classic->name), classic->name);
	for (size_t i = 0; i < r->nr_measurements; i++) {
		const struct cp_measurement *m = &r->measurements[i];

		if (of(m, "bounce", classic->mode) &&
		    strcmp(m->name, twin) == 0 &&
		    param(m, "slowdown_padded_milli") > 0) {
			snprintf(out, len,
				 "; atomic increments x%.2f against padded counters",
				 param(m, "slowdown_padded_milli") / 1e3);
			return;
		}
	}
}

static void false_sharing(const struct cp_results *r, struct cp_summary *s)
{
	const struct cp_measurement *m = first_with(r, "bounce",
						    "classic_milli");
	struct cp_finding *f;
	char atomic[64];
	double low, high;

	if (!ran(r, "bounce")) {
		not_measured(s, "bounce", "false sharing", "bounce did not run");
		return;
	}
	f = add(s, "bounce", "false sharing");
	if (!f)
		return;
	if (!m) {
		say(f, false, "not measured (no plain 4-byte counters 4 B apart: see --distances, --width, --ops)");
		return;
	}
	atomic_beside(r, m, atomic, sizeof(atomic));
	low = param(m, "classic_low_milli") / 1e3;
	high = param(m, "classic_high_milli") / 1e3;
	figure(f, param(m, "classic_milli") / 1e3, low > 0 ? low : NAN,
	       high > 0 ? high : NAN, "x");
	say(f, true, "x%.2f: counters 4 B apart against one line apart (%s)%s",
	    f->value, m->name, atomic);
}

static void granularity(const struct cp_results *r, struct cp_summary *s)
{
	const struct cp_measurement *found = first_with(r, "bounce",
							"granularity_bytes");
	const struct cp_measurement *unsure =
		first_with(r, "bounce", "granularity_undetermined");
	struct cp_finding *f;

	if (!ran(r, "bounce")) {
		not_measured(s, "bounce", "coherence granularity", "bounce did not run");
		return;
	}
	f = add(s, "bounce", "coherence granularity");
	if (!f)
		return;
	if (found) {
		figure(f, (double)param(found, "granularity_bytes"), NAN, NAN,
		       "B");
		say(f, true, "%.0f B: counters this far apart stop slowing each other (%.*s pair)",
		    f->value, (int)strcspn(found->name, " "), found->name);
	} else if (unsure) {
		say(f, false, "undetermined: the slowdown at the smallest distance was within the run's noise");
	} else {
		say(f, false, "undetermined: bouncing never stopped over the distances measured");
	}
}

/* Prefer an 8-byte load-latency line split in the smallest buffer. */
static bool better_split(const struct cp_measurement *m,
			 const struct cp_measurement *best)
{
	bool latency8 = strncmp(m->name, "load-latency 8B ", 16) == 0;
	bool best8 = strncmp(best->name, "load-latency 8B ", 16) == 0;

	if (latency8 != best8)
		return latency8;
	return param(m, "buffer_bytes") < param(best, "buffer_bytes");
}

static void split_load(const struct cp_results *r, struct cp_summary *s)
{
	const char *mode = mode_of(r, "align");
	const struct cp_measurement *best = NULL;
	const struct cp_measurement *line = first_with(r, "align",
						       "line_detected_bytes");
	struct cp_finding *f;
	char buffer[32], detected[64] = "";

	if (!ran(r, "align")) {
		not_measured(s, "align", "split load", "align did not run");
		return;
	}
	for (size_t i = 0; i < r->nr_measurements; i++) {
		const struct cp_measurement *m = &r->measurements[i];

		if (of(m, "align", mode) && param(m, "split") == 1 &&
		    param(m, "penalty_milli") > 0 &&
		    (!best || better_split(m, best)))
			best = m;
	}
	f = add(s, "align", "split load");
	if (!f)
		return;
	if (!best) {
		say(f, false, "not measured (no access that splits a line)");
		return;
	}
	if (line && param(line, "line_detected_bytes") > 0)
		snprintf(detected, sizeof(detected),
			 "; the offset sweep puts the line at %" PRId64 " B",
			 param(line, "line_detected_bytes"));
	figure(f, param(best, "penalty_milli") / 1e3, NAN, NAN, "x");
	cp_name_bytes((uint64_t)param(best, "buffer_bytes"), buffer,
		      sizeof(buffer));
	say(f, true, "x%.2f: %" PRId64 "-byte %.*s accesses that split a line, against aligned ones (%s buffer)%s",
	    f->value, param(best, "width_bytes"),
	    (int)strcspn(best->name, " "), best->name, buffer, detected);
}

/* The "<method> <size> evict" beside first pass @pass, or NULL. */
static const struct cp_measurement *eviction_of(const struct cp_results *r,
						const struct cp_measurement *pass)
{
	size_t stem = strlen(pass->name) - strlen("first pass");
	char name[sizeof(pass->name)];

	snprintf(name, sizeof(name), "%.*sevict", (int)stem, pass->name);
	for (size_t i = 0; i < r->nr_measurements; i++)
		if (of(&r->measurements[i], "coldcache", pass->mode) &&
		    strcmp(r->measurements[i].name, name) == 0)
			return &r->measurements[i];
	return NULL;
}

/* A method's first pass, not the warm reference nor a factor sweep. */
static bool method_pass(const struct cp_measurement *m, const char *mode)
{
	size_t n = strlen(m->name);

	return of(m, "coldcache", mode) && n > 10 &&
	       strcmp(m->name + n - 10, "first pass") == 0 &&
	       strncmp(m->name, "warm ", 5) != 0 && !strstr(m->name, " x") &&
	       param(m, "cached_worst_ppm") >= 0;
}

/* The cheapest method for the working set of @size. */
static void cold_size(const struct cp_results *r, struct cp_summary *s,
		      const char *mode, int64_t size)
{
	const struct cp_measurement *best = NULL, *best_evict = NULL;
	const struct cp_measurement *least = NULL;
	char topic[40], text[32];
	struct cp_finding *f;

	for (size_t i = 0; i < r->nr_measurements; i++) {
		const struct cp_measurement *m = &r->measurements[i];
		const struct cp_measurement *evict;

		if (!method_pass(m, mode) || param(m, "size_bytes") != size)
			continue;
		if (!least || param(m, "cached_worst_ppm") <
				      param(least, "cached_worst_ppm"))
			least = m;
		evict = eviction_of(r, m);
		if (param(m, "cached_worst_ppm") >= COLD_WORST_PPM || !evict)
			continue;
		if (!best_evict ||
		    evict->stats_ns.median < best_evict->stats_ns.median) {
			best = m;
			best_evict = evict;
		}
	}
	cp_name_bytes((uint64_t)size, text, sizeof(text));
	snprintf(topic, sizeof(topic), "cold cache %.24s", text);
	f = add(s, "coldcache", topic);
	if (!f || !least)
		return;
	if (!best) {
		say(f, false, "no method left under 1 %% of lines cached in every repetition (the closest: %.*s, at worst %.2f %%)",
		    (int)strcspn(least->name, " "), least->name,
		    param(least, "cached_worst_ppm") / 1e4);
		return;
	}
	figure(f, best_evict->stats_ns.median,
	       best_evict->stats_ns.median_ci_low,
	       best_evict->stats_ns.median_ci_high, "ns");
	say(f, true, "%.*s is the cheapest method that left under 1 %% cached in every repetition: %.3g us an eviction, at worst %.2f %% cached",
	    (int)strcspn(best->name, " "), best->name, f->value / 1e3,
	    param(best, "cached_worst_ppm") / 1e4);
}

static void cold_cache(const struct cp_results *r, struct cp_summary *s)
{
	const char *mode = mode_of(r, "coldcache");
	int64_t seen[16];
	size_t nr_seen = 0;

	if (!ran(r, "coldcache")) {
		not_measured(s, "coldcache", "cold cache", "coldcache did not run");
		return;
	}
	for (size_t i = 0; i < r->nr_measurements && nr_seen < 16; i++) {
		const struct cp_measurement *m = &r->measurements[i];
		int64_t size = param(m, "size_bytes");
		bool known = false;

		if (!method_pass(m, mode))
			continue;
		for (size_t k = 0; k < nr_seen; k++)
			known |= seen[k] == size;
		if (known)
			continue;
		seen[nr_seen++] = size;
		cold_size(r, s, mode, size);
	}
	if (!nr_seen)
		not_measured(s, "coldcache", "cold cache", "no eviction method's first pass");
}

/* xcore's baseline of @mode at @size, read without delay: a block walked
 * on the CPU that read it (@own) or one read from memory.  xcore plans
 * one of each, on the CPUs of its first pair, not one per class. */
static const struct cp_measurement *
baseline_at(const struct cp_results *r, const char *mode, int64_t size,
	    bool own)
{
	for (size_t i = 0; i < r->nr_measurements; i++) {
		const struct cp_measurement *m = &r->measurements[i];
		int64_t producer = param(m, "producer");

		if (of(m, "xcore", mode) && param(m, "size_bytes") == size &&
		    param(m, "modify") == 0 && param(m, "delay") == 0 &&
		    (own ? producer >= 0 &&
				   producer == param(m, "consumer")
			 : producer == -1))
			return m;
	}
	return NULL;
}

/* The smallest block of class @cls read from another CPU, or NULL. */
static const struct cp_measurement *
smallest_transfer(const struct cp_results *r, const char *mode, int64_t cls)
{
	const struct cp_measurement *best = NULL;

	for (size_t i = 0; i < r->nr_measurements; i++) {
		const struct cp_measurement *m = &r->measurements[i];

		if (of(m, "xcore", mode) && param(m, "pair_class") == cls &&
		    param(m, "producer") >= 0 &&
		    param(m, "producer") != param(m, "consumer") &&
		    param(m, "modify") == 0 && param(m, "delay") == 0 &&
		    (!best || param(m, "size_bytes") <
				      param(best, "size_bytes")))
			best = m;
	}
	return best;
}

/* One pair class: a line another CPU wrote, read, beside the same block
 * read from the reader's own cache and from memory. */
static void transfer_class(const struct cp_results *r, struct cp_summary *s,
			   const char *mode, const struct cp_measurement *m)
{
	int64_t size = param(m, "size_bytes");
	int64_t producer = param(m, "producer"), consumer = param(m, "consumer");
	const struct cp_measurement *own = baseline_at(r, mode, size, true);
	const struct cp_measurement *memory = baseline_at(r, mode, size,
							  false);
	const char *cls = cp_pair_class_name(
		(enum cp_pair_class)param(m, "pair_class"));
	char topic[40], block[32], beside[96] = "";
	struct cp_finding *f;

	snprintf(topic, sizeof(topic), "cache transfer %.20s", cls);
	f = add(s, "xcore", topic);
	if (!f)
		return;
	figure(f, m->stats_ns.median, m->stats_ns.median_ci_low,
	       m->stats_ns.median_ci_high, "ns");
	cp_name_bytes((uint64_t)size, block, sizeof(block));
	if (own && memory)
		snprintf(beside, sizeof(beside),
			 "; from its own cache %.3g ns, from memory %.3g ns",
			 own->stats_ns.median, memory->stats_ns.median);
	say(f, true, "%.3g ns a line: CPU %" PRId64 " read a block of %s that CPU %" PRId64 " wrote (%s)%s",
	    f->value, consumer, block, producer, cls, beside);
}

static void transfers(const struct cp_results *r, struct cp_summary *s)
{
	const char *mode = mode_of(r, "xcore");
	bool any = false;

	if (!ran(r, "xcore")) {
		not_measured(s, "xcore", "cache transfer", "xcore did not run");
		return;
	}
	for (int64_t cls = 0; cls < MAX_CLASSES; cls++) {
		const struct cp_measurement *m = smallest_transfer(r, mode, cls);

		if (m) {
			transfer_class(r, s, mode, m);
			any = true;
		}
	}
	if (!any)
		not_measured(s, "xcore", "cache transfer",
			     "no block read from another CPU without delay");
}

static bool cas_of_class(const struct cp_measurement *m, const char *mode,
			 int64_t cls)
{
	return of(m, "c2c", mode) && param(m, "cas") == 1 &&
	       param(m, "pair_class") == cls;
}

/* The median of the pairs' medians of class @cls, CAS, in @mode (NaN
 * with none, or without memory: a lab machine has thousands of pairs). */
static double class_median(const struct cp_results *r, const char *mode,
			   int64_t cls, size_t *pairs)
{
	double *medians, median = NAN;
	size_t n = 0;

	for (size_t i = 0; i < r->nr_measurements; i++)
		n += cas_of_class(&r->measurements[i], mode, cls);
	*pairs = 0;
	medians = n ? malloc(n * sizeof(*medians)) : NULL;
	if (!medians)
		return NAN;
	for (size_t i = 0; i < r->nr_measurements; i++)
		if (cas_of_class(&r->measurements[i], mode, cls))
			medians[(*pairs)++] = r->measurements[i].stats_ns.median;
	median = cp_stats_median(medians, n);
	free(medians);
	return median;
}

static void c2c_class(struct cp_summary *s, const char *topic, int64_t cls,
		      double ns, size_t pairs)
{
	struct cp_finding *f = add(s, "c2c", topic);

	if (!f)
		return;
	figure(f, ns, NAN, NAN, "ns");
	say(f, true, "%s: %.3g ns a CAS round trip (one-way %.3g ns), the median of %zu pair%s",
	    cp_pair_class_name((enum cp_pair_class)cls), ns, ns / 2, pairs,
	    pairs == 1 ? "" : "s");
}

static void c2c(const struct cp_results *r, struct cp_summary *s)
{
	const char *mode = mode_of(r, "c2c");
	int64_t fastest = -1, slowest = -1;
	double fast_ns = INFINITY, slow_ns = -INFINITY;
	size_t fast_pairs = 0, slow_pairs = 0;

	if (!ran(r, "c2c")) {
		not_measured(s, "c2c", "core to core", "c2c did not run");
		return;
	}
	for (int64_t cls = 0; cls < MAX_CLASSES; cls++) {
		size_t pairs;
		double ns = class_median(r, mode, cls, &pairs);

		if (!pairs)
			continue;
		if (ns < fast_ns) {
			fast_ns = ns;
			fastest = cls;
			fast_pairs = pairs;
		}
		if (ns > slow_ns) {
			slow_ns = ns;
			slowest = cls;
			slow_pairs = pairs;
		}
	}
	if (fastest < 0) {
		not_measured(s, "c2c", "core to core", "no CAS round trip");
		return;
	}
	c2c_class(s, fastest == slowest ? "core to core" : "fastest pairs",
		  fastest, fast_ns, fast_pairs);
	if (slowest != fastest)
		c2c_class(s, "slowest pairs", slowest, slow_ns, slow_pairs);
}

/* The run's doubts are the environment's warnings (governor, boost, TSC,
 * hypervisor, load: the ones the console printed when the run began; a
 * move of the vCPUs, known only at its end) and an interruption. */
static void doubts(const struct cp_results *r, struct cp_summary *s)
{
	struct cp_env_warning warnings[CP_SUMMARY_MAX_DOUBTS];
	size_t n = cp_environment_warnings(&r->environment, warnings,
					   CP_SUMMARY_MAX_DOUBTS - 1);

	for (size_t i = 0; i < n && i < CP_SUMMARY_MAX_DOUBTS - 1; i++)
		snprintf(s->doubts[s->nr_doubts++], sizeof(s->doubts[0]),
			 "%s", warnings[i].text);
	if (r->interrupted)
		snprintf(s->doubts[s->nr_doubts++], sizeof(s->doubts[0]),
			 "the run was interrupted (%.80s): what is missing was not measured",
			 r->interrupted_reason[0] ? r->interrupted_reason
						  : "no reason recorded");
}

void cp_summary_build(const struct cp_results *results,
		      struct cp_summary *out)
{
	memset(out, 0, sizeof(*out));
	levels(results, out);
	false_sharing(results, out);
	granularity(results, out);
	split_load(results, out);
	cold_cache(results, out);
	transfers(results, out);
	c2c(results, out);
	doubts(results, out);
}
