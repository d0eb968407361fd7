/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Figures for people, shared by the console and the report: byte counts
 * in the largest binary unit that divides them exactly, times with a unit
 * that keeps three significant digits.
 */
#ifndef CACHEPROBE_FORMAT_H
#define CACHEPROBE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* "48 KiB", "260 MiB", "1280 KiB", "100 bytes"; returns @buf. */
const char *cp_format_size(uint64_t bytes, char *buf, size_t len);

/* @ns with a unit that keeps 3-4 significant digits: "1.72 ns",
 * "12.4 us", "3.05 ms", "1.20 s"; returns @buf. */
const char *cp_format_ns(double ns, char *buf, size_t len);

#endif
