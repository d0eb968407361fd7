// SPDX-License-Identifier: GPL-2.0
/* Cache levels read off crafted latency curves; expected values worked out
 * by hand from the rules in areas/latency/latency_levels.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "areas/latency/latency_levels.h"

#define KiB(n) ((uint64_t)(n) << 10)
#define MiB(n) ((uint64_t)(n) << 20)

static const struct cp_nominal_level nominal[] = {
	{ "L1d", KiB(32) }, { "L2", MiB(1) }, { "L3", MiB(32) },
};

/* Plateaus 1.0 / 4.1 / 21.5 / 99 ns (L3: 20, 21, 22, 22 with the lone
 * slow point at 12 MiB passed over). */
static const struct { uint64_t size; double ns; } curve[] = {
	{ KiB(4), 1.0 }, { KiB(8), 1.0 }, { KiB(16), 1.1 }, { KiB(32), 1.2 },
	{ KiB(64), 4.0 }, { KiB(128), 4.2 }, { KiB(256), 3.9 },
	{ KiB(512), 4.5 }, { MiB(1), 6.0 }, { MiB(2), 20.0 }, { MiB(4), 21.0 },
	{ MiB(8), 22.0 }, { MiB(12), 80.0 }, { MiB(16), 22.0 },
	{ MiB(24), 90.0 }, { MiB(32), 100.0 }, { MiB(64), 101.0 },
	{ MiB(128), 99.0 },
};
#define NR_CURVE (sizeof(curve) / sizeof(curve[0]))

static size_t make_points(struct cp_curve_point *points, size_t up_to)
{
	size_t n = 0;

	for (size_t i = 0; i < NR_CURVE && curve[i].size <= up_to; i++, n++)
		points[n] = (struct cp_curve_point){
			.size_bytes = curve[i].size, .ns = curve[i].ns,
			.ticks = 2 * curve[i].ns, .cycles = 3 * curve[i].ns,
		};
	return n;
}

static void assert_near(double actual, double expected)
{
	if (fabs(actual - expected) > 1e-9)
		fail_msg("%.12g is not %.12g", actual, expected);
}

static void test_full_curve(void **state)
{
	struct cp_curve_point points[NR_CURVE];
	struct cp_level_estimate levels[CP_MAX_LEVELS];
	size_t n = make_points(points, MiB(128));

	(void)state;
	assert_int_equal(cp_latency_levels(points, n, nominal, 3, levels), 4);
	assert_string_equal(levels[0].name, "L1d");
	assert_near(levels[0].latency_ns, 1.0);
	assert_near(levels[0].latency_ticks, 2.0);
	assert_near(levels[0].latency_cycles, 3.0);
	assert_near(levels[0].threshold_ns, sqrt(1.0 * 4.1));
	assert_int_equal(levels[0].effective_bytes, KiB(32));
	assert_int_equal(levels[0].nominal_bytes, KiB(32));
	assert_string_equal(levels[1].name, "L2");
	assert_near(levels[1].latency_ns, 4.1);
	assert_int_equal(levels[1].effective_bytes, MiB(1));
	assert_string_equal(levels[2].name, "L3");
	assert_near(levels[2].latency_ns, 21.5);
	assert_near(levels[1].threshold_ns, sqrt(4.1 * 21.5));
	assert_near(levels[2].threshold_ns, sqrt(21.5 * 99.0));
	/* The spike at 12 MiB is passed over; 24 and 32 MiB rise for good. */
	assert_int_equal(levels[2].effective_bytes, MiB(16));
	assert_string_equal(levels[3].name, "memory");
	assert_near(levels[3].latency_ns, 99.0);
	assert_int_equal(levels[3].nominal_bytes, 0);
	assert_int_equal(levels[3].effective_bytes, 0);
	assert_near(levels[3].threshold_ns, 0);
}

/* A curve that stops inside L3 shows no memory level. */
static void test_curve_short_of_memory(void **state)
{
	struct cp_curve_point points[NR_CURVE];
	struct cp_level_estimate levels[CP_MAX_LEVELS];
	size_t n = make_points(points, MiB(4));

	(void)state;
	assert_int_equal(cp_latency_levels(points, n, nominal, 3, levels), 3);
	assert_string_equal(levels[2].name, "L3");
	assert_near(levels[2].threshold_ns, 0);
	assert_int_equal(levels[2].effective_bytes, 0);
}

/* A level no slower than the one before is not a level of its own. */
static void test_flat_curve(void **state)
{
	struct cp_curve_point points[NR_CURVE];
	struct cp_level_estimate levels[CP_MAX_LEVELS];
	size_t n = make_points(points, MiB(128));

	(void)state;
	for (size_t i = 0; i < n; i++)
		points[i].ns = 5.0;
	assert_int_equal(cp_latency_levels(points, n, nominal, 3, levels), 1);
	assert_string_equal(levels[0].name, "L1d");
	assert_int_equal(cp_latency_levels(points, 0, nominal, 3, levels), 0);
}

/* Without the core clock, no cycles are claimed. */
static void test_cycles_only_when_measured(void **state)
{
	struct cp_curve_point points[NR_CURVE];
	struct cp_level_estimate levels[CP_MAX_LEVELS];
	size_t n = make_points(points, MiB(128));

	(void)state;
	points[1].cycles = 0;
	assert_int_equal(cp_latency_levels(points, n, nominal, 3, levels), 4);
	assert_near(levels[0].latency_cycles, 0);
	assert_near(levels[1].latency_cycles, 3 * 4.1);
}

/*
 * A last-level cache mostly taken by other tenants (a curve measured on a
 * busy KVM guest: nominal L3 260 MiB, memory latency from 6 MiB on).  The
 * L3 plateau is the run 37, 42.2 from 4 MiB; the 2 MiB spike lies in L2's
 * range and is passed over there.
 */
static void test_contended_last_level(void **state)
{
	static const struct cp_nominal_level guest[] = {
		{ "L1d", KiB(48) }, { "L2", MiB(2) }, { "L3", MiB(260) },
	};
	static const struct { uint64_t size; double ns; } busy[] = {
		{ KiB(4), 1.65 }, { KiB(16), 1.66 }, { KiB(24), 1.65 },
		{ KiB(96), 5.5 }, { KiB(128), 5.6 }, { KiB(256), 5.5 },
		{ KiB(512), 6.2 }, { KiB(768), 7.5 }, { MiB(1), 6.9 },
		{ MiB(2), 68.1 }, { MiB(3), 36.2 }, { MiB(4), 37.0 },
		{ MiB(5), 42.2 }, { MiB(6), 131.6 }, { MiB(7), 133.7 },
		{ MiB(8), 142.7 }, { MiB(16), 129.1 }, { MiB(64), 131.0 },
		{ MiB(128), 133.0 }, { MiB(192), 128.0 }, { MiB(256), 135.0 },
	};
	struct cp_curve_point points[sizeof(busy) / sizeof(busy[0])];
	struct cp_level_estimate levels[CP_MAX_LEVELS];
	size_t n = sizeof(busy) / sizeof(busy[0]);

	(void)state;
	for (size_t i = 0; i < n; i++)
		points[i] = (struct cp_curve_point){
			.size_bytes = busy[i].size, .ns = busy[i].ns,
			.ticks = 2.3 * busy[i].ns,
		};
	assert_int_equal(cp_latency_levels(points, n, guest, 3, levels), 4);
	assert_near(levels[0].latency_ns, 1.65);
	/* L2 run from 96 KiB: 5.5 5.6 5.5 6.2 (7.5 is 36 % off, 6.9 25.5 %). */
	assert_near(levels[1].latency_ns, 5.55);
	assert_near(levels[2].latency_ns, (37.0 + 42.2) / 2);
	assert_int_equal(levels[2].effective_bytes, MiB(5));
	assert_near(levels[3].latency_ns, (128.0 + 135.0) / 2);	/* 192, 256 MiB */
	assert_near(levels[0].latency_cycles, 0);
}

/* Single loads classified by the thresholds of the full curve. */
static void test_classify(void **state)
{
	struct cp_curve_point points[NR_CURVE];
	struct cp_level_estimate levels[CP_MAX_LEVELS];
	size_t n = make_points(points, MiB(128));
	size_t found = cp_latency_levels(points, n, nominal, 3, levels);

	(void)state;
	assert_int_equal(cp_latency_classify(levels, found, 0.5), 0);
	assert_int_equal(cp_latency_classify(levels, found, 2.0), 0);
	assert_int_equal(cp_latency_classify(levels, found, 2.1), 1);
	/* Thresholds sqrt(4.1 * 21.5) = 9.389 and sqrt(21.5 * 99) = 46.14. */
	assert_int_equal(cp_latency_classify(levels, found, 9.3), 1);
	assert_int_equal(cp_latency_classify(levels, found, 9.5), 2);
	assert_int_equal(cp_latency_classify(levels, found, 46.0), 2);
	assert_int_equal(cp_latency_classify(levels, found, 46.3), 3);
	assert_int_equal(cp_latency_classify(levels, found, 1e6), 3);
	assert_int_equal(cp_latency_classify(levels, 0, 1.0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_curve),
		cmocka_unit_test(test_curve_short_of_memory),
		cmocka_unit_test(test_flat_curve),
		cmocka_unit_test(test_cycles_only_when_measured),
		cmocka_unit_test(test_contended_last_level),
		cmocka_unit_test(test_classify),
	};

	return cmocka_run_group_tests_name("latency_levels", tests, NULL, NULL);
}
