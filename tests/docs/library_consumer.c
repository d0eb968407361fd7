// SPDX-License-Identifier: GPL-2.0
/*
 * A program of libcacheprobe's users, built by tests/docs/library_api.sh
 * against an installed tree with nothing but pkg-config's flags, shared
 * and static: a GARBAGE context on the first CPU this process may use
 * (one CPU keeps the garbage small on any machine), one eviction, close.
 * Prints the library's version, then "OK"; on a failure, the call and
 * cacheprobe_last_error() on stderr, and exit status 1.
 */
#define _GNU_SOURCE
#include <cacheprobe.h>
#include <sched.h>
#include <stdio.h>

static int failed(const char *call, int ret)
{
	fprintf(stderr, "%s: %d: %s\n", call, ret, cacheprobe_last_error());
	return 1;
}

int main(void)
{
	struct cacheprobe_options *options;
	struct cacheprobe_ctx *ctx;
	char cpu_list[16];
	cpu_set_t mask;
	int cpu, ret;

	if (sched_getaffinity(0, sizeof(mask), &mask)) {
		perror("sched_getaffinity");
		return 1;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &mask); cpu++)
		;
	snprintf(cpu_list, sizeof(cpu_list), "%d", cpu);

	options = cacheprobe_options_new();
	if (!options)
		return failed("cacheprobe_options_new", 0);
	ret = cacheprobe_options_set_method(options, CACHEPROBE_METHOD_GARBAGE);
	if (ret)
		return failed("cacheprobe_options_set_method", ret);
	ret = cacheprobe_options_set_cpus(options, cpu_list);
	if (ret)
		return failed("cacheprobe_options_set_cpus", ret);
	ret = cacheprobe_open(options, &ctx);
	cacheprobe_options_free(options);
	if (ret)
		return failed("cacheprobe_open", ret);
	if (cacheprobe_method(ctx) != CACHEPROBE_METHOD_GARBAGE ||
	    cacheprobe_garbage_bytes(ctx) == 0) {
		fprintf(stderr, "GARBAGE asked, %s used, %llu garbage bytes\n",
			cacheprobe_method_name(cacheprobe_method(ctx)),
			(unsigned long long)cacheprobe_garbage_bytes(ctx));
		cacheprobe_close(ctx);
		return 1;
	}
	ret = cacheprobe_evict(ctx);
	if (ret) {
		failed("cacheprobe_evict", ret);
		cacheprobe_close(ctx);
		return 1;
	}
	cacheprobe_close(ctx);
	printf("version %s\nOK\n", cacheprobe_version());
	return 0;
}
