/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which pages really map a buffer.  Asking for huge pages is a wish (THP
 * may be off, or memory too fragmented); the latency of a chase depends on
 * what was given, so it is read back and recorded.
 */
#ifndef CACHEPROBE_PAGE_BACKING_H
#define CACHEPROBE_PAGE_BACKING_H

#include <stddef.h>

/*
 * The page size mapping the memory at @address, from /proc/self/smaps:
 * the hugetlb page size for hugetlbfs mappings, 2 MiB when every resident
 * byte of the mapping is in transparent huge pages, else 4096 (the
 * smallest page present).  0 when smaps cannot be read or holds no
 * mapping at @address.
 */
size_t cp_page_backing(const void *address);

/* The same from an smaps text already read (for tests). */
size_t cp_page_backing_parse(const char *smaps, const void *address);

#endif
