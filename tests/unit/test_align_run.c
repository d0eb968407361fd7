// SPDX-License-Identifier: GPL-2.0
/* The align loops on this CPU: every kind at every width it can do,
 * aligned, line-split and page-split, does the accesses it claims (the
 * checksums and the stored pattern agree), and the checks catch a buffer
 * that does not hold what the loops expect. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "areas/align/align_classic.h"
#include "areas/align/align_layout.h"
#include "areas/align/align_run.h"
#include "areas/align/align_widths.h"

static struct cp_align_cpu cpu;

static int read_cpu(void **state)
{
	(void)state;
	cp_align_cpu_read(&cpu);
	return 0;
}

static void run_checked(enum cp_align_kind kind, unsigned int width,
			uint32_t offset, uint32_t stride, uint64_t size)
{
	struct cp_align_access access = {
		.kind = kind, .width = width, .offset = offset,
		.stride = stride, .size = size, .seed = 7,
	};
	struct cp_align_run run;

	assert_int_equal(cp_align_run_build(&run, &access), 0);
	assert_true(cp_align_run_verify(&run));
	/* Counts that end mid-cycle and mid-table too. */
	for (uint64_t count = 1; count < 40; count += 13)
		cp_align_run_body(&run, count);
	assert_true(run.hops || run.laps);
	if (!cp_align_run_verify(&run))
		fail_msg("%s %uB at offset %u stride %u: check failed",
			 cp_align_kind_name(kind), width, offset, stride);
	cp_align_run_free(&run);
}

static void test_every_width_and_kind(void **state)
{
	(void)state;
	for (int k = 0; k < CP_ALIGN_NR_KINDS; k++)
		for (int i = 0; i < CP_ALIGN_NR_WIDTHS; i++) {
			unsigned int w = cp_align_widths[i];

			if (cp_align_width_unsupported(w, &cpu))
				continue;
			run_checked(k, w, 0, 256, 24576);
			run_checked(k, w, cp_align_line_split_offset(64, w), 256,
				    24576);
			run_checked(k, w, cp_align_page_split_offset(w), 4096,
				    9 * 4096);
		}
}

/* A wrong value where the loops load shows in the check. */
static void test_checks_catch_corruption(void **state)
{
	struct cp_align_access access = {
		.kind = CP_ALIGN_LOAD_THROUGHPUT, .width = 8, .offset = 60,
		.stride = 256, .size = 8192, .seed = 1,
	};
	struct cp_align_run run;

	(void)state;
	assert_int_equal(cp_align_run_build(&run, &access), 0);
	run.buffer[256 + 61] ^= 1;
	cp_align_run_body(&run, 3);
	assert_false(cp_align_run_verify(&run));
	cp_align_run_free(&run);

	/* Stores that did not all land. */
	access.kind = CP_ALIGN_STORE_THROUGHPUT;
	assert_int_equal(cp_align_run_build(&run, &access), 0);
	cp_align_run_body(&run, 2);
	assert_true(cp_align_run_verify(&run));
	run.buffer[2 * 256 + 62] ^= 0x10;
	assert_false(cp_align_run_verify(&run));
	cp_align_run_free(&run);

	/* (A nonzero value in the 1- to 4-byte chain sends it off its
	 * slots, so only the chase is tampered with here.) */
	access.kind = CP_ALIGN_LOAD_LATENCY;
	assert_int_equal(cp_align_run_build(&run, &access), 0);
	run.hops = 1;	/* claims a hop the chase did not make */
	assert_false(cp_align_run_verify(&run));
	cp_align_run_free(&run);
}

static void test_refusals(void **state)
{
	struct cp_align_access access = {
		.kind = CP_ALIGN_LOAD_THROUGHPUT, .width = 8, .offset = 0,
		.stride = 256, .size = 3 * 256, .seed = 1,
	};
	struct cp_align_run run;

	(void)state;
	/* Three slots: fewer than one group of four. */
	assert_int_equal(cp_align_run_build(&run, &access), -EINVAL);
	access.size = 4096;
	access.width = 3;
	assert_int_equal(cp_align_run_build(&run, &access), -EINVAL);
	access.width = 64;
	access.stride = 32;
	assert_int_equal(cp_align_run_build(&run, &access), -EINVAL);
	access.stride = 256;
	access.offset = 4090;
	assert_int_equal(cp_align_run_build(&run, &access), -EINVAL);
}

static void test_classic(void **state)
{
	struct cp_align_classic classic;

	(void)state;
	assert_int_equal(cp_align_classic_lines_per_step(64, 0), 1);
	assert_int_equal(cp_align_classic_lines_per_step(64, 31), 1);
	assert_int_equal(cp_align_classic_lines_per_step(64, 32), 2);
	for (uint32_t shift = 30; shift <= 33; shift++) {
		assert_int_equal(cp_align_classic_build(&classic, 98304, 64,
							shift), 0);
		assert_int_equal(classic.steps, 512);
		cp_align_classic_body(&classic, 5);
		assert_true(cp_align_classic_verify(&classic));
		classic.buffer[shift + 192] ^= 1;
		cp_align_classic_body(&classic, 1);
		assert_false(cp_align_classic_verify(&classic));
		cp_align_classic_free(&classic);
	}
	assert_int_equal(cp_align_classic_build(&classic, 98304, 64, 64),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_width_and_kind),
		cmocka_unit_test(test_checks_catch_corruption),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_classic),
	};

	return cmocka_run_group_tests(tests, read_cpu, NULL);
}
