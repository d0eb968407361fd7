// SPDX-License-Identifier: GPL-2.0
#include "areas/align/align_layout.h"

bool cp_align_splits_line(uint64_t address, unsigned int width,
			  unsigned int line)
{
	return line && width && address / line != (address + width - 1) / line;
}

bool cp_align_splits_page(uint64_t address, unsigned int width)
{
	return cp_align_splits_line(address, width, CP_ALIGN_PAGE);
}

enum cp_align_split cp_align_split_of(uint64_t address, unsigned int width,
				      unsigned int line)
{
	if (cp_align_splits_page(address, width))
		return CP_ALIGN_SPLIT_PAGE;
	if (cp_align_splits_line(address, width, line))
		return CP_ALIGN_SPLIT_LINE;
	return CP_ALIGN_SPLIT_NONE;
}

const char *cp_align_split_name(enum cp_align_split split)
{
	switch (split) {
	case CP_ALIGN_SPLIT_LINE:
		return "line";
	case CP_ALIGN_SPLIT_PAGE:
		return "page";
	default:
		return "none";
	}
}

size_t cp_align_nr_slots(uint64_t size, uint32_t stride, uint32_t offset,
			 unsigned int width)
{
	uint64_t end = (uint64_t)offset + width;

	if (!stride || size < end)
		return 0;
	return (size_t)((size - end) / stride + 1);
}

uint32_t cp_align_sweep_stride(uint32_t max_end)
{
	uint32_t stride = CP_ALIGN_MIN_STRIDE;

	while (stride < max_end)
		stride *= 2;
	return stride;
}

uint32_t cp_align_line_split_offset(unsigned int line, unsigned int width)
{
	return width > 1 ? line - width / 2 : line - 1;
}

uint32_t cp_align_page_split_offset(unsigned int width)
{
	return width > 1 ? CP_ALIGN_PAGE - width / 2 : 0;
}
