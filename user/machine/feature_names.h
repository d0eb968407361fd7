/* SPDX-License-Identifier: GPL-2.0 */
/* Names of the CACHEPROBE_FEAT_* bits the module reports. */
#ifndef CACHEPROBE_FEATURE_NAMES_H
#define CACHEPROBE_FEATURE_NAMES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Write the names of the bits set in @features, space-separated in bit
 * order ("wbnoinvd clflush ..."), "none" when no bit is set.  A bit this
 * program does not know (a newer module) appears as "bitN".  Returns the
 * length of the whole text like snprintf.
 */
size_t cp_features_format(uint64_t features, char *buf, size_t len);

#endif
