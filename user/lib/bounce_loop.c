// SPDX-License-Identifier: GPL-2.0
#include "bounce_loop.h"

/*
 * "+m" makes the counter a memory operand the asm both reads and writes;
 * __volatile__ keeps every one of the @count instructions.  Nothing else
 * touches memory in the loop.
 */
void cp_bounce_plain32(void *counter, uint64_t count)
{
	uint32_t *value = counter;

	for (uint64_t i = 0; i < count; i++)
		__asm__ __volatile__("addl $1, %0" : "+m"(*value));
}

void cp_bounce_plain64(void *counter, uint64_t count)
{
	uint64_t *value = counter;

	for (uint64_t i = 0; i < count; i++)
		__asm__ __volatile__("addq $1, %0" : "+m"(*value));
}

void cp_bounce_atomic32(void *counter, uint64_t count)
{
	uint32_t *value = counter;

	for (uint64_t i = 0; i < count; i++)
		__asm__ __volatile__("lock addl $1, %0" : "+m"(*value));
}

void cp_bounce_atomic64(void *counter, uint64_t count)
{
	uint64_t *value = counter;

	for (uint64_t i = 0; i < count; i++)
		__asm__ __volatile__("lock addq $1, %0" : "+m"(*value));
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
