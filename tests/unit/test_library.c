// SPDX-License-Identifier: GPL-2.0
/*
 * libcacheprobe through its public header only: options and their errors,
 * auto's fallback without the module, evict and evict-range leaving a
 * warmed buffer cold by verify, two contexts in two threads, fork().
 *
 * Contexts evict one CPU (the one the test runs on) so that the garbage
 * is one domain's: what the test needs, not the machine's every cache.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "cacheprobe.h"

#define PROBE_BYTES (512u << 10)
/* Warm must look this cached for an eviction to be judged at all. */
#define WARM_JUDGED_PPM 500000
/* What the planned garbage read may leave (the coldcache area's verdict
 * "evicted" is 1 %; here the host may be busy with other tests). */
#define GARBAGE_MAX_PPM 50000
#define TRIES 3

static volatile uint64_t sink;

static bool module_loaded(void)
{
	struct stat st;

	return stat("/dev/cacheprobe", &st) == 0 ||
	       stat("/sys/module/cacheprobe", &st) == 0;
}

static void this_cpu(char *list, size_t len)
{
	snprintf(list, len, "%d", sched_getcpu());
}

/* Pinned: warming, evicting and timing meet the same caches. */
static void pin_here(void)
{
	cpu_set_t mask;

	CPU_ZERO(&mask);
	CPU_SET(sched_getcpu(), &mask);
	assert_int_equal(sched_setaffinity(0, sizeof(mask), &mask), 0);
}

static struct cacheprobe_ctx *open_with(enum cacheprobe_method method)
{
	struct cacheprobe_options *options = cacheprobe_options_new();
	struct cacheprobe_ctx *ctx = NULL;
	char cpu[16];
	int ret;

	assert_non_null(options);
	this_cpu(cpu, sizeof(cpu));
	assert_int_equal(cacheprobe_options_set_method(options, method), 0);
	assert_int_equal(cacheprobe_options_set_cpus(options, cpu), 0);
	ret = cacheprobe_open(options, &ctx);
	if (ret)
		print_message("open: %s\n", cacheprobe_last_error());
	assert_int_equal(ret, 0);
	assert_string_equal(cacheprobe_last_error(), "");
	cacheprobe_options_free(options);
	return ctx;
}

static void warm(const char *buffer, size_t bytes)
{
	for (int lap = 0; lap < 4; lap++)
		for (size_t i = 0; i < bytes; i += 64)
			sink += *(const volatile char *)(buffer + i);
}

static void test_options_refused(void **state)
{
	struct cacheprobe_options *options = cacheprobe_options_new();
	enum cacheprobe_method method;

	(void)state;
	assert_int_equal(cacheprobe_options_set_method(options, 99), -EINVAL);
	assert_non_null(strstr(cacheprobe_last_error(), "unknown method"));
	assert_int_equal(cacheprobe_options_set_cpus(options, "0-x"), -EINVAL);
	assert_non_null(strstr(cacheprobe_last_error(), "'0-x'"));
	assert_int_equal(cacheprobe_options_set_garbage_factor(options, 0),
			 -EINVAL);
	assert_int_equal(cacheprobe_options_set_garbage_factor(options, 65),
			 -EINVAL);
	assert_non_null(strstr(cacheprobe_last_error(), "garbage factor 65"));
	assert_int_equal(cacheprobe_options_set_garbage_factor(options, 2), 0);
	assert_string_equal(cacheprobe_last_error(), "");
	assert_int_equal(cacheprobe_method_from_name("wbinvd", &method), 0);
	assert_int_equal(method, CACHEPROBE_METHOD_WBINVD);
	assert_int_equal(cacheprobe_method_from_name("flush", &method),
			 -EINVAL);
	assert_null(cacheprobe_method_name(99));
	assert_string_equal(cacheprobe_method_name(CACHEPROBE_METHOD_GARBAGE),
			    "garbage");
	assert_int_equal(cacheprobe_open(options, NULL), -EINVAL);
	cacheprobe_options_free(options);
	cacheprobe_options_free(NULL);
	cacheprobe_close(NULL);
}

static void test_cpu_not_online(void **state)
{
	struct cacheprobe_options *options = cacheprobe_options_new();
	struct cacheprobe_ctx *ctx = (void *)1;

	(void)state;
	assert_int_equal(cacheprobe_options_set_cpus(options, "4095"), 0);
	assert_int_equal(cacheprobe_open(options, &ctx), -EINVAL);
	assert_null(ctx);
	assert_non_null(strstr(cacheprobe_last_error(), "CPU 4095"));
	cacheprobe_options_free(options);
}

static void test_auto_without_module(void **state)
{
	struct cacheprobe_ctx *ctx;

	(void)state;
	if (module_loaded())
		skip();
	ctx = open_with(CACHEPROBE_METHOD_AUTO);
	assert_int_equal(cacheprobe_method(ctx), CACHEPROBE_METHOD_GARBAGE);
	assert_non_null(strstr(cacheprobe_method_reason(ctx),
			       "module not loaded"));
	assert_true(cacheprobe_garbage_bytes(ctx) > 0);
	cacheprobe_close(ctx);
}

static void test_wbinvd_without_module(void **state)
{
	struct cacheprobe_options *options = cacheprobe_options_new();
	struct cacheprobe_ctx *ctx;

	(void)state;
	if (module_loaded())
		skip();
	cacheprobe_options_set_method(options, CACHEPROBE_METHOD_WBINVD);
	assert_int_equal(cacheprobe_open(options, &ctx), -ENOENT);
	assert_non_null(strstr(cacheprobe_last_error(), "module not loaded"));
	cacheprobe_options_free(options);
}

struct shares {
	/* -1: the timer never saw warm cached; -2: it cannot tell any
	 * level from memory (calibrated on a busy or emulated host) */
	int64_t warm;
	int64_t evicted;
};

/*
 * Warm, verify, warm, evict (by @ctx, or @range_only: evict-range),
 * verify; until warm is seen cached, at most TRIES times.
 */
static struct shares evicted_share(struct cacheprobe_ctx *ctx,
				   bool range_only)
{
	char *buffer = mmap(NULL, PROBE_BYTES, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct cacheprobe_warmth before, after;
	struct shares shares = { -1, -1 };

	assert_true(buffer != MAP_FAILED);
	memset(buffer, 1, PROBE_BYTES);
	for (int t = 0; t < TRIES && shares.warm == -1; t++) {
		int ret;

		warm(buffer, PROBE_BYTES);
		ret = cacheprobe_verify_range(ctx, buffer, PROBE_BYTES,
					      &before);
		if (ret == -EOPNOTSUPP) {
			print_message("%s\n", cacheprobe_last_error());
			shares.warm = -2;
			break;
		}
		assert_int_equal(ret, 0);
		if (before.cached_ppm < WARM_JUDGED_PPM)
			continue;
		warm(buffer, PROBE_BYTES);
		if (range_only)
			assert_int_equal(cacheprobe_evict_range(ctx, buffer,
								PROBE_BYTES),
					 0);
		else
			assert_int_equal(cacheprobe_evict(ctx), 0);
		assert_int_equal(cacheprobe_verify_range(ctx, buffer,
							 PROBE_BYTES, &after),
				 0);
		print_message("warm %u ppm cached, evicted %u ppm (%u lines)\n",
			      before.cached_ppm, after.cached_ppm,
			      after.lines_timed);
		shares = (struct shares){ before.cached_ppm, after.cached_ppm };
	}
	munmap(buffer, PROBE_BYTES);
	return shares;
}

/* At most @max_ppm left, and at most a third of warm's share. */
static void judge_cold(struct shares shares, int64_t max_ppm)
{
	if (shares.warm < 0) {
		print_message(shares.warm == -1
			      ? "the timer never saw a warm buffer cached\n"
			      : "the timer cannot tell cache from memory here\n");
		skip();
	}
	assert_true(shares.evicted <= max_ppm);
	assert_true(shares.evicted * 3 <= shares.warm);
}

static void test_garbage_leaves_buffer_cold(void **state)
{
	struct cacheprobe_ctx *ctx;
	struct shares shares;

	(void)state;
	pin_here();
	ctx = open_with(CACHEPROBE_METHOD_GARBAGE);
	shares = evicted_share(ctx, false);
	cacheprobe_close(ctx);
	judge_cold(shares, GARBAGE_MAX_PPM);
}

static void test_evict_range_leaves_buffer_cold(void **state)
{
	struct cacheprobe_ctx *ctx;
	struct shares shares;

	(void)state;
	pin_here();
	ctx = open_with(CACHEPROBE_METHOD_CLFLUSH);
	shares = evicted_share(ctx, true);
	cacheprobe_close(ctx);
	/* The line flush leaves some lines looking cached on some hosts
	 * (the coldcache area measures the same): far from warm is what
	 * it must be. */
	judge_cold(shares, WARM_JUDGED_PPM / 3);
}

static void test_clflush_ranges(void **state)
{
	struct cacheprobe_ctx *ctx = open_with(CACHEPROBE_METHOD_CLFLUSH);
	static char data[8192];

	(void)state;
	assert_int_equal(cacheprobe_evict(ctx), -EINVAL);
	assert_non_null(strstr(cacheprobe_last_error(), "no range"));
	assert_int_equal(cacheprobe_add_range(ctx, data, 0), -EINVAL);
	assert_int_equal(cacheprobe_add_range(ctx, data, sizeof(data)), 0);
	assert_int_equal(cacheprobe_evict(ctx), 0);
	assert_int_equal(cacheprobe_verify_range(ctx, data, 0, NULL), -EINVAL);
	cacheprobe_close(ctx);
}

struct thread_work {
	int ret;
	char error[256];
};

/* Each thread: its own context, three evictions, then an error of its
 * own, which the other thread must not see. */
static void *evict_in_thread(void *data)
{
	struct thread_work *work = data;
	struct cacheprobe_options *options = cacheprobe_options_new();
	struct cacheprobe_ctx *ctx;
	char cpu[16];

	this_cpu(cpu, sizeof(cpu));
	cacheprobe_options_set_method(options, CACHEPROBE_METHOD_GARBAGE);
	cacheprobe_options_set_cpus(options, cpu);
	work->ret = cacheprobe_open(options, &ctx);
	cacheprobe_options_free(options);
	for (int i = 0; i < 3 && !work->ret; i++)
		work->ret = cacheprobe_evict(ctx);
	if (!work->ret) {
		cacheprobe_close(ctx);
		snprintf(work->error, sizeof(work->error), "%s",
			 cacheprobe_last_error());
		cacheprobe_method_from_name("nonsense", &(enum cacheprobe_method){ 0 });
	}
	return NULL;
}

static void test_two_contexts_two_threads(void **state)
{
	struct thread_work work[2];
	pthread_t threads[2];

	(void)state;
	memset(work, 0, sizeof(work));
	assert_int_equal(cacheprobe_method_from_name("auto",
						     &(enum cacheprobe_method){ 0 }),
			 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&threads[i], NULL,
						evict_in_thread, &work[i]),
				 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(pthread_join(threads[i], NULL), 0);
		assert_int_equal(work[i].ret, 0);
		assert_string_equal(work[i].error, "");
	}
	/* The threads' errors stayed theirs. */
	assert_string_equal(cacheprobe_last_error(), "");
}

static void test_fork(void **state)
{
	struct cacheprobe_ctx *ctx = open_with(CACHEPROBE_METHOD_GARBAGE);
	int status;
	pid_t child;

	(void)state;
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		static char data[4096];
		int ret = cacheprobe_evict(ctx);
		bool said = strstr(cacheprobe_last_error(), "fork") != NULL;
		bool refused = cacheprobe_evict_range(ctx, data, sizeof(data)) ==
				       -ECHILD &&
			       cacheprobe_add_range(ctx, data, sizeof(data)) ==
				       -ECHILD;

		cacheprobe_close(ctx);
		_exit(ret == -ECHILD && said && refused ? 0 : 1);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The parent's readers are untouched by the child's close. */
	assert_int_equal(cacheprobe_evict(ctx), 0);
	cacheprobe_close(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options_refused),
		cmocka_unit_test(test_cpu_not_online),
		cmocka_unit_test(test_auto_without_module),
		cmocka_unit_test(test_wbinvd_without_module),
		cmocka_unit_test(test_garbage_leaves_buffer_cold),
		cmocka_unit_test(test_evict_range_leaves_buffer_cold),
		cmocka_unit_test(test_clflush_ranges),
		cmocka_unit_test(test_two_contexts_two_threads),
		cmocka_unit_test(test_fork),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
