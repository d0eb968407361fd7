// SPDX-License-Identifier: GPL-2.0
#include "cli/size_option.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const struct {
	const char *suffix;
	unsigned int shift;
} suffixes[] = {
	{ "", 0 }, { "B", 0 },
	{ "K", 10 }, { "KiB", 10 }, { "KB", 10 },
	{ "M", 20 }, { "MiB", 20 }, { "MB", 20 },
	{ "G", 30 }, { "GiB", 30 }, { "GB", 30 },
};

int cli_parse_size(const char *text, uint64_t *out, char *why, size_t why_len)
{
	uint64_t value = 0;
	const char *pos = text;

	if (!isdigit((unsigned char)*pos)) {
		snprintf(why, why_len,
			 "'%s' is not a size (e.g. 4096, 64K, 256M, 1G)", text);
		return -EINVAL;
	}
	for (; isdigit((unsigned char)*pos); pos++) {
		if (value > (UINT64_MAX >> 30) / 10) {
			snprintf(why, why_len, "size '%s' is too large", text);
			return -EINVAL;
		}
		value = value * 10 + (uint64_t)(*pos - '0');
	}
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		if (strcasecmp(pos, suffixes[i].suffix) != 0)
			continue;
		/* The digits fit; the unit may still carry them past 2^64. */
		if (value > (UINT64_MAX >> suffixes[i].shift)) {
			snprintf(why, why_len, "size '%s' is too large", text);
			return -EINVAL;
		}
		*out = value << suffixes[i].shift;
		return 0;
	}
	snprintf(why, why_len,
		 "unknown unit '%s' in size '%s' (use K, M or G)", pos, text);
	return -EINVAL;
}

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
