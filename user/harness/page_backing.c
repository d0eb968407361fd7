// SPDX-License-Identifier: GPL-2.0
#include "harness/page_backing.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mapping_sizes {
	unsigned long long rss_kb, anon_huge_kb, kernel_page_kb;
};

/* Whether @line opens a mapping ("start-end perms ..."), with its range. */
static int mapping_header(const char *line, uintptr_t *start, uintptr_t *end)
{
	/* Field names ("AnonHugePages:") may start with a hex digit, but
	 * none goes on with a '-'. */
	return sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", start, end) == 2;
}

static void read_field(const char *line, struct mapping_sizes *sizes)
{
	unsigned long long kb;

	if (sscanf(line, "Rss: %llu kB", &kb) == 1)
		sizes->rss_kb = kb;
	else if (sscanf(line, "AnonHugePages: %llu kB", &kb) == 1)
		sizes->anon_huge_kb = kb;
	else if (sscanf(line, "KernelPageSize: %llu kB", &kb) == 1)
		sizes->kernel_page_kb = kb;
}

static size_t page_size_of(const struct mapping_sizes *sizes)
{
	if (sizes->kernel_page_kb > 4)
		return (size_t)sizes->kernel_page_kb << 10;
	if (sizes->rss_kb && sizes->anon_huge_kb >= sizes->rss_kb)
		return (size_t)2 << 20;
	return sizes->kernel_page_kb ? 4096 : 0;
}

size_t cp_page_backing_parse(const char *smaps, const void *address)
{
	struct mapping_sizes sizes = { 0 };
	uintptr_t at = (uintptr_t)address, start, end;
	bool inside = false;
	const char *line = smaps;

	while (line && *line) {
		if (mapping_header(line, &start, &end)) {
			if (inside)
				break;
			inside = start <= at && at < end;
		} else if (inside) {
			read_field(line, &sizes);
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return inside ? page_size_of(&sizes) : 0;
}

/* All of /proc/self/smaps: it changes while read, so read it at once. */
static char *read_smaps(void)
{
	FILE *file = fopen("/proc/self/smaps", "re");
	size_t size = 0, used = 0;
	char *text = NULL;

	if (!file)
		return NULL;
	for (;;) {
		if (used + 4096 + 1 > size) {
			char *bigger = realloc(text, size = 2 * size + 65536);

			if (!bigger)
				break;
			text = bigger;
		}
		size_t got = fread(text + used, 1, size - used - 1, file);

		used += got;
		if (!got)
			break;
	}
	fclose(file);
	if (text)
		text[used] = '\0';
	return text;
}

size_t cp_page_backing(const void *address)
{
	char *smaps = read_smaps();
	size_t page_bytes = smaps ? cp_page_backing_parse(smaps, address) : 0;

	free(smaps);
	return page_bytes;
}
