// SPDX-License-Identifier: GPL-2.0
/*
 * How the lines of a c2c pair differ: the grouping rule on chosen and on
 * recorded line medians (groups only where a gap clears the lines' noise;
 * a line far out alone only when it clears even its own noise; a noisy
 * line between two groups does not join them), a line's median and noise
 * from its timings, the judgement of a job from its segments as the
 * ping-pong numbers them, and the spread in the params, the results
 * file (c2c_pairs, read back), the console summary and the report.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "areas/c2c/c2c_line_report.h"
#include "areas/c2c/c2c_line_spread.h"
#include "areas/c2c/c2c_matrix.h"
#include "areas/c2c/c2c_pingpong.h"
#include "results/results_json.h"
#include "report/report.h"
#include "results_fixture.h"

#define MAX_LINES 1100

static double medians[MAX_LINES], noise[MAX_LINES];

/* @n lines from @from, @ns apart from @base (a small ripple), each with
 * noise @h. */
static void lines_at(size_t from, size_t n, double base, double h)
{
	for (size_t i = from; i < from + n; i++) {
		medians[i] = base + 0.1 * (double)(i % 5);
		noise[i] = h;
	}
}

static struct cp_c2c_line_spread judge(size_t n)
{
	struct cp_c2c_line_spread s;

	assert_int_equal(cp_c2c_line_spread_judge(medians, noise, n, 90, &s),
			 0);
	return s;
}

/* Nine lines near 105 ns and seven near 135, each known to half a ns:
 * two groups, counted right. */
static void test_two_clear_groups(void **state)
{
	struct cp_c2c_line_spread s;

	(void)state;
	lines_at(0, 9, 105, 0.5);
	lines_at(9, 7, 135, 0.5);
	s = judge(16);
	assert_int_equal(s.groups, 2);
	assert_int_equal(s.lines, 16);
	assert_int_equal(s.fast_lines, 9);
	assert_int_equal(s.slow_lines, 7);
	assert_true(fabs(s.fast_ns - 105.2) < 0.2);
	assert_true(fabs(s.slow_ns - 135.2) < 0.2);
	assert_true(s.noise_ns == 0.5);
}

/* Medians 100 to 104.5 ns, each known to 2 ns: one group. */
static void test_inside_noise_one_group(void **state)
{
	struct cp_c2c_line_spread s;

	(void)state;
	for (size_t i = 0; i < 16; i++) {
		medians[i] = 100 + 0.3 * (double)i;
		noise[i] = 2;
	}
	s = judge(16);
	assert_int_equal(s.groups, 1);
	assert_int_equal(s.fast_lines, 16);
	assert_int_equal(s.slow_lines, 0);
	assert_true(isnan(s.slow_ns));
	assert_true(s.range > 0.03 && s.range < 0.05);
}

/* No fixed ratio: 3 % apart is two groups when the lines are known to
 * 0.1 ns, and 30 % apart is one when they are known to 12 ns. */
static void test_noise_decides_not_ratio(void **state)
{
	(void)state;
	lines_at(0, 8, 100, 0.1);
	lines_at(8, 8, 103, 0.1);
	assert_int_equal(judge(16).groups, 2);
	lines_at(0, 8, 100, 12);
	lines_at(8, 8, 130, 12);
	assert_int_equal(judge(16).groups, 1);
}

/* One line 4 ns out but known only to 3 ns joins the others; 25 ns out
 * and known to half a ns, it is a group of its own. */
static void test_outlier_line(void **state)
{
	struct cp_c2c_line_spread s;

	(void)state;
	lines_at(0, 15, 105, 0.5);
	medians[15] = 109.5;
	noise[15] = 3;
	s = judge(16);
	assert_int_equal(s.groups, 1);
	assert_int_equal(s.fast_lines, 16);
	medians[15] = 130;
	noise[15] = 0.5;
	s = judge(16);
	assert_int_equal(s.groups, 2);
	assert_int_equal(s.fast_lines, 15);
	assert_int_equal(s.slow_lines, 1);
	assert_true(s.slow_ns == 130);
}

/* A line between two groups, too unsure of its place to be a group
 * (120 +- 20 ns), neither joins them nor stands alone; one that far out
 * (190 +- 20) clears even its own noise and does. */
static void test_noisy_line(void **state)
{
	struct cp_c2c_line_spread s;

	(void)state;
	lines_at(0, 500, 105, 0.5);
	lines_at(500, 500, 135, 0.5);
	medians[1000] = 119;
	noise[1000] = 20;
	s = judge(1001);
	assert_int_equal(s.groups, 2);
	assert_int_equal(s.fast_lines, 501);
	assert_int_equal(s.slow_lines, 500);
	medians[1000] = 230;
	s = judge(1001);
	assert_int_equal(s.groups, 3);
	assert_int_equal(s.fast_lines, 500);
	assert_int_equal(s.slow_lines, 1);
	assert_true(s.slow_ns == 230);
}

/* Slices at three distances: three groups, the fastest and the slowest
 * reported. */
static void test_three_groups(void **state)
{
	struct cp_c2c_line_spread s;

	(void)state;
	lines_at(0, 6, 105, 0.5);
	lines_at(6, 5, 120, 0.5);
	lines_at(11, 5, 135, 0.5);
	s = judge(16);
	assert_int_equal(s.groups, 3);
	assert_int_equal(s.fast_lines, 6);
	assert_int_equal(s.slow_lines, 5);
	assert_true(fabs(s.slow_ns - 135.2) < 0.2);
}

/* Too few timings of a line to know its noise: undetermined. */
static void test_too_few_visits(void **state)
{
	struct cp_c2c_line_spread s;

	(void)state;
	lines_at(0, 9, 105, 0.5);
	lines_at(9, 7, 135, 0.5);
	assert_int_equal(cp_c2c_line_spread_judge(medians, noise, 16,
						  CP_C2C_SPREAD_MIN_VISITS - 1,
						  &s), 0);
	assert_int_equal(s.groups, 0);
	assert_int_equal(s.lines, 16);
	assert_true(isnan(s.fast_ns));
}

/*
 * Recorded on the 2-vCPU Xeon guest (CAS between CPUs 0 and 1, 5999
 * samples, so 93 or 94 timings of each line): the 1024 lines' medians
 * and noise in hundredths of a ns, by line.  Their sorted medians climb
 * in steps, the slices at their distances: five groups, the fastest 107
 * lines near 104.1 ns, the slowest 40 near 144.3 (an independent
 * implementation of the rule agrees).
 */
static const int recorded[][2] = {
	{ 14071, 33 }, { 13246, 44 }, { 13610, 39 }, { 13015, 34 },
	{ 13547, 30 }, { 12027, 38 }, { 12545, 42 }, { 12443, 32 },
	{ 12035, 49 }, { 10764, 35 }, { 11931, 28 }, { 13352, 24 },
	{ 13802, 34 }, { 10792, 24 }, { 13062, 42 }, { 12336, 38 },
	{ 11461, 40 }, { 10210, 123 }, { 14418, 34 }, { 12040, 40 },
	{ 10445, 128 }, { 10190, 116 }, { 12502, 34 }, { 13603, 33 },
	{ 12046, 42 }, { 11358, 52 }, { 12448, 40 }, { 12434, 30 },
	{ 11143, 41 }, { 10330, 120 }, { 11306, 41 }, { 10770, 30 },
	{ 13952, 31 }, { 13039, 40 }, { 13114, 46 }, { 13553, 34 },
	{ 13234, 33 }, { 13429, 25 }, { 11179, 48 }, { 13930, 34 },
	{ 12002, 30 }, { 13778, 36 }, { 12012, 29 }, { 13791, 55 },
	{ 13919, 38 }, { 11647, 24 }, { 13948, 46 }, { 13072, 73 },
	{ 13792, 29 }, { 11342, 35 }, { 13426, 28 }, { 13074, 38 },
	{ 11115, 34 }, { 12435, 27 }, { 10774, 32 }, { 11328, 48 },
	{ 11840, 32 }, { 11656, 38 }, { 11686, 49 }, { 12524, 34 },
	{ 11192, 28 }, { 13939, 25 }, { 11348, 39 }, { 12318, 25 },
	{ 11831, 34 }, { 13742, 26 }, { 13773, 30 }, { 14431, 45 },
	{ 13585, 42 }, { 11846, 25 }, { 10446, 99 }, { 13590, 34 },
	{ 13837, 50 }, { 13577, 40 }, { 11638, 53 }, { 11971, 46 },
	{ 11298, 30 }, { 10143, 132 }, { 13263, 54 }, { 10409, 74 },
	{ 12550, 47 }, { 11898, 30 }, { 10301, 116 }, { 12927, 60 },
	{ 12053, 32 }, { 13050, 49 }, { 10794, 32 }, { 13244, 53 },
	{ 13625, 46 }, { 13780, 38 }, { 10803, 45 }, { 14419, 36 },
	{ 11131, 37 }, { 11463, 47 }, { 13977, 43 }, { 10453, 70 },
	{ 11714, 24 }, { 11492, 48 }, { 12044, 40 }, { 13112, 45 },
	{ 10488, 91 }, { 11889, 29 }, { 13807, 41 }, { 11373, 39 },
	{ 13792, 33 }, { 12100, 45 }, { 13257, 67 }, { 11700, 59 },
	{ 11689, 45 }, { 13772, 53 }, { 13985, 54 }, { 12536, 41 },
	{ 13995, 41 }, { 11510, 36 }, { 11474, 42 }, { 13054, 33 },
	{ 13646, 45 }, { 12433, 27 }, { 12042, 41 }, { 12538, 37 },
	{ 12475, 25 }, { 12018, 34 }, { 12434, 36 }, { 13100, 36 },
	{ 11666, 42 }, { 12324, 32 }, { 13790, 31 }, { 11875, 35 },
	{ 13323, 39 }, { 13979, 24 }, { 10476, 119 }, { 13763, 31 },
	{ 13159, 53 }, { 13047, 56 }, { 13391, 36 }, { 11493, 34 },
	{ 11185, 68 }, { 13445, 28 }, { 13618, 48 }, { 11529, 51 },
	{ 12364, 34 }, { 11795, 40 }, { 11890, 26 }, { 13134, 46 },
	{ 12582, 63 }, { 13067, 51 }, { 12339, 29 }, { 13601, 38 },
	{ 12383, 37 }, { 11668, 24 }, { 12054, 41 }, { 13805, 52 },
	{ 11161, 44 }, { 13072, 47 }, { 12922, 41 }, { 12489, 25 },
	{ 13098, 33 }, { 11382, 38 }, { 13254, 32 }, { 12066, 53 },
	{ 11714, 28 }, { 12081, 45 }, { 13382, 24 }, { 13452, 31 },
	{ 14615, 35 }, { 11177, 31 }, { 11349, 47 }, { 12054, 44 },
	{ 11136, 37 }, { 12921, 35 }, { 10755, 24 }, { 12900, 38 },
	{ 10171, 139 }, { 12507, 31 }, { 13596, 31 }, { 13381, 35 },
	{ 13565, 24 }, { 12588, 70 }, { 13110, 37 }, { 11189, 36 },
	{ 11885, 39 }, { 11895, 50 }, { 14430, 42 }, { 11162, 51 },
	{ 11712, 27 }, { 14600, 34 }, { 11970, 49 }, { 12080, 47 },
	{ 11809, 45 }, { 10499, 133 }, { 11704, 25 }, { 12089, 38 },
	{ 12617, 42 }, { 11949, 28 }, { 12349, 41 }, { 13919, 24 },
	{ 12014, 41 }, { 12051, 53 }, { 14388, 35 }, { 13441, 24 },
	{ 12085, 42 }, { 13481, 31 }, { 13782, 32 }, { 10811, 32 },
	{ 10211, 108 }, { 10352, 156 }, { 10035, 101 }, { 12064, 46 },
	{ 12074, 62 }, { 13949, 39 }, { 12029, 32 }, { 12033, 30 },
	{ 11488, 35 }, { 13088, 52 }, { 11394, 46 }, { 11395, 42 },
	{ 14448, 38 }, { 10456, 137 }, { 11326, 43 }, { 14001, 29 },
	{ 14622, 28 }, { 13103, 50 }, { 13426, 24 }, { 10264, 85 },
	{ 13225, 45 }, { 13091, 44 }, { 13842, 45 }, { 12014, 34 },
	{ 13455, 48 }, { 13197, 38 }, { 11669, 36 }, { 13419, 63 },
	{ 14434, 26 }, { 13748, 24 }, { 14453, 42 }, { 13791, 26 },
	{ 11697, 26 }, { 13800, 38 }, { 12364, 61 }, { 13832, 40 },
	{ 11288, 32 }, { 11503, 34 }, { 13040, 40 }, { 13441, 32 },
	{ 13561, 27 }, { 11732, 36 }, { 13221, 46 }, { 13592, 57 },
	{ 13969, 34 }, { 13557, 31 }, { 13046, 33 }, { 12044, 35 },
	{ 11644, 29 }, { 13549, 28 }, { 11136, 26 }, { 13239, 57 },
	{ 13652, 33 }, { 12342, 36 }, { 13606, 57 }, { 12504, 27 },
	{ 11361, 31 }, { 12063, 33 }, { 12066, 37 }, { 13561, 38 },
	{ 13433, 50 }, { 11877, 33 }, { 13585, 38 }, { 10776, 30 },
	{ 13066, 38 }, { 13032, 45 }, { 13602, 52 }, { 12523, 41 },
	{ 10798, 32 }, { 13952, 26 }, { 13763, 30 }, { 10211, 100 },
	{ 11690, 25 }, { 13770, 40 }, { 13563, 34 }, { 12403, 31 },
	{ 11282, 40 }, { 11128, 26 }, { 12907, 33 }, { 13937, 37 },
	{ 12367, 42 }, { 12041, 32 }, { 11898, 26 }, { 13255, 34 },
	{ 10350, 108 }, { 10482, 176 }, { 12376, 38 }, { 11327, 39 },
	{ 13460, 45 }, { 10217, 148 }, { 13629, 49 }, { 12051, 46 },
	{ 11318, 38 }, { 11336, 36 }, { 13636, 38 }, { 13565, 24 },
	{ 12556, 55 }, { 13202, 36 }, { 13074, 26 }, { 11806, 54 },
	{ 11667, 41 }, { 13161, 62 }, { 13934, 36 }, { 12467, 24 },
	{ 10429, 88 }, { 10264, 134 }, { 13196, 34 }, { 11960, 49 },
	{ 12027, 39 }, { 14607, 36 }, { 12453, 33 }, { 10455, 103 },
	{ 13628, 48 }, { 10102, 111 }, { 11145, 45 }, { 12067, 62 },
	{ 12521, 33 }, { 13254, 47 }, { 11408, 46 }, { 10585, 166 },
	{ 12046, 34 }, { 13741, 39 }, { 13099, 46 }, { 12097, 45 },
	{ 13600, 49 }, { 11330, 28 }, { 12028, 41 }, { 13355, 41 },
	{ 11794, 44 }, { 13043, 37 }, { 12430, 45 }, { 11965, 52 },
	{ 10236, 136 }, { 13070, 48 }, { 13554, 24 }, { 13013, 33 },
	{ 13585, 46 }, { 11763, 42 }, { 11659, 34 }, { 11376, 47 },
	{ 11926, 38 }, { 12503, 29 }, { 11135, 44 }, { 13577, 25 },
	{ 13542, 34 }, { 13760, 36 }, { 11151, 41 }, { 11210, 63 },
	{ 11484, 46 }, { 13062, 36 }, { 13197, 34 }, { 13771, 32 },
	{ 13563, 33 }, { 13732, 31 }, { 11438, 41 }, { 13640, 33 },
	{ 13916, 55 }, { 14605, 30 }, { 12534, 42 }, { 11685, 33 },
	{ 13160, 45 }, { 13238, 40 }, { 12455, 37 }, { 13457, 41 },
	{ 13289, 45 }, { 13162, 48 }, { 11094, 40 }, { 12909, 71 },
	{ 10298, 107 }, { 10466, 121 }, { 13785, 38 }, { 11812, 52 },
	{ 13224, 34 }, { 13940, 36 }, { 12450, 27 }, { 12342, 37 },
	{ 13041, 48 }, { 11346, 34 }, { 13059, 32 }, { 13260, 50 },
	{ 11227, 51 }, { 14402, 37 }, { 12069, 55 }, { 13017, 24 },
	{ 11839, 46 }, { 10151, 112 }, { 11132, 30 }, { 10134, 69 },
	{ 13799, 41 }, { 13267, 34 }, { 11874, 32 }, { 13057, 41 },
	{ 11154, 48 }, { 12345, 43 }, { 12501, 36 }, { 12435, 51 },
	{ 11353, 46 }, { 13129, 53 }, { 10551, 133 }, { 10374, 168 },
	{ 11891, 41 }, { 13226, 24 }, { 11189, 51 }, { 12055, 69 },
	{ 11197, 46 }, { 11684, 45 }, { 10771, 39 }, { 13634, 35 },
	{ 10267, 123 }, { 12026, 46 }, { 14600, 25 }, { 12350, 32 },
	{ 13794, 38 }, { 12095, 44 }, { 14426, 38 }, { 13767, 26 },
	{ 11353, 32 }, { 10134, 98 }, { 13424, 40 }, { 13057, 56 },
	{ 13951, 41 }, { 11357, 40 }, { 13722, 24 }, { 11324, 29 },
	{ 10775, 30 }, { 11307, 44 }, { 13966, 35 }, { 12072, 49 },
	{ 13809, 46 }, { 11367, 36 }, { 10471, 95 }, { 12427, 26 },
	{ 12542, 29 }, { 13112, 40 }, { 11331, 38 }, { 11332, 29 },
	{ 12418, 24 }, { 12051, 29 }, { 12504, 25 }, { 11336, 39 },
	{ 13806, 38 }, { 13040, 34 }, { 11693, 29 }, { 13806, 34 },
	{ 13822, 31 }, { 11913, 54 }, { 12513, 38 }, { 14431, 33 },
	{ 13465, 48 }, { 10225, 119 }, { 10173, 105 }, { 13368, 29 },
	{ 13627, 68 }, { 13647, 46 }, { 14565, 28 }, { 12043, 42 },
	{ 11342, 24 }, { 11160, 33 }, { 10409, 151 }, { 11104, 33 },
	{ 13366, 29 }, { 10785, 30 }, { 11452, 37 }, { 11874, 36 },
	{ 13088, 53 }, { 13369, 43 }, { 13032, 48 }, { 10214, 115 },
	{ 11358, 46 }, { 12951, 49 }, { 11709, 33 }, { 11323, 30 },
	{ 12446, 34 }, { 12447, 28 }, { 13785, 38 }, { 10444, 91 },
	{ 13210, 44 }, { 11447, 43 }, { 13531, 29 }, { 13046, 36 },
	{ 11853, 48 }, { 13737, 32 }, { 12878, 52 }, { 13049, 57 },
	{ 10392, 120 }, { 11452, 35 }, { 11321, 47 }, { 13589, 42 },
	{ 12313, 36 }, { 11960, 52 }, { 12022, 46 }, { 10224, 96 },
	{ 12474, 36 }, { 13621, 28 }, { 14585, 33 }, { 11301, 36 },
	{ 13584, 24 }, { 11834, 34 }, { 12445, 25 }, { 12967, 59 },
	{ 12351, 51 }, { 11298, 36 }, { 11452, 39 }, { 13739, 28 },
	{ 13102, 52 }, { 13595, 30 }, { 13743, 24 }, { 13620, 50 },
	{ 11527, 59 }, { 13019, 32 }, { 11156, 43 }, { 11947, 55 },
	{ 13553, 35 }, { 12054, 32 }, { 12014, 36 }, { 11931, 34 },
	{ 13359, 32 }, { 13282, 45 }, { 14399, 29 }, { 13579, 34 },
	{ 13538, 29 }, { 13093, 38 }, { 13371, 32 }, { 10202, 106 },
	{ 11339, 44 }, { 10476, 121 }, { 13211, 39 }, { 12891, 34 },
	{ 13386, 30 }, { 13745, 32 }, { 13084, 30 }, { 11660, 49 },
	{ 12454, 28 }, { 12031, 36 }, { 11748, 41 }, { 12490, 37 },
	{ 11914, 28 }, { 10445, 104 }, { 12378, 43 }, { 14432, 24 },
	{ 11958, 29 }, { 11156, 41 }, { 13522, 30 }, { 11312, 38 },
	{ 13065, 30 }, { 13031, 58 }, { 13734, 25 }, { 11467, 36 },
	{ 11953, 36 }, { 13938, 25 }, { 13579, 34 }, { 12450, 24 },
	{ 12502, 37 }, { 12922, 34 }, { 11758, 48 }, { 13980, 40 },
	{ 12047, 51 }, { 11714, 28 }, { 12500, 40 }, { 11314, 36 },
	{ 12548, 43 }, { 11469, 41 }, { 12054, 40 }, { 13061, 41 },
	{ 11341, 34 }, { 14621, 34 }, { 12513, 30 }, { 11441, 24 },
	{ 11888, 37 }, { 13210, 42 }, { 13078, 36 }, { 10780, 32 },
	{ 11771, 38 }, { 13349, 40 }, { 13092, 50 }, { 13632, 51 },
	{ 10293, 115 }, { 13926, 33 }, { 13579, 24 }, { 10460, 109 },
	{ 10788, 26 }, { 12981, 40 }, { 12003, 35 }, { 13588, 25 },
	{ 13020, 37 }, { 11445, 35 }, { 13579, 36 }, { 14482, 55 },
	{ 12060, 48 }, { 12962, 53 }, { 13435, 39 }, { 13093, 30 },
	{ 12036, 46 }, { 10462, 120 }, { 11855, 36 }, { 13052, 30 },
	{ 11357, 46 }, { 13275, 39 }, { 10374, 99 }, { 11139, 34 },
	{ 11666, 63 }, { 11670, 54 }, { 13547, 42 }, { 13826, 36 },
	{ 13063, 42 }, { 11709, 24 }, { 11473, 39 }, { 10449, 129 },
	{ 12962, 42 }, { 13998, 41 }, { 12516, 44 }, { 11729, 33 },
	{ 14388, 37 }, { 11510, 38 }, { 14419, 39 }, { 11284, 40 },
	{ 13631, 52 }, { 12328, 38 }, { 12357, 50 }, { 13051, 46 },
	{ 10211, 108 }, { 13962, 37 }, { 13815, 34 }, { 10193, 166 },
	{ 12514, 52 }, { 13623, 41 }, { 13226, 35 }, { 10207, 136 },
	{ 11458, 61 }, { 13397, 32 }, { 11860, 36 }, { 13972, 44 },
	{ 13031, 44 }, { 10784, 28 }, { 12468, 34 }, { 13249, 45 },
	{ 13400, 24 }, { 13620, 57 }, { 13962, 31 }, { 13802, 41 },
	{ 10566, 173 }, { 12438, 32 }, { 11805, 27 }, { 11156, 44 },
	{ 13850, 58 }, { 11712, 70 }, { 12489, 24 }, { 13964, 38 },
	{ 11483, 52 }, { 12496, 64 }, { 10174, 131 }, { 11349, 60 },
	{ 11372, 37 }, { 13051, 36 }, { 13922, 30 }, { 10297, 88 },
	{ 12922, 55 }, { 11954, 44 }, { 13785, 37 }, { 12030, 26 },
	{ 13580, 50 }, { 11726, 30 }, { 10229, 115 }, { 10776, 46 },
	{ 13603, 38 }, { 13228, 37 }, { 11485, 36 }, { 11801, 32 },
	{ 10491, 100 }, { 13096, 60 }, { 13567, 25 }, { 11676, 33 },
	{ 12467, 42 }, { 11356, 45 }, { 12448, 29 }, { 12043, 34 },
	{ 13024, 33 }, { 11677, 60 }, { 13036, 45 }, { 11487, 50 },
	{ 11145, 30 }, { 13944, 44 }, { 11464, 45 }, { 12081, 41 },
	{ 11984, 47 }, { 13085, 38 }, { 13379, 40 }, { 11721, 40 },
	{ 13970, 25 }, { 12362, 51 }, { 13413, 37 }, { 12400, 57 },
	{ 11163, 27 }, { 12555, 44 }, { 13943, 36 }, { 11154, 34 },
	{ 13052, 29 }, { 12080, 48 }, { 11453, 33 }, { 14640, 30 },
	{ 12386, 36 }, { 13942, 37 }, { 13749, 24 }, { 13370, 32 },
	{ 12361, 32 }, { 11322, 39 }, { 13385, 39 }, { 11456, 46 },
	{ 12301, 33 }, { 11154, 34 }, { 13788, 36 }, { 11689, 24 },
	{ 10322, 111 }, { 11317, 46 }, { 11680, 32 }, { 13841, 45 },
	{ 13254, 43 }, { 12075, 63 }, { 10510, 110 }, { 11301, 32 },
	{ 11222, 49 }, { 11334, 27 }, { 12432, 30 }, { 11177, 49 },
	{ 13105, 43 }, { 14594, 29 }, { 13989, 45 }, { 11295, 44 },
	{ 13597, 40 }, { 11968, 39 }, { 13218, 38 }, { 12505, 46 },
	{ 12057, 36 }, { 11669, 41 }, { 11108, 36 }, { 12012, 44 },
	{ 12042, 33 }, { 11711, 45 }, { 11170, 38 }, { 11193, 48 },
	{ 11286, 49 }, { 13369, 26 }, { 13764, 33 }, { 13778, 34 },
	{ 13600, 46 }, { 11291, 34 }, { 10213, 88 }, { 12062, 58 },
	{ 13562, 30 }, { 13034, 32 }, { 13589, 24 }, { 13952, 42 },
	{ 11275, 29 }, { 13192, 31 }, { 11766, 32 }, { 11684, 49 },
	{ 13655, 50 }, { 14612, 37 }, { 11190, 29 }, { 11437, 36 },
	{ 12046, 38 }, { 12956, 49 }, { 11654, 41 }, { 13105, 41 },
	{ 13089, 24 }, { 13546, 27 }, { 10763, 32 }, { 11876, 44 },
	{ 11991, 45 }, { 10142, 96 }, { 13058, 47 }, { 13772, 25 },
	{ 10141, 83 }, { 12887, 53 }, { 12035, 42 }, { 13937, 41 },
	{ 13123, 36 }, { 13780, 33 }, { 11320, 34 }, { 13963, 42 },
	{ 11823, 46 }, { 12922, 41 }, { 12519, 32 }, { 12326, 38 },
	{ 13002, 38 }, { 11656, 36 }, { 13807, 53 }, { 10028, 105 },
	{ 13225, 38 }, { 12026, 38 }, { 11839, 30 }, { 13769, 26 },
	{ 13242, 38 }, { 12000, 24 }, { 13924, 26 }, { 13074, 50 },
	{ 13134, 45 }, { 11156, 24 }, { 13555, 30 }, { 10772, 27 },
	{ 12118, 48 }, { 13030, 32 }, { 13366, 33 }, { 13841, 51 },
	{ 12367, 38 }, { 12472, 31 }, { 12444, 29 }, { 11968, 37 },
	{ 12523, 54 }, { 13741, 24 }, { 11808, 41 }, { 13825, 42 },
	{ 13992, 35 }, { 13566, 30 }, { 13969, 33 }, { 13241, 34 },
	{ 12048, 43 }, { 12046, 53 }, { 12551, 48 }, { 13646, 50 },
	{ 13344, 28 }, { 11865, 41 }, { 11666, 45 }, { 12899, 25 },
	{ 13466, 30 }, { 12039, 53 }, { 13129, 40 }, { 13411, 38 },
	{ 12057, 27 }, { 10771, 30 }, { 11346, 38 }, { 14393, 42 },
	{ 11320, 32 }, { 13618, 36 }, { 12327, 37 }, { 13055, 45 },
	{ 12051, 27 }, { 12368, 56 }, { 11713, 46 }, { 11855, 32 },
	{ 12097, 46 }, { 12917, 45 }, { 14379, 28 }, { 13255, 51 },
	{ 14421, 24 }, { 11824, 70 }, { 10358, 127 }, { 12036, 42 },
	{ 10779, 28 }, { 11872, 25 }, { 12353, 35 }, { 13250, 49 },
	{ 10341, 127 }, { 12497, 48 }, { 13044, 40 }, { 12957, 41 },
	{ 13962, 29 }, { 13353, 24 }, { 13599, 33 }, { 14630, 33 },
	{ 12499, 30 }, { 13846, 58 }, { 11708, 46 }, { 13756, 42 },
	{ 13062, 36 }, { 13255, 45 }, { 11286, 40 }, { 12499, 53 },
	{ 12924, 46 }, { 13729, 27 }, { 11210, 40 }, { 12492, 33 },
	{ 12057, 40 }, { 10216, 112 }, { 12318, 42 }, { 13056, 39 },
	{ 13736, 24 }, { 12354, 48 }, { 11342, 26 }, { 13214, 33 },
	{ 13815, 33 }, { 12025, 40 }, { 12468, 30 }, { 13418, 26 },
	{ 14381, 24 }, { 12352, 42 }, { 13444, 30 }, { 12048, 41 },
	{ 11266, 35 }, { 12560, 54 }, { 13251, 50 }, { 13986, 41 },
	{ 10361, 133 }, { 13562, 29 }, { 12055, 45 }, { 13416, 33 },
	{ 12059, 38 }, { 11924, 27 }, { 13594, 32 }, { 10423, 116 },
	{ 13762, 34 }, { 11884, 32 }, { 13761, 32 }, { 13586, 45 },
	{ 14382, 33 }, { 11973, 30 }, { 13044, 37 }, { 13079, 68 },
	{ 10269, 110 }, { 11289, 36 }, { 13950, 34 }, { 13496, 37 },
	{ 14627, 29 }, { 12039, 34 }, { 13429, 34 }, { 10159, 121 },
	{ 13023, 28 }, { 10461, 126 }, { 11462, 48 }, { 13769, 36 },
	{ 13055, 30 }, { 13384, 34 }, { 10328, 140 }, { 14443, 27 },
	{ 13019, 37 }, { 12353, 40 }, { 12026, 26 }, { 13280, 38 },
	{ 10292, 102 }, { 13646, 67 }, { 13605, 45 }, { 10791, 29 },
	{ 11295, 30 }, { 12306, 24 }, { 11132, 35 }, { 13475, 34 },
	{ 12473, 42 }, { 13104, 50 }, { 12434, 25 }, { 11139, 38 },
	{ 12030, 35 }, { 12085, 47 }, { 11347, 44 }, { 13586, 46 },
	{ 13793, 28 }, { 13932, 24 }, { 11515, 37 }, { 13996, 36 },
	{ 13968, 39 }, { 11996, 31 }, { 12051, 48 }, { 13934, 33 },
	{ 12495, 34 }, { 14410, 24 }, { 11642, 45 }, { 13082, 46 },
	{ 11511, 44 }, { 12522, 28 }, { 11927, 49 }, { 10547, 132 },
	{ 10777, 39 }, { 11316, 29 }, { 11764, 43 }, { 13555, 34 },
	{ 12322, 45 }, { 10311, 137 }, { 10080, 104 }, { 11436, 48 },
	{ 11791, 43 }, { 11953, 40 }, { 11887, 45 }, { 12510, 40 },
	{ 13035, 32 }, { 11329, 44 }, { 11458, 42 }, { 13087, 33 },
	{ 12464, 29 }, { 14593, 24 }, { 11457, 28 }, { 10420, 55 },
	{ 13803, 41 }, { 13050, 39 }, { 11316, 34 }, { 12042, 37 },
	{ 12515, 24 }, { 10426, 73 }, { 13270, 52 }, { 13077, 56 },
	{ 12922, 42 }, { 13065, 33 }, { 13121, 46 }, { 13760, 37 },
	{ 10502, 110 }, { 14407, 40 }, { 13445, 30 }, { 12450, 24 },
	{ 11330, 41 }, { 11688, 25 }, { 13106, 42 }, { 12895, 30 },
	{ 11449, 36 }, { 12008, 29 }, { 12041, 31 }, { 13796, 56 },
	{ 11930, 24 }, { 13418, 28 }, { 13202, 28 }, { 11431, 31 },
	{ 12907, 45 }, { 11309, 38 }, { 13767, 32 }, { 13080, 43 },
	{ 11302, 45 }, { 13552, 24 }, { 13924, 46 }, { 13568, 40 },
	{ 14413, 32 }, { 10054, 103 }, { 10202, 98 }, { 12324, 51 },
};

static void test_recorded(void **state)
{
	size_t n = sizeof(recorded) / sizeof(recorded[0]);
	struct cp_c2c_line_spread s;

	(void)state;
	assert_int_equal(n, 1024);
	for (size_t i = 0; i < n; i++) {
		medians[i] = recorded[i][0] / 100.0;
		noise[i] = recorded[i][1] / 100.0;
	}
	s = judge(n);
	assert_int_equal(s.groups, 5);
	assert_int_equal(s.fast_lines, 107);
	assert_int_equal(s.slow_lines, 40);
	assert_true(fabs(s.fast_ns - 104.09) < 1e-9);
	assert_true(fabs(s.slow_ns - 144.33) < 1e-9);
	assert_true(fabs(s.range - 0.3469) < 1e-4);
	assert_true(s.noise_ns == 0.38);
}

/* A line's median and the half width of its median's 95 % interval:
 * order statistics 40 and 61 of 1..100; all of few timings. */
static void test_line_value(void **state)
{
	double values[100], median, h;

	(void)state;
	for (int i = 0; i < 100; i++)
		values[i] = 100 - i;	/* sorted in place */
	cp_c2c_line_value(values, 100, &median, &h);
	assert_true(median == 50.5);
	assert_true(h == (61.0 - 40.0) / 2);
	assert_true(values[0] == 1);
	values[0] = 7;
	values[1] = 3;
	values[2] = 5;
	values[3] = 4;
	values[4] = 6;
	cp_c2c_line_value(values, 5, &median, &h);
	assert_true(median == 5);
	assert_true(h == 2);
}

/* One job's lines judged alone. */
static int of_segments(const uint64_t *ticks, unsigned int samples,
		       double resolution_ticks, struct cp_c2c_line_spread *s)
{
	struct cp_c2c_line_values lines = { 0 };
	int ret = cp_c2c_line_values_add(&lines, ticks, samples, 160, 1e9,
					 resolution_ticks);

	if (!ret)
		ret = cp_c2c_line_values_judge(&lines, s);
	cp_c2c_line_values_free(&lines);
	return ret;
}

/*
 * A job as the ping-pong numbers its segments (sample by sample, the pool
 * in turn): 320 samples of 160 round trips at 1 GHz, 5 timings of each
 * of 1024 lines; every fourth line 135 ns, the others 105, the timings
 * of a line 1 ns apart.  The noise is at least the timer's step.
 */
static void test_of_segments(void **state)
{
	unsigned int samples = 320;
	size_t segments = (size_t)samples * CP_C2C_LINES_PER_SAMPLE;
	uint64_t *ticks = malloc(segments * sizeof(*ticks));
	struct cp_c2c_line_spread s;

	(void)state;
	assert_non_null(ticks);
	assert_int_equal(cp_c2c_pool_lines(samples), 1024);
	for (size_t g = 0; g < segments; g++) {
		unsigned int line = cp_c2c_line_of_segment(g, 1024);
		uint32_t trips = cp_c2c_segment_trips(160,
			(unsigned int)(g % CP_C2C_LINES_PER_SAMPLE));
		double ns = (line % 4 ? 105 : 135) + (double)(g / 1024);

		ticks[g] = (uint64_t)llround(ns * trips);
	}
	assert_int_equal(of_segments(ticks, samples, 1, &s), 0);
	assert_int_equal(s.visits, 5);
	assert_int_equal(s.groups, 2);
	assert_int_equal(s.fast_lines, 768);
	assert_int_equal(s.slow_lines, 256);
	assert_true(s.fast_ns == 107);
	assert_true(s.slow_ns == 137);
	/* A timer step of 100 ticks is 10 ns a round trip of these 10-trip
	 * segments: more noise than the 30 ns gap clears, one group. */
	assert_int_equal(of_segments(ticks, samples, 100, &s), 0);
	assert_int_equal(s.groups, 1);
	/* 64 samples: each line timed once. */
	assert_int_equal(of_segments(ticks, 64, 1, &s), 0);
	assert_int_equal(s.groups, 0);
	assert_int_equal(s.visits, 1);
	free(ticks);
}

/* A job of @samples samples of 160 round trips at 1 GHz whose every line
 * takes @ns, its timings 1 ns apart. */
static uint64_t *job_of(unsigned int samples, double ns)
{
	size_t segments = (size_t)samples * CP_C2C_LINES_PER_SAMPLE;
	uint64_t *ticks = malloc(segments * sizeof(*ticks));
	unsigned int pool = cp_c2c_pool_lines(samples);

	assert_non_null(ticks);
	for (size_t g = 0; g < segments; g++) {
		uint32_t trips = cp_c2c_segment_trips(160,
			(unsigned int)(g % CP_C2C_LINES_PER_SAMPLE));

		ticks[g] = (uint64_t)llround((ns + (double)(g / pool)) *
					     trips);
	}
	return ticks;
}

/*
 * A measurement's rounds each place their lines anew: the lines of every
 * round are judged together.  Two rounds whose lines are 105 and 135 ns
 * are two groups of 1024 lines each; a third round whose lines are timed
 * once leaves the whole spread undetermined, as its fewest timings say.
 */
static void test_line_values_of_rounds(void **state)
{
	struct cp_c2c_line_values lines = { 0 };
	struct cp_c2c_line_spread s;
	uint64_t *fast = job_of(320, 105), *slow = job_of(400, 135);
	uint64_t *short_job = job_of(64, 120);

	(void)state;
	assert_int_equal(cp_c2c_line_values_add(&lines, fast, 320, 160, 1e9,
						 1), 0);
	assert_int_equal(cp_c2c_line_values_add(&lines, slow, 400, 160, 1e9,
						 1), 0);
	assert_int_equal(cp_c2c_line_values_judge(&lines, &s), 0);
	assert_int_equal(s.lines, 2048);
	assert_int_equal(s.visits, 5);
	assert_int_equal(s.rounds, 2);
	assert_int_equal(s.groups, 2);
	assert_int_equal(s.fast_lines, 1024);
	assert_int_equal(s.slow_lines, 1024);
	assert_int_equal(cp_c2c_line_values_add(&lines, short_job, 64, 160,
						 1e9, 1), 0);
	assert_int_equal(cp_c2c_line_values_judge(&lines, &s), 0);
	assert_int_equal(s.lines, 3072);
	assert_int_equal(s.visits, 1);
	assert_int_equal(s.groups, 0);
	assert_int_equal(s.rounds, 3);
	assert_int_equal(cp_c2c_spread_samples_needed(3), 960);
	cp_c2c_line_values_free(&lines);
	free(fast);
	free(slow);
	free(short_job);
}

/* A user-mode c2c measurement of 0:1 with @samples samples of @ns and
 * @spread in its params. */
static void add_pair(struct cp_results *results, int cas, double ns,
		     size_t samples, const struct cp_c2c_line_spread *spread)
{
	double *values = malloc(samples * sizeof(*values));
	struct cp_measurement *m;

	assert_non_null(values);
	for (size_t i = 0; i < samples; i++)
		values[i] = ns;
	m = fixture_area_measurement(results, "c2c", "user",
				     cas ? "cas 0:1" : "flag 0:1", values,
				     samples);
	free(values);
	cp_measurement_add_param(m, "first", 0);
	cp_measurement_add_param(m, "second", 1);
	cp_measurement_add_param(m, "pair_class", 2);
	cp_measurement_add_param(m, "cas", cas);
	cp_measurement_add_param(m, "home_cpu", 0);
	cp_measurement_add_param(m, "round_trips", 1500);
	cp_measurement_add_param(m, "home_node", 0);
	cp_measurement_add_param(m, "membind", 0);
	if (spread)
		assert_int_equal(cp_c2c_line_spread_store(m, spread), 0);
}

static const struct cp_c2c_line_spread split_spread = {
	.groups = 2, .lines = 1024, .visits = 93, .fast_lines = 809,
	.slow_lines = 215,
	.fast_ns = 120.6, .slow_ns = 166.4, .range = 0.41,
};
static const struct cp_c2c_line_spread one_spread = {
	.groups = 1, .lines = 1024, .visits = 93, .fast_lines = 1024,
	.fast_ns = 123.4,
	.slow_ns = NAN, .range = 0.161,
};

static json_object *member(json_object *object, const char *key)
{
	json_object *value = NULL;

	if (!json_object_object_get_ex(object, key, &value))
		fail_msg("no \"%s\"", key);
	return value;
}

static double number(json_object *object, const char *key)
{
	return json_object_get_double(member(object, key));
}

/* c2c_pairs carries the spread: groups, lines, timings a line, each
 * group's lines, round trip and one-way (half), the ratio. */
static void assert_pairs_json(json_object *root)
{
	json_object *pairs = member(root, "c2c_pairs");
	json_object *split, *one, *group;

	assert_int_equal(json_object_array_length(pairs), 3);
	split = member(json_object_array_get_idx(pairs, 0), "line_spread");
	assert_int_equal(json_object_get_int(member(split, "groups")), 2);
	assert_int_equal(json_object_get_int(member(split, "lines")), 1024);
	assert_int_equal(json_object_get_int(member(split,
						    "visits_per_line")), 93);
	group = member(split, "fast_group");
	assert_int_equal(json_object_get_int(member(group, "lines")), 809);
	assert_true(number(group, "round_trip_ns") == 120.6);
	assert_true(number(group, "one_way_ns") == 60.3);
	group = member(split, "slow_group");
	assert_int_equal(json_object_get_int(member(group, "lines")), 215);
	assert_true(number(group, "round_trip_ns") == 166.4);
	assert_true(number(group, "one_way_ns") == 83.2);
	assert_true(fabs(number(split, "slow_over_fast") - 166.4 / 120.6) <
		    1e-9);
	assert_true(number(split, "range_percent") == 41);
	one = member(json_object_array_get_idx(pairs, 1), "line_spread");
	assert_int_equal(json_object_get_int(member(one, "groups")), 1);
	assert_null(member(one, "slow_group"));
	assert_null(member(one, "slow_over_fast"));
	/* Kernel mode: no spread. */
	assert_false(json_object_object_get_ex(
		json_object_array_get_idx(pairs, 2), "line_spread", NULL));
}

static void fill(struct cp_results *results)
{
	fixture_results(results);
	add_pair(results, 0, 130, 5999, &split_spread);
	add_pair(results, 1, 124, 5999, &one_spread);
	add_pair(results, 1, 120, 15, NULL);
	snprintf(results->measurements[2].mode,
		 sizeof(results->measurements[2].mode), "kernel");
}

static void test_results_file(void **state)
{
	struct cp_results results, back;
	struct cp_c2c_line_spread s;
	struct text_capture text;
	struct cp_error error;
	json_object *root;
	char *path;

	(void)state;
	fill(&results);
	capture_text_begin(&text);
	assert_int_equal(cp_results_write_json(&results, text.stream), 0);
	capture_text_end(&text);
	root = json_tokener_parse(text.text);
	assert_non_null(root);
	assert_pairs_json(root);
	json_object_put(root);
	free(text.text);
	/* Read back: the params hold it, and c2c_pairs comes out the same. */
	path = fixture_write_json(&results, "c2c.json");
	cp_results_init(&back);
	assert_int_equal(cp_results_read_json(path, &back, &error), 0);
	assert_true(cp_c2c_line_spread_load(&back.measurements[0], &s));
	assert_int_equal(s.groups, 2);
	assert_int_equal(s.slow_lines, 215);
	assert_true(s.slow_ns == 166.4);
	assert_false(cp_c2c_line_spread_load(&back.measurements[2], &s));
	/* A file from before rounds has no line_visits: one job's, from
	 * its samples. */
	for (size_t i = 0; i < back.measurements[0].nr_params; i++)
		if (!strcmp(back.measurements[0].params[i].name,
			    "line_visits"))
			snprintf(back.measurements[0].params[i].name,
				 sizeof(back.measurements[0].params[i].name),
				 "older");
	assert_true(cp_c2c_line_spread_load(&back.measurements[0], &s));
	assert_int_equal(s.visits, 5999 * 16 / 1024);
	assert_int_equal(s.rounds, 1);
	capture_text_begin(&text);
	assert_int_equal(cp_results_write_json(&back, text.stream), 0);
	capture_text_end(&text);
	root = json_tokener_parse(text.text);
	assert_pairs_json(root);
	json_object_put(root);
	free(text.text);
	fixture_remove(path);
	cp_results_free(&back);
	cp_results_free(&results);
}

/* The console: a line or two per variant, answers first. */
static void test_console(void **state)
{
	struct cp_results results;
	struct cp_c2c_matrix *m;
	struct text_capture text;
	size_t nr;

	(void)state;
	fill(&results);
	assert_int_equal(cp_c2c_matrices(&results, &m, &nr), 0);
	assert_int_equal(nr, 3);
	capture_text_begin(&text);
	for (size_t i = 0; i < nr; i++)
		cp_c2c_summary_print(text.stream, &m[i]);
	capture_text_end(&text);
	assert_non_null(strstr(text.text,
			       "flag   user   per line:      2 groups: 809 of 1024 lines near 120.6 ns, 215 near 166.4 ns (x1.38)\n"
			       "         round trip (one-way 60.3 and 83.2 ns); a sample mixes 16 lines, a one-line tool (c2clat) sees its line's group\n"));
	assert_non_null(strstr(text.text,
			       "cas    user   per line:      one group: no gap between the 1024 lines beyond their noise, 90 % of them within 16.1 % (median 123.4 ns round trip)\n"));
	assert_null(strstr(text.text, "kernel per line"));
	free(text.text);
	cp_c2c_matrices_free(m, nr);
	cp_results_free(&results);
}

/* Too few samples for a spread: the console says why and what to ask. */
static void test_console_undetermined(void **state)
{
	struct cp_c2c_line_spread s;
	struct cp_c2c_spread_summary summary;
	struct text_capture text;

	(void)state;
	assert_int_equal(cp_c2c_line_spread_judge(NULL, NULL, 240, 1, &s), 0);
	assert_int_equal(cp_c2c_spread_summarize(&s, 1, &summary), 0);
	capture_text_begin(&text);
	cp_c2c_spread_print(text.stream, "cas", "user", &summary);
	capture_text_end(&text);
	assert_string_equal(text.text,
			    "  cas    user   per line:      undetermined: each of 240 lines timed once, 5 needed (--samples 320)\n");
	free(text.text);
	/* Samples spread over rounds: what to ask names the rounds too. */
	summary.rounds = 5;
	capture_text_begin(&text);
	cp_c2c_spread_print(text.stream, "cas", "user", &summary);
	capture_text_end(&text);
	assert_string_equal(text.text,
			    "  cas    user   per line:      undetermined: each of 240 lines timed once, 5 needed (--samples 1600 --rounds 5)\n");
	free(text.text);
}

/* Many pairs: medians over the split ones, and how many were not. */
static void test_summary_of_pairs(void **state)
{
	struct cp_c2c_line_spread spreads[3] = { split_spread, split_spread,
						 one_spread };
	struct cp_c2c_spread_summary s;
	struct text_capture text;

	(void)state;
	spreads[1].fast_ns = 110.6;
	spreads[1].slow_ns = 150.4;
	spreads[1].fast_lines = 509;
	spreads[1].slow_lines = 515;
	assert_int_equal(cp_c2c_spread_summarize(spreads, 3, &s), 0);
	assert_int_equal(s.pairs, 3);
	assert_int_equal(s.split, 2);
	assert_int_equal(s.one_group, 1);
	assert_true(s.fast_ns == 115.6);
	assert_true(s.slow_ns == 158.4);
	assert_true(fabs(s.fast_share - (809.0 + 509.0) / 2048) < 1e-9);
	assert_true(s.widest_range == 0.41);
	capture_text_begin(&text);
	cp_c2c_spread_print(text.stream, "flag", "user", &s);
	capture_text_end(&text);
	assert_string_equal(text.text,
			    "  flag   user   per line:      2 of 3 pairs in 2 groups: the fastest near 115.6 ns (64 % of lines), the slowest near 158.4 ns (36 %, x1.37)\n"
			    "         round trip, medians over those pairs (one-way half); 1 pairs one group, 0 undetermined\n");
	free(text.text);
}

/* The report's c2c section has the table, with both groups. */
static void test_report(void **state)
{
	struct cp_results results;
	struct text_capture text;

	(void)state;
	fill(&results);
	capture_text_begin(&text);
	assert_int_equal(cp_report_write(&results, text.stream), 0);
	capture_text_end(&text);
	assert_non_null(strstr(text.text, "the lines of a pair"));
	assert_non_null(strstr(text.text, "809 of 1024"));
	assert_non_null(strstr(text.text, "x1.38"));
	assert_null(strstr(text.text, "nan"));
	free(text.text);
	cp_results_free(&results);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_clear_groups),
		cmocka_unit_test(test_inside_noise_one_group),
		cmocka_unit_test(test_noise_decides_not_ratio),
		cmocka_unit_test(test_outlier_line),
		cmocka_unit_test(test_noisy_line),
		cmocka_unit_test(test_three_groups),
		cmocka_unit_test(test_too_few_visits),
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_line_value),
		cmocka_unit_test(test_of_segments),
		cmocka_unit_test(test_line_values_of_rounds),
		cmocka_unit_test(test_results_file),
		cmocka_unit_test(test_console),
		cmocka_unit_test(test_console_undetermined),
		cmocka_unit_test(test_summary_of_pairs),
		cmocka_unit_test(test_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
