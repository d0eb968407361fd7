// SPDX-License-Identifier: GPL-2.0
#include "machine/environment.h"

#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machine/cpuset.h"
#include "machine/sysfs_read.h"
#include "util/text_sink.h"

#define CPU_DIR "sys/devices/system/cpu"

/* The value of "@key : value" lines of /proc/cpuinfo, first CPU only. */
static void cpuinfo_field(const char *root, const char *key, char *out,
			  size_t len)
{
	char path[512], line[4096];
	size_t key_len = strlen(key);
	FILE *file;

	snprintf(out, len, "unknown");
	cp_sysfs_path(root, "proc/cpuinfo", path, sizeof(path));
	file = fopen(path, "r");
	if (!file)
		return;
	while (fgets(line, sizeof(line), file)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, key, key_len) != 0 || !colon ||
		    strspn(line + key_len, " \t") != (size_t)(colon - line) - key_len)
			continue;
		colon += 1 + strspn(colon + 1, " ");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, len, "%s", colon);
		break;
	}
	fclose(file);
}

static bool has_cpu_flag(const char *root, const char *flag)
{
	char flags[4096], padded[4096 + 2], wanted[64];

	cpuinfo_field(root, "flags", flags, sizeof(flags));
	snprintf(padded, sizeof(padded), " %s ", flags);
	snprintf(wanted, sizeof(wanted), " %s ", flag);
	return strstr(padded, wanted) != NULL;
}

/* The vendor signature of CPUID leaf 0x40000000, which hypervisors fill. */
static void hypervisor_vendor(char *out, size_t len)
{
	static const struct {
		const char *signature, *name;
	} known[] = {
		{ "KVMKVMKVM", "KVM" }, { "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" }, { "XenVMMXenVMM", "Xen" },
		{ "TCGTCGTCGTCG", "QEMU TCG" }, { "ACRNACRNACRN", "ACRN" },
	};
	unsigned int eax, registers[3];
	char signature[13];

	__cpuid(0x40000000u, eax, registers[0], registers[1], registers[2]);
	memcpy(signature, registers, 12);
	signature[12] = '\0';
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strncmp(signature, known[i].signature, 12) == 0) {
			snprintf(out, len, "%s", known[i].name);
			return;
		}
	}
	snprintf(out, len, "unknown (%s)", signature);
}

static void capture_hypervisor(const char *root, struct cp_environment *env)
{
	if (!has_cpu_flag(root, "hypervisor"))
		snprintf(env->hypervisor, sizeof(env->hypervisor), "none");
	else if (!root || strcmp(root, "/") == 0)
		hypervisor_vendor(env->hypervisor, sizeof(env->hypervisor));
	else
		snprintf(env->hypervisor, sizeof(env->hypervisor), "present");
}

static void capture_kernel(const char *root, struct cp_environment *env)
{
	char release[CP_ENV_TEXT] = "unknown", version[CP_ENV_TEXT] = "";

	cp_sysfs_read_line(root, "proc/sys/kernel/osrelease", release,
			   sizeof(release));
	cp_sysfs_read_line(root, "proc/sys/kernel/version", version,
			   sizeof(version));
	snprintf(env->kernel, sizeof(env->kernel), "%s%s%.*s", release,
		 version[0] ? " " : "", (int)(sizeof(env->kernel) / 2),
		 version);
	if (!cp_sysfs_read_line(root, "proc/sys/kernel/hostname",
				env->hostname, sizeof(env->hostname)))
		snprintf(env->hostname, sizeof(env->hostname), "unknown");
}

/* Each online CPU's governor; one word when they all agree. */
static void capture_governors(const char *root, const struct cp_cpuset *online,
			      struct cp_environment *env)
{
	struct cp_text_sink sink;
	char first[64] = "", governor[64], path[96];
	bool uniform = true, any = false;

	cp_text_sink_init(&sink, env->governors, sizeof(env->governors));
	for (int cpu = cp_cpuset_first(online); cpu >= 0;
	     cpu = cp_cpuset_next(online, (unsigned int)cpu)) {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/scaling_governor",
			 cpu);
		if (!cp_sysfs_read_line(root, path, governor, sizeof(governor)))
			snprintf(governor, sizeof(governor), "none");
		if (!any)
			snprintf(first, sizeof(first), "%s", governor);
		uniform = uniform && strcmp(first, governor) == 0;
		cp_text_sink_printf(&sink, "%s%d:%s", any ? "," : "", cpu,
				    governor);
		any = true;
	}
	if (!any || (uniform && strcmp(first, "none") == 0))
		snprintf(env->governors, sizeof(env->governors), "unavailable");
	else if (uniform)
		snprintf(env->governors, sizeof(env->governors), "%s", first);
}

static void capture_boost(const char *root, struct cp_environment *env)
{
	char value[16];

	if (cp_sysfs_read_line(root, CPU_DIR "/intel_pstate/no_turbo", value,
			       sizeof(value)))
		snprintf(env->boost, sizeof(env->boost), "%s",
			 value[0] == '1' ? "off" : "on");
	else if (cp_sysfs_read_line(root, CPU_DIR "/cpufreq/boost", value,
				    sizeof(value)))
		snprintf(env->boost, sizeof(env->boost), "%s",
			 value[0] == '1' ? "on" : "off");
	else
		snprintf(env->boost, sizeof(env->boost), "unknown");
}

static void capture_cpus(const char *root, struct cp_environment *env)
{
	char online_text[CP_ENV_TEXT * 4] = "", why[128];
	struct cp_cpuset *online = NULL;

	if (cp_sysfs_read_line(root, CPU_DIR "/online", online_text,
			       sizeof(online_text)))
		cp_cpuset_parse(online_text, &online, why, sizeof(why));
	env->nr_online_cpus = online ? cp_cpuset_count(online) : 0;
	if (online)
		capture_governors(root, online, env);
	else
		snprintf(env->governors, sizeof(env->governors), "unavailable");
	cp_cpuset_free(online);
	capture_boost(root, env);
	if (!cp_sysfs_read_line(root, CPU_DIR "/smt/control", env->smt,
				sizeof(env->smt)))
		snprintf(env->smt, sizeof(env->smt), "unknown");
	cp_sysfs_read_line(root, CPU_DIR "/isolated", env->isolated_cpus,
			   sizeof(env->isolated_cpus));
	cp_sysfs_read_line(root, CPU_DIR "/nohz_full", env->nohz_full_cpus,
			   sizeof(env->nohz_full_cpus));
	/* Without CONFIG_NO_HZ_FULL the file reads "(null)". */
	if (strcmp(env->nohz_full_cpus, "(null)") == 0)
		env->nohz_full_cpus[0] = '\0';
}

/*
 * The chase asks for huge pages; whether it gets them (the THP mode, the
 * pages reserved) moves every latency beyond the TLB's reach, so two runs
 * that differ here differ in what they measured.
 */
static void capture_huge_pages(const char *root, struct cp_environment *env)
{
	char line[128], mode[32] = "unknown", reserved[32];
	const char *open, *close;

	if (cp_sysfs_read_line(root,
			       "sys/kernel/mm/transparent_hugepage/enabled",
			       line, sizeof(line)) &&
	    (open = strchr(line, '[')) && (close = strchr(open, ']')))
		snprintf(mode, sizeof(mode), "%.*s", (int)(close - open - 1),
			 open + 1);
	if (!cp_sysfs_read_line(root, "proc/sys/vm/nr_hugepages", reserved,
				sizeof(reserved)))
		snprintf(reserved, sizeof(reserved), "unknown");
	snprintf(env->huge_pages, sizeof(env->huge_pages),
		 "transparent %s, %s reserved", mode, reserved);
}

static void capture_load_and_date(const char *root, struct cp_environment *env)
{
	char line[128];
	time_t now = time(NULL);
	struct tm utc;

	if (cp_sysfs_read_line(root, "proc/loadavg", line, sizeof(line)))
		sscanf(line, "%lf %lf %lf", &env->load_average[0],
		       &env->load_average[1], &env->load_average[2]);
	gmtime_r(&now, &utc);
	strftime(env->date, sizeof(env->date), "%Y-%m-%dT%H:%M:%SZ", &utc);
}

void cp_environment_capture(const struct cp_environment_source *source,
			    struct cp_environment *env)
{
	const char *root = source ? source->root : NULL;

	memset(env, 0, sizeof(*env));
	cpuinfo_field(root, "model name", env->cpu_model,
		      sizeof(env->cpu_model));
	cpuinfo_field(root, "microcode", env->microcode,
		      sizeof(env->microcode));
	capture_kernel(root, env);
	capture_cpus(root, env);
	capture_hypervisor(root, env);
	capture_huge_pages(root, env);
	capture_load_and_date(root, env);
	snprintf(env->module_version, sizeof(env->module_version),
		 "not loaded");
}
