// SPDX-License-Identifier: GPL-2.0
/* The garbage pool: windows move on after every use, a byte is read again
 * only after twice the last level of other garbage, the naive buffer
 * is apart from the pool, and a new one takes its place each round. */
#include <errno.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "evict/coldcache_garbage.h"

#define MIB (1ull << 20)

static void test_pool_size(void **state)
{
	struct cp_garbage garbage;

	(void)state;
	assert_int_equal(cp_garbage_alloc(&garbage, 3 * MIB + 100, 3 * MIB + 100,
					  4 * MIB), 0);
	/* The window rounds up to whole pages; smaller than twice the last
	 * level, it needs that much room beside it. */
	assert_int_equal(garbage.window_bytes, 3 * MIB + 4096);
	assert_int_equal(garbage.pool_bytes,
			 3 * MIB + 4096 + CP_GARBAGE_REUSE_LLCS * 4 * MIB);
	assert_non_null(garbage.naive);
	/* Apart: the naive buffer is neither in the pool nor around it. */
	assert_true(garbage.naive + CP_NAIVE_GARBAGE_BYTES <= garbage.pool ||
		    garbage.pool + garbage.pool_bytes <= garbage.naive);
	cp_garbage_free(&garbage);
	assert_null(garbage.pool);
	assert_null(garbage.naive);
}

/* Windows of at least twice the last level (the default factor's) wait
 * long enough behind themselves: the pool is one window.  A smaller one
 * among them (the sweep) needs the room again. */
static void test_large_windows_pool(void **state)
{
	struct cp_garbage garbage;

	(void)state;
	assert_int_equal(cp_garbage_alloc(&garbage, 8 * MIB, 8 * MIB, 4 * MIB),
			 0);
	assert_int_equal(garbage.pool_bytes, 8 * MIB);
	cp_garbage_free(&garbage);
	assert_int_equal(cp_garbage_alloc(&garbage, MIB, 8 * MIB, 4 * MIB), 0);
	assert_int_equal(garbage.pool_bytes, 8 * MIB + 8 * MIB);
	cp_garbage_free(&garbage);
}

static void test_no_window(void **state)
{
	struct cp_garbage garbage;

	(void)state;
	assert_int_equal(cp_garbage_alloc(&garbage, 0, 0, 4 * MIB), -EINVAL);
	assert_null(garbage.pool);
	assert_null(garbage.naive);
	assert_int_equal(cp_garbage_alloc(&garbage, 2 * MIB, MIB, 4 * MIB),
			 -EINVAL);
	assert_null(garbage.pool);
}

/* Windows of mixed sizes up to the largest stay inside the pool, each
 * starts where the last ended, and the pool starts over only once twice
 * the last level has been read since its start: that is the least any
 * byte waits between two reads. */
static void test_windows_mixed(void **state)
{
	const size_t llc = 4 * MIB, largest = 3 * MIB;
	const size_t sizes[] = { 256 * 1024, largest, MIB, 4096, 2 * MIB };
	struct cp_garbage garbage;
	size_t end = 0, wraps = 0;

	(void)state;
	assert_int_equal(cp_garbage_alloc(&garbage, 4096, largest, llc), 0);
	for (int i = 0; i < 200; i++) {
		size_t bytes = sizes[i % 5];
		const char *start = cp_garbage_next_window(&garbage, bytes);
		size_t offset = (size_t)(start - garbage.pool);

		assert_true(offset + bytes <= garbage.pool_bytes);
		if (offset != end) {
			assert_int_equal(offset, 0);
			assert_true(end >= CP_GARBAGE_REUSE_LLCS * llc);
			wraps++;
		}
		end = offset + bytes;
	}
	assert_true(wraps > 10);
	cp_garbage_free(&garbage);
}

/* Windows of one size: a byte is read again after one pass over the pool,
 * the rest of its window, the windows after it and the start of its window
 * the next time: at least twice the last level, and not much more. */
static void test_reuse_distance(void **state)
{
	const size_t llc = 4 * MIB;
	const size_t sizes[] = { 4096, 256 * 1024, 3 * MIB, 8 * MIB, 12 * MIB };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct cp_garbage garbage;
		const char *first;
		size_t between = sizes[k];

		assert_int_equal(cp_garbage_alloc(&garbage, sizes[k], sizes[k],
						  llc), 0);
		first = cp_garbage_next_window(&garbage, sizes[k]);
		while (cp_garbage_next_window(&garbage, sizes[k]) != first)
			between += sizes[k];
		assert_true(between >= CP_GARBAGE_REUSE_LLCS * llc);
		/* ...and not much more. */
		assert_true(between <= CP_GARBAGE_REUSE_LLCS * llc + sizes[k] ||
			    between == sizes[k]);
		cp_garbage_free(&garbage);
	}
}

/* The first read of a fresh pool and the next one do not overlap. */
static void test_consecutive_windows_apart(void **state)
{
	struct cp_garbage garbage;
	const char *first, *second;

	(void)state;
	assert_int_equal(cp_garbage_alloc(&garbage, MIB, MIB, 4 * MIB), 0);
	first = cp_garbage_next_window(&garbage, MIB);
	second = cp_garbage_next_window(&garbage, MIB);
	assert_true(second >= first + MIB || second + MIB <= first);
	cp_garbage_free(&garbage);
}

/* A round's new naive buffer: another mapping, written through (no page
 * left as the shared zero page), the pool left as it was. */
static void test_redraw_naive(void **state)
{
	struct cp_garbage garbage;
	const char *old, *pool;

	(void)state;
	assert_int_equal(cp_garbage_alloc(&garbage, 8 * MIB, 8 * MIB, 4 * MIB),
			 0);
	old = garbage.naive;
	pool = garbage.pool;
	assert_int_equal(cp_garbage_redraw_naive(&garbage), 0);
	assert_non_null(garbage.naive);
	assert_ptr_not_equal(garbage.naive, old);
	assert_ptr_equal(garbage.pool, pool);
	for (size_t at = 0; at < CP_NAIVE_GARBAGE_BYTES; at += 4096)
		if (garbage.naive[at] != 0x5a)
			fail_msg("byte %zu of the new buffer is %d", at,
				 garbage.naive[at]);
	assert_true(garbage.naive + CP_NAIVE_GARBAGE_BYTES <= garbage.pool ||
		    garbage.pool + garbage.pool_bytes <= garbage.naive);
	cp_garbage_free(&garbage);
}

/* Whether the page at @address is mapped. */
static bool mapped(const char *address)
{
	unsigned char resident;

	return mincore((void *)address, 4096, &resident) == 0;
}

/* Whether a buffer after @j, up to @last, took @j's address. */
static bool address_taken(const char *const *buffers, size_t j, size_t last)
{
	for (size_t k = j + 1; k <= last; k++)
		if (buffers[k] == buffers[j])
			return true;
	return false;
}

/* The kernel hands out the pages freed last first: buffers unmapped
 * once the next was filled came back every few redraws (pagemap: the
 * fifth started on the first one's page).  So the last CP_NAIVE_KEPT
 * buffers stay mapped, and a new one cannot take their pages: after
 * each redraw exactly those are still there, the older ones gone (their
 * addresses are free for a later buffer to take). */
static void test_redraw_keeps_the_last(void **state)
{
	const char *buffers[CP_NAIVE_KEPT + 2];
	struct cp_garbage garbage;

	(void)state;
	assert_int_equal(cp_garbage_alloc(&garbage, 8 * MIB, 8 * MIB, 4 * MIB),
			 0);
	buffers[0] = garbage.naive;
	for (size_t i = 1; i < CP_NAIVE_KEPT + 2; i++) {
		assert_int_equal(cp_garbage_redraw_naive(&garbage), 0);
		buffers[i] = garbage.naive;
		for (size_t j = 0; j < i; j++)
			if (!address_taken(buffers, j, i) &&
			    mapped(buffers[j]) != (i - j <= CP_NAIVE_KEPT))
				fail_msg("after redraw %zu, buffer %zu is %s",
					 i, j,
					 mapped(buffers[j]) ? "still mapped"
							    : "gone");
	}
	cp_garbage_free(&garbage);
	for (size_t j = 0; j < CP_NAIVE_KEPT + 2; j++)
		if (mapped(buffers[j]))
			fail_msg("buffer %zu still mapped after the free", j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_size),
		cmocka_unit_test(test_large_windows_pool),
		cmocka_unit_test(test_no_window),
		cmocka_unit_test(test_windows_mixed),
		cmocka_unit_test(test_reuse_distance),
		cmocka_unit_test(test_consecutive_windows_apart),
		cmocka_unit_test(test_redraw_naive),
		cmocka_unit_test(test_redraw_keeps_the_last),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
