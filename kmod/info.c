// SPDX-License-Identifier: GPL-2.0
/* CACHEPROBE_CMD_GET_INFO: the module and the machine, as the kernel sees them. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/time64.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include "cacheprobe.h"

static u64 cp_features(void)
{
	static const struct {
		unsigned int x86_feature;
		u64 bit;
	} map[] = {
		{ X86_FEATURE_WBNOINVD, CACHEPROBE_FEAT_WBNOINVD },
		{ X86_FEATURE_CLFLUSH, CACHEPROBE_FEAT_CLFLUSH },
		{ X86_FEATURE_CLFLUSHOPT, CACHEPROBE_FEAT_CLFLUSHOPT },
		{ X86_FEATURE_CLWB, CACHEPROBE_FEAT_CLWB },
		{ X86_FEATURE_RDTSCP, CACHEPROBE_FEAT_RDTSCP },
		{ X86_FEATURE_HYPERVISOR, CACHEPROBE_FEAT_HYPERVISOR },
	};
	u64 features = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (boot_cpu_has(map[i].x86_feature))
			features |= map[i].bit;
	/* Invariant TSC is the pair of flags the kernel derives from CPUID. */
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
	    boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		features |= CACHEPROBE_FEAT_INVARIANT_TSC;
	if (cp_fault(CP_FAULT_ASSUME_WBNOINVD))
		features |= CACHEPROBE_FEAT_WBNOINVD;
	if (cp_access_width_ok(32))
		features |= CACHEPROBE_FEAT_AVX;
	if (cp_access_width_ok(64))
		features |= CACHEPROBE_FEAT_AVX512F;
	return features;
}

/**
 * cp_tsc_to_ns() - convert TSC ticks to nanoseconds
 * @cycles: TSC ticks
 *
 * Return: nanoseconds, or 0 when the kernel does not know the TSC rate.
 */
u64 cp_tsc_to_ns(u64 cycles)
{
	if (!tsc_khz)
		return 0;
	return mul_u64_u32_div(cycles, USEC_PER_SEC, tsc_khz);
}

/**
 * cp_get_info() - take a snapshot of what GET_INFO reports
 * @info: receives it
 */
void cp_get_info(struct cp_info *info)
{
	info->abi_version = CACHEPROBE_ABI_VERSION;
	info->nr_cpu_ids = nr_cpu_ids;
	info->nr_possible_cpus = num_possible_cpus();
	info->nr_online_cpus = num_online_cpus();
	info->tsc_khz = tsc_khz;
	info->cache_line_size = boot_cpu_data.x86_clflush_size;
	info->features = cp_features();
	info->max_cpus = CACHEPROBE_MAX_CPUS;
	info->max_irqoff_ns = (u64)cp_param_max_irqoff_us() * NSEC_PER_USEC;
	info->max_buffer_bytes = cp_param_max_buffer_bytes();
	info->partner_timeout_ms = cp_param_partner_timeout_ms();
}
