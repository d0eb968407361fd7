// SPDX-License-Identifier: GPL-2.0
#include "machine/feature_names.h"

#include <linux/cacheprobe.h>

#include "util/text_sink.h"

struct feature_name {
	uint64_t bit;
	const char *name;
};

/* In bit order, which is the order users see them in. */
static const struct feature_name feature_names[] = {
	{ CACHEPROBE_FEAT_WBNOINVD, "wbnoinvd" },
	{ CACHEPROBE_FEAT_CLFLUSH, "clflush" },
	{ CACHEPROBE_FEAT_CLFLUSHOPT, "clflushopt" },
	{ CACHEPROBE_FEAT_CLWB, "clwb" },
	{ CACHEPROBE_FEAT_RDTSCP, "rdtscp" },
	{ CACHEPROBE_FEAT_INVARIANT_TSC, "invariant_tsc" },
	{ CACHEPROBE_FEAT_HYPERVISOR, "hypervisor" },
	{ CACHEPROBE_FEAT_AVX, "avx" },
	{ CACHEPROBE_FEAT_AVX512F, "avx512f" },
};

static const char *feature_name(unsigned int bit_index)
{
	for (size_t i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++)
		if (feature_names[i].bit == 1ull << bit_index)
			return feature_names[i].name;
	return NULL;
}

size_t cp_features_format(uint64_t features, char *buf, size_t len)
{
	struct cp_text_sink sink;

	cp_text_sink_init(&sink, buf, len);
	if (!features)
		cp_text_sink_printf(&sink, "none");
	for (unsigned int bit_index = 0; bit_index < 64; bit_index++) {
		const char *sep = sink.used ? " " : "";
		const char *name = feature_name(bit_index);

		if (!(features & (1ull << bit_index)))
			continue;
		if (name)
			cp_text_sink_printf(&sink, "%s%s", sep, name);
		else
			cp_text_sink_printf(&sink, "%sbit%u", sep, bit_index);
	}
	return sink.used;
}
