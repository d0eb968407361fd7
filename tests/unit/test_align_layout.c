// SPDX-License-Identifier: GPL-2.0
/* The align area's arithmetic: which accesses straddle a line or a page,
 * slot counts, strides and the split offsets the area measures. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "areas/align/align_layout.h"

static void test_line_splits(void **state)
{
	(void)state;
	/* 8 bytes in a 64-byte line: offsets 57..63 straddle, 56 and 64 not. */
	for (uint64_t o = 0; o <= 128; o++)
		assert_int_equal(cp_align_splits_line(o, 8, 64),
				 (o >= 57 && o <= 63) || (o >= 121 && o <= 127));
	/* A 1-byte access never splits; a 64-byte one unless it is aligned. */
	for (uint64_t o = 0; o < 256; o++) {
		assert_false(cp_align_splits_line(o, 1, 64));
		assert_int_equal(cp_align_splits_line(o, 64, 64), o % 64 != 0);
	}
	/* 128-byte lines: 60 no longer splits, 124 does. */
	assert_false(cp_align_splits_line(60, 8, 128));
	assert_true(cp_align_splits_line(124, 8, 128));
	assert_false(cp_align_splits_line(120, 8, 128));
	/* 32 bytes at 32 fill the second half exactly; at 33 they straddle. */
	assert_false(cp_align_splits_line(32, 32, 64));
	assert_true(cp_align_splits_line(33, 32, 64));
	assert_false(cp_align_splits_line(10, 0, 64));
}

static void test_page_splits(void **state)
{
	(void)state;
	assert_true(cp_align_splits_page(4092, 8));
	assert_false(cp_align_splits_page(4088, 8));
	assert_false(cp_align_splits_page(4096, 8));
	assert_true(cp_align_splits_page(2 * 4096 - 1, 2));
	assert_false(cp_align_splits_page(4095, 1));
	/* A page split is also a line split; the kind says page. */
	assert_int_equal(cp_align_split_of(4092, 8, 64), CP_ALIGN_SPLIT_PAGE);
	assert_int_equal(cp_align_split_of(60, 8, 64), CP_ALIGN_SPLIT_LINE);
	assert_int_equal(cp_align_split_of(56, 8, 64), CP_ALIGN_SPLIT_NONE);
	assert_int_equal(cp_align_split_of(4096 + 60, 8, 64),
			 CP_ALIGN_SPLIT_LINE);
	assert_string_equal(cp_align_split_name(CP_ALIGN_SPLIT_PAGE), "page");
	assert_string_equal(cp_align_split_name(CP_ALIGN_SPLIT_NONE), "none");
}

static void test_slots(void **state)
{
	(void)state;
	/* 24 KiB at stride 256: 96 slots; the last access must fit. */
	assert_int_equal(cp_align_nr_slots(24576, 256, 0, 8), 96);
	assert_int_equal(cp_align_nr_slots(24576, 256, 250, 8), 95);
	assert_int_equal(cp_align_nr_slots(24576, 256, 248, 8), 96);
	/* Page stride: offset 4092 leaves room for 5 accesses in 24 KiB. */
	assert_int_equal(cp_align_nr_slots(24576, 4096, 4092, 8), 5);
	assert_int_equal(cp_align_nr_slots(4096, 4096, 4092, 8), 0);
	assert_int_equal(cp_align_nr_slots(4096, 4096, 4088, 8), 1);
	assert_int_equal(cp_align_nr_slots(100, 0, 0, 8), 0);
	assert_int_equal(cp_align_nr_slots(4, 64, 0, 8), 0);
}

static void test_strides_and_offsets(void **state)
{
	(void)state;
	assert_int_equal(cp_align_sweep_stride(0), 256);
	assert_int_equal(cp_align_sweep_stride(192), 256);
	assert_int_equal(cp_align_sweep_stride(257), 512);
	assert_int_equal(cp_align_sweep_stride(4159), 8192);
	/* Half the access on each side of the boundary. */
	assert_int_equal(cp_align_line_split_offset(64, 8), 60);
	assert_int_equal(cp_align_line_split_offset(64, 64), 32);
	assert_int_equal(cp_align_line_split_offset(64, 1), 63);
	assert_int_equal(cp_align_page_split_offset(8), 4092);
	assert_int_equal(cp_align_page_split_offset(32), 4080);
	for (unsigned int w = 2; w <= 64; w *= 2) {
		assert_true(cp_align_splits_line(
			cp_align_line_split_offset(64, w), w, 64));
		assert_int_equal(cp_align_split_of(
			cp_align_page_split_offset(w), w, 64),
			CP_ALIGN_SPLIT_PAGE);
		assert_true(cp_align_page_split_offset(w) <= CP_ALIGN_MAX_OFFSET);
	}
	assert_false(cp_align_splits_line(cp_align_line_split_offset(64, 1), 1,
					  64));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_splits),
		cmocka_unit_test(test_page_splits),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_strides_and_offsets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
