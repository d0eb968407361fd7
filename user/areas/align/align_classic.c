// SPDX-License-Identifier: GPL-2.0
#include "areas/align/align_classic.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "areas/align/align_loops.h"

unsigned int cp_align_classic_lines_per_step(unsigned int line,
					     uint32_t shift)
{
	return shift % line + line / 2 >= line ? 2 : 1;
}

static const unsigned char *first(const struct cp_align_classic *classic)
{
	return classic->buffer + classic->shift;
}

int cp_align_classic_build(struct cp_align_classic *classic, uint64_t size,
			   unsigned int line, uint32_t shift)
{
	uint64_t step = (uint64_t)line * CP_ALIGN_CLASSIC_STEP_LINES;
	size_t bytes = (size + line + 4095) & ~(size_t)4095;
	void *buffer;

	memset(classic, 0, sizeof(*classic));
	if (!line || shift >= line || size < step)
		return -EINVAL;
	buffer = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buffer == MAP_FAILED)
		return -ENOMEM;
	classic->buffer = buffer;
	classic->mapped_bytes = bytes;
	classic->size = size;
	classic->line = line;
	classic->shift = shift;
	classic->steps = size / step;
	for (size_t i = 0; i < bytes; i++)
		classic->buffer[i] = (unsigned char)(i * 151 + 17 + (i >> 8));
	for (uint64_t k = 0; k < classic->steps; k++)
		classic->lap_sum += first(classic)[k * step] +
				    first(classic)[k * step + line / 2];
	return 0;
}

void cp_align_classic_free(struct cp_align_classic *classic)
{
	if (classic->buffer)
		munmap(classic->buffer, classic->mapped_bytes);
	memset(classic, 0, sizeof(*classic));
}

uint64_t cp_align_classic_body(void *context, uint64_t count)
{
	struct cp_align_classic *classic = context;

	if (!count)
		return 0;
	classic->checksum += cp_align_classic_loop(
		first(classic), classic->line / 2,
		(uint64_t)classic->line * CP_ALIGN_CLASSIC_STEP_LINES,
		classic->steps, count);
	classic->laps += count;
	return classic->checksum;
}

bool cp_align_classic_verify(const struct cp_align_classic *classic)
{
	return classic->checksum == classic->laps * classic->lap_sum;
}
