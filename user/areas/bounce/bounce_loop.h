/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measured loops of the bounce area: @count increments of one counter
 * in memory, each a single read-modify-write instruction written in inline
 * assembly (addl/addq $1 to memory; lock addl/addq for atomic), so the
 * compiler can neither keep the counter in a register nor merge
 * increments.  In an optimised build each loop is the add plus the loop's
 * own decrement-and-branch (see user/doc/measuring.md).  The loops are
 * include/measure/bounce.h's, the module's too.
 */
#ifndef CACHEPROBE_BOUNCE_LOOP_H
#define CACHEPROBE_BOUNCE_LOOP_H

#include <stdint.h>

#include "areas/bounce/bounce_choices.h"

typedef void (*cp_bounce_loop_fn)(void *counter, uint64_t count);

void cp_bounce_plain32(void *counter, uint64_t count);
void cp_bounce_plain64(void *counter, uint64_t count);
void cp_bounce_atomic32(void *counter, uint64_t count);
void cp_bounce_atomic64(void *counter, uint64_t count);

/* The loop for @op on @width-byte counters (4 or 8), or NULL. */
cp_bounce_loop_fn cp_bounce_loop(enum cp_bounce_op op, unsigned int width);

#endif
