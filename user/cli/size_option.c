// SPDX-License-Identifier: GPL-2.0
#include "cli/size_option.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* MemAvailable of /proc/meminfo in bytes: what can be allocated now
 * without swapping; 0 when unknown. */
static uint64_t available_memory(void)
{
	FILE *meminfo = fopen("/proc/meminfo", "r");
	unsigned long long kib = 0;
	char line[128];

	if (!meminfo)
		return 0;
	while (fgets(line, sizeof(line), meminfo))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(meminfo);
	return (uint64_t)kib * 1024;
}

int cli_check_size_fits_memory(uint64_t bytes, const char *text, char *why,
			       size_t why_len)
{
	long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
	uint64_t memory, available = available_memory();

	/* Unknown memory size: let the allocation say it. */
	if (pages <= 0 || page_size <= 0)
		return 0;
	memory = (uint64_t)pages * (uint64_t)page_size;
	if (bytes <= memory && (!available || bytes <= available))
		return 0;
	if (bytes > memory)
		snprintf(why, why_len,
			 "%s is more than this machine's memory (%.1f GiB)",
			 text, (double)memory / (1ull << 30));
	else
		snprintf(why, why_len,
			 "%s is more than this machine's available memory (MemAvailable %.1f GiB of %.1f GiB)",
			 text, (double)available / (1ull << 30),
			 (double)memory / (1ull << 30));
	return -E2BIG;
}
