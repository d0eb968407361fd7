// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

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
