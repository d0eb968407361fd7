// SPDX-License-Identifier: GPL-2.0
#include "areas/bounce/bounce_loop.h"

#include "measure/bounce.h"

/* The loops are measure/bounce.h's, which the module runs too. */
void cp_bounce_plain32(void *counter, uint64_t count)
{
	cp_bounce_add_plain32(counter, count);
}

void cp_bounce_plain64(void *counter, uint64_t count)
{
	cp_bounce_add_plain64(counter, count);
}

void cp_bounce_atomic32(void *counter, uint64_t count)
{
	cp_bounce_add_atomic32(counter, count);
}

void cp_bounce_atomic64(void *counter, uint64_t count)
{
	cp_bounce_add_atomic64(counter, count);
}

cp_bounce_loop_fn cp_bounce_loop(enum cp_bounce_op op, unsigned int width)
{
	if (width != 4 && width != 8)
		return 0;
	switch (op) {
	case CP_BOUNCE_PLAIN:
		return width == 4 ? cp_bounce_plain32 : cp_bounce_plain64;
	case CP_BOUNCE_ATOMIC:
		return width == 4 ? cp_bounce_atomic32 : cp_bounce_atomic64;
	default:
		return 0;
	}
}
