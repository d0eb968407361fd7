// SPDX-License-Identifier: GPL-2.0
#include "machine/affinity.h"

#include <errno.h>
#include <sched.h>
#include <linux/cacheprobe.h>

static struct cp_cpuset *recorded;

/* The calling thread's affinity, for CPU ids below CACHEPROBE_MAX_CPUS
 * (the kernel's mask may be wider; no CPU beyond the limit is usable). */
static int read_affinity(struct cp_cpuset **out)
{
	size_t bytes = CPU_ALLOC_SIZE(CACHEPROBE_MAX_CPUS);
	cpu_set_t *mask = CPU_ALLOC(CACHEPROBE_MAX_CPUS);
	struct cp_cpuset *set = cp_cpuset_new(CACHEPROBE_MAX_CPUS);
	int ret = 0;

	if (!mask || !set) {
		ret = -ENOMEM;
	} else if (sched_getaffinity(0, bytes, mask)) {
		ret = -errno;
	} else {
		for (unsigned int cpu = 0; cpu < CACHEPROBE_MAX_CPUS; cpu++)
			if (CPU_ISSET_S(cpu, bytes, mask))
				cp_cpuset_set(set, cpu);
	}
	if (mask)
		CPU_FREE(mask);
	if (ret) {
		cp_cpuset_free(set);
		return ret;
	}
	*out = set;
	return 0;
}

int cp_affinity_record(void)
{
	if (recorded)
		return 0;
	return read_affinity(&recorded);
}

int cp_affinity_start(struct cp_cpuset **out)
{
	if (!recorded)
		return read_affinity(out);
	*out = cp_cpuset_clone(recorded);
	return *out ? 0 : -ENOMEM;
}
