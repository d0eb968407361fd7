// SPDX-License-Identifier: GPL-2.0
#include "areas/bounce/bounce_barrier.h"

#include <stdbool.h>

void cp_bounce_barrier_init(struct cp_bounce_barrier *barrier,
			    unsigned int parties)
{
	atomic_init(&barrier->arrived, 0);
	atomic_init(&barrier->generation, 0);
	barrier->parties = parties;
}

/* Count one arrival; the last one runs @hook and releases.  True for the
 * last one. */
static bool arrive(struct cp_bounce_barrier *barrier, unsigned int generation,
		   void (*hook)(void *data), void *data)
{
	if (atomic_fetch_add_explicit(&barrier->arrived, 1,
				      memory_order_acq_rel) + 1 !=
	    barrier->parties)
		return false;
	if (hook)
		hook(data);
	atomic_store_explicit(&barrier->arrived, 0, memory_order_relaxed);
	atomic_store_explicit(&barrier->generation, generation + 1,
			      memory_order_release);
	return true;
}

void cp_bounce_barrier_arrive(struct cp_bounce_barrier *barrier,
			      void (*hook)(void *data), void *data)
{
	arrive(barrier, atomic_load_explicit(&barrier->generation,
					     memory_order_acquire),
	       hook, data);
}

void cp_bounce_barrier_wait(struct cp_bounce_barrier *barrier,
			    void (*hook)(void *data), void *data)
{
	unsigned int generation = atomic_load_explicit(&barrier->generation,
						       memory_order_acquire);
	/* No yielding while waiting: on a busy machine a thread that gave its
	 * CPU away would come back milliseconds after the others left. */
	if (arrive(barrier, generation, hook, data))
		return;
	while (atomic_load_explicit(&barrier->generation,
				    memory_order_acquire) == generation) {
		__builtin_ia32_pause();
	}
}
