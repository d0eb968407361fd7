// SPDX-License-Identifier: GPL-2.0
/* The xcore block: its chain visits every line once, in a random order,
 * never leaving the block; the walk (with and without delay) comes back to
 * the head after one lap; touching keeps the chain; block sizes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "areas/xcore/xcore_block.h"

static void assert_one_cycle(const struct cp_chase *block)
{
	size_t n = block->nr_lines, *next = malloc(n * sizeof(*next));
	unsigned char *seen = calloc(n, 1);
	size_t at = 0, in_order = 0;

	assert_non_null(next);
	assert_non_null(seen);
	cp_chase_successors(block, next);
	for (size_t i = 0; i < n; i++) {
		/* Inside the block, at a line start. */
		char *target = *(char **)((char *)block->buffer +
					  i * block->line_size);

		assert_true(target >= (char *)block->buffer);
		assert_true(target < (char *)block->buffer + n * block->line_size);
		assert_int_equal((size_t)(target - (char *)block->buffer) %
					 block->line_size, 0);
		in_order += next[i] == (i + 1) % n;
	}
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(seen[at], 0);
		seen[at] = 1;
		at = next[at];
	}
	assert_int_equal(at, 0);
	/* Random, not a stride: few lines are followed by their neighbour. */
	assert_true(in_order < n / 8);
	free(next);
	free(seen);
}

static void test_chain_every_line_once(void **state)
{
	static const size_t sizes[] = { 8192, 65536, 1 << 20 };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct cp_chase block;

		assert_int_equal(cp_chase_build(&block, sizes[k], 64, 7), 0);
		assert_int_equal(block.nr_lines, sizes[k] / 64);
		assert_one_cycle(&block);
		/* One lap, with or without delay, ends where it began. */
		assert_ptr_equal(cp_xcore_walk(block.position, block.nr_lines, 0),
				 block.position);
		assert_ptr_equal(cp_xcore_walk(block.position, block.nr_lines, 3),
				 block.position);
		assert_ptr_not_equal(cp_xcore_walk(block.position, 1, 0),
				     block.position);
		/* Touching (read, modify) and flushing keep the chain. */
		cp_xcore_touch(&block, CP_XCORE_TOUCH_MODIFY);
		cp_xcore_touch(&block, CP_XCORE_TOUCH_READ);
		cp_xcore_flush(&block);
		assert_one_cycle(&block);
		cp_chase_free(&block);
	}
}

static void test_seed_changes_order(void **state)
{
	struct cp_chase a, b;

	(void)state;
	assert_int_equal(cp_chase_build(&a, 8192, 64, 1), 0);
	assert_int_equal(cp_chase_build(&b, 8192, 64, 2), 0);
	assert_true(memcmp(a.buffer, b.buffer, 8192) != 0 ||
		    a.position != b.position);
	cp_chase_free(&a);
	cp_chase_free(&b);
}

static void test_block_sizes(void **state)
{
	uint64_t sizes[CP_XCORE_MAX_SIZES];
	char why[160];

	(void)state;
	assert_int_equal(cp_xcore_block_sizes(0, 64 << 10, sizes), 4);
	assert_int_equal(sizes[0], 8192);
	assert_int_equal(sizes[3], 65536);
	assert_int_equal(cp_xcore_block_sizes(32 << 10, 32 << 10, sizes), 1);
	assert_int_equal(cp_xcore_check_block(65536, 1 << 20, why, sizeof(why)), 0);
	assert_int_equal(cp_xcore_check_block(49152, 1 << 20, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "not a power of two"));
	assert_int_equal(cp_xcore_check_block(4096, 1 << 20, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(cp_xcore_check_block(2 << 20, 1 << 20, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "above the limit"));
}

static void test_default_max(void **state)
{
	struct cp_topology_source source = {
		.kind = CP_TOPOLOGY_SYNTHETIC,
		.text = "l3:1(size=32MiB) l2:2(size=256KiB) core:1 l1d:1(size=32KiB) pu:1",
	};
	struct cp_topology *topology;
	struct cp_error error;

	(void)state;
	assert_int_equal(cp_topology_load(&source, &topology, &error), 0);
	/* The private L2, up to the default's ceiling. */
	assert_int_equal(cp_xcore_default_max(topology, 0), 256 << 10);
	cp_topology_free(topology);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_every_line_once),
		cmocka_unit_test(test_seed_changes_order),
		cmocka_unit_test(test_block_sizes),
		cmocka_unit_test(test_default_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
