// SPDX-License-Identifier: GPL-2.0
/* The line-size detector on crafted penalty curves: 64-byte lines,
 * 128-byte lines, no penalty, and sweeps that cannot decide. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "areas/align/align_detect.h"
#include "areas/align/align_layout.h"

#define MAX_POINTS 512

struct curve {
	uint32_t offsets[MAX_POINTS];
	double ns[MAX_POINTS];
	size_t n;
};

/* Offsets first..last: 1.1 ns, 1.8 ns where a @line-byte line splits
 * (@line 0: nowhere), with a deterministic +-4 % wobble. */
static void craft(struct curve *c, uint32_t first, uint32_t last,
		  unsigned int width, unsigned int line)
{
	c->n = 0;
	for (uint32_t o = first; o <= last; o++) {
		double wobble = 1 + 0.04 * ((double)((o * 37) % 9) - 4) / 4;
		bool split = line && cp_align_splits_line(o, width, line);

		c->offsets[c->n] = o;
		c->ns[c->n++] = (split ? 1.8 : 1.1) * wobble;
	}
}

static void test_64_byte_lines(void **state)
{
	struct cp_align_detection d;
	struct curve c;

	(void)state;
	craft(&c, 0, 128, 8, 64);
	assert_int_equal(cp_align_detect_line(c.offsets, c.ns, c.n, 8, &d), 64);
	assert_int_equal(d.penalized, 14);
	assert_int_equal(d.agreeing, 129);
	/* Other widths see it too: 32-byte accesses split at 33..63. */
	craft(&c, 0, 128, 32, 64);
	assert_int_equal(cp_align_detect_line(c.offsets, c.ns, c.n, 32, NULL),
			 64);
	/* A noisy point above the threshold does not move the answer. */
	craft(&c, 0, 128, 8, 64);
	c.ns[10] = 2.0;
	assert_int_equal(cp_align_detect_line(c.offsets, c.ns, c.n, 8, &d), 64);
	assert_int_equal(d.agreeing, 128);
}

static void test_128_byte_lines(void **state)
{
	struct curve c;

	(void)state;
	craft(&c, 0, 256, 8, 128);
	assert_int_equal(cp_align_detect_line(c.offsets, c.ns, c.n, 8, NULL),
			 128);
	/* Over 0..128 only 121..127 pay: 128, not 64. */
	craft(&c, 0, 128, 8, 128);
	assert_int_equal(cp_align_detect_line(c.offsets, c.ns, c.n, 8, NULL),
			 128);
}

static void test_no_penalty(void **state)
{
	struct cp_align_detection d;
	struct curve c;

	(void)state;
	craft(&c, 0, 128, 8, 0);
	assert_int_equal(cp_align_detect_line(c.offsets, c.ns, c.n, 8, &d), 0);
	assert_int_equal(d.penalized, 0);
	assert_string_equal(d.why, "no offset pays a penalty");
	/* 1-byte accesses never split: nothing to detect either. */
	craft(&c, 0, 128, 1, 64);
	assert_int_equal(cp_align_detect_line(c.offsets, c.ns, c.n, 1, NULL), 0);
	assert_int_equal(cp_align_detect_line(c.offsets, c.ns, 0, 8, &d), 0);
}

static void test_undecidable(void **state)
{
	struct cp_align_detection d;
	struct curve c;

	(void)state;
	/* Offsets 56..63 only: 32- and 64-byte lines predict the same. */
	craft(&c, 56, 63, 8, 64);
	assert_int_equal(cp_align_detect_line(c.offsets, c.ns, c.n, 8, &d), 0);
	assert_string_equal(d.why,
			    "the offsets cannot tell the candidate line sizes apart");
	/* Penalties where no line size puts them. */
	craft(&c, 0, 128, 8, 0);
	for (size_t i = 0; i < c.n; i += 3)
		c.ns[i] = 2.5;
	assert_int_equal(cp_align_detect_line(c.offsets, c.ns, c.n, 8, &d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_64_byte_lines),
		cmocka_unit_test(test_128_byte_lines),
		cmocka_unit_test(test_no_penalty),
		cmocka_unit_test(test_undecidable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
