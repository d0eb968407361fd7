// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <hwloc.h>

#include "topology_fixture.h"

struct cp_topology *load_synthetic(const char *description)
{
	struct cp_topology_source source = {
		.kind = CP_TOPOLOGY_SYNTHETIC, .text = description,
	};
	struct cp_topology *topology = NULL;
	struct cp_error error;

	if (cp_topology_load(&source, &topology, &error))
		fail_msg("cannot load \"%s\": %s", description, error.msg);
	return topology;
}

/* @description with only @allowed allowed, as an XML export in a
 * temporary file (open until the caller closes it). */
static FILE *export_restricted(const char *description, const char *allowed)
{
	hwloc_topology_t hwloc;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	FILE *file = tmpfile();
	char *xml;
	int xml_len;

	assert_non_null(set);
	assert_non_null(file);
	assert_int_equal(hwloc_bitmap_list_sscanf(set, allowed), 0);
	assert_int_equal(hwloc_topology_init(&hwloc), 0);
	assert_int_equal(hwloc_topology_set_flags(
				 hwloc, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED),
			 0);
	assert_int_equal(hwloc_topology_set_synthetic(hwloc, description), 0);
	assert_int_equal(hwloc_topology_load(hwloc), 0);
	assert_int_equal(hwloc_topology_allow(hwloc, set, NULL,
					      HWLOC_ALLOW_FLAG_CUSTOM), 0);
	assert_int_equal(hwloc_topology_export_xmlbuffer(hwloc, &xml, &xml_len,
							 0), 0);
	assert_int_equal(fwrite(xml, 1, (size_t)xml_len - 1, file),
			 (size_t)xml_len - 1);
	fflush(file);
	hwloc_free_xmlbuffer(hwloc, xml);
	hwloc_topology_destroy(hwloc);
	hwloc_bitmap_free(set);
	return file;
}

struct cp_topology *load_restricted(const char *description,
				    const char *allowed)
{
	FILE *file = export_restricted(description, allowed);
	struct cp_topology_source source = { .kind = CP_TOPOLOGY_XML };
	struct cp_topology *topology = NULL;
	struct cp_error error;
	char path[64];

	snprintf(path, sizeof(path), "/dev/fd/%d", fileno(file));
	source.text = path;
	if (cp_topology_load(&source, &topology, &error))
		fail_msg("cannot load \"%s\" allowing %s: %s", description,
			 allowed, error.msg);
	fclose(file);
	return topology;
}
