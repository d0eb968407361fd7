// SPDX-License-Identifier: GPL-2.0
/* The exact text `cacheprobe-run info` and `flush` print. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cli/flush_report.h"
#include "cli/module_report.h"
#include "util/format.h"
#include "cli/topology_report.h"
#include "machine/feature_names.h"

static struct cp_cpuset *cpus_of(const char *list)
{
	struct cp_cpuset *set = NULL;
	char why[128];

	if (cp_cpuset_parse(list, &set, why, sizeof(why)))
		fail_msg("bad list in test: %s", why);
	return set;
}

static void test_module_info_lines(void **state)
{
	struct cp_module_info info = {
		.module_version = "0.1.0", .abi_version = 1,
		.nr_cpu_ids = 4, .nr_possible_cpus = 4, .nr_online_cpus = 4,
		.tsc_khz = 2400000, .cache_line_size = 64, .max_cpus = 8192,
		.features = CACHEPROBE_FEAT_WBNOINVD | CACHEPROBE_FEAT_CLFLUSH |
			    CACHEPROBE_FEAT_CLFLUSHOPT | CACHEPROBE_FEAT_CLWB |
			    CACHEPROBE_FEAT_RDTSCP |
			    CACHEPROBE_FEAT_INVARIANT_TSC |
			    CACHEPROBE_FEAT_HYPERVISOR,
	};
	struct text_capture out;

	(void)state;
	info.possible_cpus = cpus_of("0-3");
	info.online_cpus = cpus_of("0-3");
	capture_text_begin(&out);
	assert_int_equal(cli_print_module_info(out.stream, &info, "netlink"), 0);
	capture_text_end(&out);
	assert_string_equal(out.text,
		"module: cacheprobe 0.1.0 (ABI 1) via netlink\n"
		"online cpus: 0-3 (4 of 4 possible, nr_cpu_ids 4)\n"
		"possible cpus: 0-3\n"
		"tsc: 2400000 kHz (invariant)\n"
		"features: wbnoinvd clflush clflushopt clwb rdtscp "
		"invariant_tsc hypervisor\n"
		"cache line: 64 bytes\n"
		"limits: max cpus 8192\n");
	free(out.text);
	cp_module_info_free(&info);
}

static void test_module_info_unknown_tsc_and_no_features(void **state)
{
	struct cp_module_info info = {
		.module_version = "0.2.0", .abi_version = 2,
		.nr_cpu_ids = 8, .nr_possible_cpus = 8, .nr_online_cpus = 3,
		.cache_line_size = 64, .max_cpus = 8192,
		.max_irqoff_ns = 2000000, .max_buffer_bytes = 256ull << 20,
		.partner_timeout_ms = 2000, .max_values = 8192,
	};
	struct text_capture out;

	(void)state;
	info.possible_cpus = cpus_of("0-7");
	info.online_cpus = cpus_of("0,2,5");
	capture_text_begin(&out);
	assert_int_equal(cli_print_module_info(out.stream, &info, "ioctl"), 0);
	capture_text_end(&out);
	assert_string_equal(out.text,
		"module: cacheprobe 0.2.0 (ABI 2) via ioctl\n"
		"online cpus: 0,2,5 (3 of 8 possible, nr_cpu_ids 8)\n"
		"possible cpus: 0-7\n"
		"tsc: unknown\n"
		"features: none\n"
		"cache line: 64 bytes\n"
		"limits: max cpus 8192\n"
		"parameters: max_irqoff_us 2000, max_buffer_mb 256, "
		"partner_timeout_ms 2000, max values 8192\n");
	free(out.text);
	cp_module_info_free(&info);
}

static void test_tsc_not_invariant(void **state)
{
	struct cp_module_info info = {
		.module_version = "0.1.0", .abi_version = 1, .nr_cpu_ids = 1,
		.nr_possible_cpus = 1, .nr_online_cpus = 1, .tsc_khz = 1000,
		.features = CACHEPROBE_FEAT_RDTSCP,
	};
	struct text_capture out;

	(void)state;
	info.possible_cpus = cpus_of("0");
	info.online_cpus = cpus_of("0");
	capture_text_begin(&out);
	assert_int_equal(cli_print_module_info(out.stream, &info, "ioctl"), 0);
	capture_text_end(&out);
	assert_non_null(strstr(out.text, "\ntsc: 1000 kHz (not invariant)\n"));
	assert_non_null(strstr(out.text, "\nfeatures: rdtscp\n"));
	free(out.text);
	cp_module_info_free(&info);
}

static void test_feature_names(void **state)
{
	char text[128];

	(void)state;
	assert_int_equal(cp_features_format(0, text, sizeof(text)), 4);
	assert_string_equal(text, "none");
	cp_features_format(CACHEPROBE_FEAT_CLWB | CACHEPROBE_FEAT_HYPERVISOR,
			   text, sizeof(text));
	assert_string_equal(text, "clwb hypervisor");
	cp_features_format(CACHEPROBE_FEAT_AVX | CACHEPROBE_FEAT_AVX512F,
			   text, sizeof(text));
	assert_string_equal(text, "avx avx512f");
	/* A newer module's bit is shown, not hidden. */
	cp_features_format(CACHEPROBE_FEAT_WBNOINVD | 1ull << 40, text,
			   sizeof(text));
	assert_string_equal(text, "wbnoinvd bit40");
}

static void test_module_absent_lines(void **state)
{
	struct cp_error error = {
		.err = ENOENT,
		.msg = CP_MSG_MODULE_NOT_LOADED ": no generic netlink family "
		       "\"cacheprobe\" and no /dev/cacheprobe",
	};
	struct text_capture out;

	(void)state;
	capture_text_begin(&out);
	cli_print_module_absent(out.stream, &error);
	capture_text_end(&out);
	assert_string_equal(out.text,
		"module: not loaded (no generic netlink family \"cacheprobe\" "
		"and no /dev/cacheprobe)\n"
		"unavailable without the module: flush (WBINVD/WBNOINVD), "
		"kernel-mode measurement\n");
	free(out.text);
}

static void test_module_unreachable_lines(void **state)
{
	struct cp_error error = {
		.err = EACCES, .msg = "cannot open /dev/cacheprobe",
	};
	struct text_capture out;

	(void)state;
	capture_text_begin(&out);
	cli_print_module_absent(out.stream, &error);
	capture_text_end(&out);
	assert_string_equal(out.text,
		"module: unavailable (cannot open /dev/cacheprobe)\n"
		"unavailable without the module: flush (WBINVD/WBNOINVD), "
		"kernel-mode measurement\n");
	free(out.text);
}

static void test_flush_lines(void **state)
{
	static const struct cp_cpu_time results[] = {
		{ .cpu = 0, .cycles = 123456, .nsec = 51440 },
		{ .cpu = 1, .cycles = 7, .nsec = 3 },
		{ .cpu = 2, .cycles = 0, .nsec = 0 },
		{ .cpu = 3, .cycles = UINT64_MAX, .nsec = 1 },
	};
	struct text_capture out;

	(void)state;
	capture_text_begin(&out);
	assert_int_equal(cli_print_flush_results(out.stream, "wbinvd",
						 "netlink", results, 4), 0);
	capture_text_end(&out);
	assert_string_equal(out.text,
		"flush: wbinvd via netlink on 4 CPUs (0-3)\n"
		"cpu 0: 123456 ticks, 51440 ns\n"
		"cpu 1: 7 ticks, 3 ns\n"
		"cpu 2: 0 ticks, 0 ns\n"
		"cpu 3: 18446744073709551615 ticks, 1 ns\n");
	free(out.text);
}

static void test_flush_one_cpu(void **state)
{
	static const struct cp_cpu_time result = {
		.cpu = 8191, .cycles = 10, .nsec = 4,
	};
	struct text_capture out;

	(void)state;
	capture_text_begin(&out);
	assert_int_equal(cli_print_flush_results(out.stream, "wbnoinvd",
						 "ioctl", &result, 1), 0);
	capture_text_end(&out);
	assert_string_equal(out.text,
		"flush: wbnoinvd via ioctl on 1 CPU (8191)\n"
		"cpu 8191: 10 ticks, 4 ns\n");
	free(out.text);
}

static void test_size_format(void **state)
{
	static const struct {
		uint64_t bytes;
		const char *text;
	} cases[] = {
		{ 0, "0 bytes" }, { 1, "1 byte" }, { 100, "100 bytes" },
		{ 1024, "1 KiB" }, { 48 * 1024, "48 KiB" },
		{ 1280 * 1024, "1280 KiB" }, { 2 << 20, "2 MiB" },
		{ 260ull << 20, "260 MiB" }, { 1ull << 30, "1 GiB" },
		{ 1ull << 50, "1024 TiB" }, { 1536, "1536 bytes" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[32];

		assert_string_equal(cp_format_size(cases[i].bytes, text,
						   sizeof(text)),
				    cases[i].text);
	}
}

static char *topology_text(const char *synthetic)
{
	struct cp_topology_source source = {
		.kind = CP_TOPOLOGY_SYNTHETIC, .text = synthetic,
	};
	struct cp_topology *topology = NULL;
	struct text_capture out;
	struct cp_error error;

	if (cp_topology_load(&source, &topology, &error))
		fail_msg("cannot load \"%s\": %s", synthetic, error.msg);
	capture_text_begin(&out);
	assert_int_equal(cli_print_topology(out.stream, topology), 0);
	capture_text_end(&out);
	cp_topology_free(topology);
	return out.text;
}

static void test_topology_section(void **state)
{
	char *text = topology_text("pack:1 l3:1(size=32MiB) l2:2(size=1MiB) "
				   "l1d:1(size=48KiB) core:1 pu:2");

	(void)state;
	assert_string_equal(text,
		"topology:\n"
		"  packages: 1\n"
		"  numa nodes: 1\n"
		"  cores: 2\n"
		"  cpus: 4 (0-3), 2 threads per core\n"
		"  L1d: 48 KiB, 64-byte lines, 2 instances of 2 cpus: 0-1 | 2-3\n"
		"  L2: 1 MiB, 64-byte lines, 2 instances of 2 cpus: 0-1 | 2-3\n"
		"  L3: 32 MiB, 64-byte lines, 1 instance of 4 cpus: 0-3\n"
		"  cpu pair classes: smt 0:1, shared-l3 0:2\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_module_info_lines),
		cmocka_unit_test(test_module_info_unknown_tsc_and_no_features),
		cmocka_unit_test(test_tsc_not_invariant),
		cmocka_unit_test(test_feature_names),
		cmocka_unit_test(test_module_absent_lines),
		cmocka_unit_test(test_module_unreachable_lines),
		cmocka_unit_test(test_flush_lines),
		cmocka_unit_test(test_flush_one_cpu),
		cmocka_unit_test(test_size_format),
		cmocka_unit_test(test_topology_section),
	};

	return cmocka_run_group_tests_name("reports", tests, NULL, NULL);
}
