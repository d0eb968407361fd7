// SPDX-License-Identifier: GPL-2.0
#include "cli/module_report.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_util.h"
#include "machine/feature_names.h"

static int print_cpu_lines(FILE *out, const struct cp_module_info *info)
{
	char *online = cp_cpuset_format_alloc(info->online_cpus);
	char *possible = cp_cpuset_format_alloc(info->possible_cpus);
	int ret = online && possible ? 0 : -ENOMEM;

	if (!ret) {
		fprintf(out, "online cpus: %s (%u of %u possible, nr_cpu_ids %u)\n",
			online[0] ? online : "none", info->nr_online_cpus,
			info->nr_possible_cpus, info->nr_cpu_ids);
		fprintf(out, "possible cpus: %s\n",
			possible[0] ? possible : "none");
	}
	free(online);
	free(possible);
	return ret;
}

static void print_tsc_line(FILE *out, const struct cp_module_info *info)
{
	bool invariant = info->features & CACHEPROBE_FEAT_INVARIANT_TSC;

	if (info->tsc_khz)
		fprintf(out, "tsc: %u kHz (%s)\n", info->tsc_khz,
			invariant ? "invariant" : "not invariant");
	else
		fprintf(out, "tsc: unknown\n");
}

int cli_print_module_info(FILE *out, const struct cp_module_info *info,
			  const char *transport)
{
	char features[256];
	int ret;

	fprintf(out, "module: cacheprobe %s (ABI %u) via %s\n",
		info->module_version, info->abi_version, transport);
	ret = print_cpu_lines(out, info);
	if (ret)
		return ret;
	print_tsc_line(out, info);
	cp_features_format(info->features, features, sizeof(features));
	fprintf(out, "features: %s\n", features);
	fprintf(out, "cache line: %u bytes\n", info->cache_line_size);
	fprintf(out, "limits: max cpus %u\n", info->max_cpus);
	/* An ABI 1 module has no parameters to report. */
	if (info->max_irqoff_ns)
		fprintf(out,
			"parameters: max_irqoff_us %llu, max_buffer_mb %llu, partner_timeout_ms %u, max values %u\n",
			(unsigned long long)(info->max_irqoff_ns / 1000),
			(unsigned long long)(info->max_buffer_bytes >> 20),
			info->partner_timeout_ms, info->max_values);
	return 0;
}

void cli_print_module_absent(FILE *out, const struct cp_error *error)
{
	static const char not_loaded[] = CP_MSG_MODULE_NOT_LOADED ": ";
	const size_t prefix_len = sizeof(not_loaded) - 1;

	/* The client's message repeats "not loaded", which the key says. */
	if (error->err == ENOENT &&
	    strncmp(error->msg, not_loaded, prefix_len) == 0)
		cli_print_line(out, 4, "module: not loaded (%s)",
			       error->msg + prefix_len);
	else
		cli_print_line(out, 4, "module: unavailable (%s)", error->msg);
	fprintf(out, "unavailable without the module: flush (WBINVD/WBNOINVD), "
		"kernel-mode measurement\n");
}
